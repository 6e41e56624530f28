"""Home centres that change during a game (DPjudge's NEWHOMES: 1897, whose powers' homes become, for
the rest of the game, the centres each owns when the Winter 1899 adjustments begin).

A variant's `new_homes_in` names that year; from its adjustment phase on, the homes are the ones kept
in the position (`Position.homes`), set once by `settle_new_homes` as the game reaches it."""
from __future__ import annotations

from .calendar import Phase, PhaseKind
from .position import Position
from .variant import Variant


def home_centres(variant: Variant, position: Position, power: str) -> tuple[str, ...]:
    """This power's home centres now."""
    if position.homes is not None:
        return position.homes.get(power, ())
    if _reassigned(variant, position.phase):     # (not settled yet: the centres it owns at this moment)
        return position.centres_of(power)
    return variant.power(power).home_centres


def settle_new_homes(variant: Variant, position: Position) -> Position:
    """The position with its homes kept, once the game has reached the year's adjustments that
    reassign them (unchanged before, and after they are kept)."""
    if position.homes is not None or not _reassigned(variant, position.phase):
        return position
    return position.with_(homes={p: position.centres_of(p) for p in variant.power_ids})


def _reassigned(variant: Variant, phase: Phase) -> bool:
    year = variant.new_homes_in
    if year is None:
        return False
    adjusting = [i for i, s in enumerate(variant.calendar.seasons) if s.adjustments]
    return not phase < Phase(year, adjusting[-1], PhaseKind.ADJUSTMENT)
