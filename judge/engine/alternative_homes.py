"""Alternative home centres and hidden builds (DPjudge's `@X` and `~X` home marks: Zeus's California).

An alternative home centre is one of the power's home centres where it may build only in place of a
build in one of its ordinary home centres that is free to build in: either any of them, or only
those named (`@CAL(NYO)`: California in place of New York). So it adds a build site but never a
build: a power may not fill every site of an alternative's group (the alternative and the free
sites it stands in for), and an alternative with no free site to stand in for is no build site.

A hidden build (`~NYO`) is a build the other powers are not told of until the next movement phase
is played: its outcome says so (`Why.BUILT_HIDDEN`), and the games layer keeps it out of what the
others read (judge/games/hidden_builds.py).

Both may differ in one phase (DPjudge's `IN W1939A`: a map that changes in a given phase): a
power's marks for that phase replace its marks for every other.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .calendar import Phase

if TYPE_CHECKING:       # variant.py imports the values here
    from .variant import Variant


@dataclass(frozen=True)
class Alternative:
    centre: str
    instead_of: frozenset[str] = frozenset()    # empty: any ordinary home centre of the power


@dataclass(frozen=True)
class BuildMarks:
    """One power's alternative home centres and the centres whose builds are hidden, in `phase`
    only (None: in every phase without marks of its own)."""
    power: str
    alternatives: tuple[Alternative, ...] = ()
    hidden: frozenset[str] = frozenset()
    phase: Phase | None = None


def marks_for(variant: Variant, power: str, phase: Phase) -> BuildMarks | None:
    """This power's marks in this phase: the phase's own, else the ones for every phase."""
    general = None
    for marks in variant.build_marks:
        if marks.power == power:
            if marks.phase == phase:
                return marks
            if marks.phase is None:
                general = marks
    return general


def hidden_site(variant: Variant, power: str, phase: Phase, province: str) -> bool:
    """Whether a build there by this power in this phase is hidden from the others."""
    marks = marks_for(variant, power, phase)
    return marks is not None and province in marks.hidden


@dataclass(frozen=True)
class Group:
    """An alternative home centre and the free build sites it may stand in for, itself included."""
    alternative: str
    sites: frozenset[str]


def groups(variant: Variant, power: str, phase: Phase, free: Collection[str]) -> tuple[Group, ...]:
    """The alternative groups among these free build sites. A power never builds in every site of
    a group."""
    marks = marks_for(variant, power, phase)
    if marks is None:
        return ()
    alternatives = {a.centre for a in marks.alternatives}
    out = []
    for alt in marks.alternatives:
        if alt.centre in free:
            stands_for = alt.instead_of or frozenset(free) - alternatives
            out.append(Group(alt.centre, frozenset({alt.centre} | {c for c in free if c in stands_for})))
    return tuple(out)


def fills_a_group(groups_: Sequence[Group], built: Collection[str], site: str) -> Group | None:
    """The group a build at `site` would fill, with the builds already made (None: it fills none)."""
    for group in groups_:
        if site in group.sites and group.sites <= {site, *built}:
            return group
    return None


def choose(groups_: Sequence[Group], sites: Sequence[str], count: int, built: Collection[str] = ()) -> tuple[str, ...]:
    """Up to `count` of these sites, in their order, that fill no group with the builds already
    made: ordinary sites taken before alternatives, so as many builds are made as may be."""
    alternatives = {g.alternative for g in groups_}
    chosen: list[str] = []
    for site in [s for s in sites if s not in alternatives] + [s for s in sites if s in alternatives]:
        if len(chosen) < count and fills_a_group(groups_, [*built, *chosen], site) is None:
            chosen.append(site)
    return tuple(s for s in sites if s in chosen)
