"""Dummy powers: powers of a variant that nobody plays (DPjudge's DUMMY; Sengoku's neutral armies).

A dummy never gives orders of its own: its units hold, and a hold may be supported by anyone. What
else becomes of it is what the variant's hooks say, after DPjudge's rules of the same names:
`immobile_dummies` (its units may only hold, support or convoy: a move is refused), `cd_dummies`
(it is in civil disorder from the start) and, with either, a dislodged unit of its is destroyed
with no retreat; `cd_builds` (it builds when it may, rather than waiving). DPjudge chooses a
civil-disorder build at random; here the choice is fixed, so a game replays the same: each free
build site in turn (sorted), an army where an army can stand, else a fleet.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .fast_movement import in_disorder
from .geography import Location, UnitKind
from .orders import Build, Move, Order
from .position import Position
from .rules import Rules
from .variant import Variant

IMMOBILE = "immobile_dummies"
IN_DISORDER = "cd_dummies"
BUILDS = "cd_builds"


def immobile(variant: Variant, power: str) -> bool:
    """Whether this power's units may not move (hook `immobile_dummies`, the power a dummy)."""
    return IMMOBILE in variant.hooks and power in variant.dummies


def orders_move_immobile(variant: Variant, orders: Mapping[str, Sequence[Order]]) -> bool:
    """Whether any of these orders moves a unit that may not move (the general engine refuses it)."""
    if IMMOBILE not in variant.hooks:  # (every phase asks: most variants answer here, nothing read or made)
        return False
    return any(immobile(variant, power) and any(isinstance(o, Move) for o in given)
               for power, given in orders.items())


def destroyed_when_dislodged(variant: Variant) -> frozenset[str]:
    """The dummies whose dislodged units are destroyed rather than retreat."""
    if IMMOBILE in variant.hooks or IN_DISORDER in variant.hooks:
        return variant.dummies
    return frozenset()


def disorder_with_dummies(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                          rules: Rules, disorder: Collection[str] | None) -> Collection[str] | None:
    """The powers in civil disorder for a movement phase (see `phase.adjudicate`), with the dummies
    whose dislodged units never retreat added."""
    # (a vassal, which a power's player orders, retreats as that power's units do: judge.engine.vassals)
    destroyed = destroyed_when_dislodged(variant)
    if not destroyed:  # (every phase asks: most variants answer here, no set made)
        return disorder
    gone = destroyed - set(position.vassals or ())
    if not gone:
        return disorder
    return in_disorder(position, orders, rules, disorder) | gone


def builds_by_rule(variant: Variant, power: str) -> bool:
    """Whether the judge builds for this power when it gives no build orders (hook `cd_builds`)."""
    return BUILDS in variant.hooks and power in variant.dummies


def rule_builds(variant: Variant, sites: Sequence[str], due: int) -> tuple[Build, ...]:
    """The builds made for a dummy: at the first `due` of these free sites, sorted; an army where an
    army can stand, else a fleet (on the first coast of a split-coast province)."""
    board = variant.board
    builds: list[Build] = []
    for site in sorted(sites):
        if len(builds) >= due:
            break
        province = board.province(site)
        if not province.is_sea and UnitKind.ARMY in variant.unit_kinds:
            builds.append(Build(UnitKind.ARMY, Location(site)))
        elif not province.is_land and UnitKind.FLEET in variant.unit_kinds:
            coast = province.coasts[0] if province.coasts else None
            builds.append(Build(UnitKind.FLEET, Location(site, coast)))
    return tuple(builds)
