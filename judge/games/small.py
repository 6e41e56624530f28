"""The rulebooks' ways to play the standard game with fewer than seven players.

A setup divides the powers into seats (what one person plays) and neutral powers. Neutral
units are never ordered: the engine holds them (a hold may be supported by anyone),
disbands them when dislodged and never builds for them, as the rulebooks say. Supply
centres stay counted per country even when one person plays several.

The two-player game is the World War I game: it starts in 1914, Italy is neutral and
Italian territory cannot be entered, a coin decides before the Fall 1914 adjustments whom
Italy joins in Spring 1915, and 24 centres win (1982: 24 units on the board).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.variant import Variant


@dataclass(frozen=True)
class Setup:
    name: str
    seats: tuple[tuple[str, ...], ...]
    neutral: tuple[str, ...] = ()
    start_year: int | None = None
    victory_centres: int | None = None
    victory_by_player: bool = False
    world_war: bool = False          # Italian territory closed, the coin toss, Italy joins in 1915

    @property
    def players(self) -> int:
        return len(self.seats)


def _solo(*powers: str) -> tuple[tuple[str, ...], ...]:
    return tuple((p,) for p in powers)


SETUPS: dict[str, Setup] = {s.name: s for s in (
    Setup("seven", _solo("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")),
    Setup("six", _solo("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"), neutral=("ITALY",)),
    Setup("five", _solo("AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"), neutral=("GERMANY", "ITALY")),
    Setup("four", (("ENGLAND",), ("AUSTRIA", "FRANCE"), ("GERMANY", "TURKEY"), ("ITALY", "RUSSIA"))),
    # 1982 alternative 1; the 2000 and 5th editions give only the second, named "three" here.
    Setup("three-1982", (("RUSSIA",), ("ENGLAND", "FRANCE", "GERMANY"), ("AUSTRIA", "ITALY", "TURKEY"))),
    Setup("three", (("ENGLAND", "GERMANY", "AUSTRIA"), ("RUSSIA", "ITALY"), ("FRANCE", "TURKEY"))),
    Setup("two", (("ENGLAND", "FRANCE", "RUSSIA"), ("AUSTRIA", "GERMANY", "TURKEY")), neutral=("ITALY",),
          start_year=1914, victory_centres=24, victory_by_player=True, world_war=True),
)}

# World War I: Italian territory, closed until Italy joins a side in Spring 1915.
ITALIAN_TERRITORY = frozenset({"pie", "ven", "tus", "rom", "apu", "nap"})
WORLD_WAR_TOSS_YEAR = 1914


# One player per power of whatever variant is played: a variant with its own powers (Chaos's 34,
# Youngstown's ten, France vs Austria's two) is played this way.
EACH = "each"


def setup(name: str, variant: Variant | None = None) -> Setup:
    """A setup by name; "each" gives every power of `variant` its own seat (none if not given), but
    its dummy powers, which nobody plays: they are neutral (judge.engine.dummies)."""
    key = name.strip().lower()
    if key == EACH:
        if variant is None:
            return Setup(EACH, ())
        return Setup(EACH, _solo(*(p for p in variant.power_ids if p not in variant.dummies)),
                     neutral=tuple(p for p in variant.power_ids if p in variant.dummies))
    try:
        return SETUPS[key]
    except KeyError:
        raise ValueError(f"unknown player setup {name!r}; known: {', '.join([*SETUPS, EACH])}") from None


def seat_name(seat: tuple[str, ...]) -> str:
    return "/".join(seat)


def parse_seat(setup_: Setup, text: str) -> tuple[str, ...]:
    """A seat named by any one of its powers or by all of them, in any case and order."""
    wanted = {w.strip().upper() for w in text.replace("/", " ").split() if w.strip()}
    for seat in setup_.seats:
        if wanted and wanted <= set(seat):
            return seat
    raise ValueError(f"no seat {text!r} in the {setup_.name}-player game; seats: "
                     + ", ".join(seat_name(s) for s in setup_.seats))
