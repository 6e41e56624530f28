"""Spaces open only in some seasons (DPjudge's `IN SPRING: WATER ARC` over a `SHUT ARC`: Loeb9's
Arctic Ocean, sea in Spring and impassable in Fall and Winter).

While a space is shut nothing moves into it, supports into it or retreats into it. A unit standing
there when it shuts is destroyed as the phase begins, unless the variant has the `hibernate` hook
(DPjudge's HIBERNATE): then it stays, may only hold, and moves again once the space opens.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .calendar import Phase
from .position import Position, Unit

if TYPE_CHECKING:  # variant.py imports this module for the type of its field
    from .variant import Variant

HIBERNATE = "hibernate"


@dataclass(frozen=True)
class SeasonalSpaces:
    """Provinces shut but in the seasons given (indexes into the calendar's seasons). An adjustment
    phase counts as the season it follows, as DPjudge names it after its own season (Winter)."""
    provinces: frozenset[str]
    open_in: frozenset[int]


def is_shut(variant: Variant, province: str, phase: Phase) -> bool:
    spaces = variant.seasonal
    return spaces is not None and province in spaces.provinces and not _open(spaces, phase)


def shut_now(variant: Variant, phase: Phase) -> frozenset[str]:
    """The spaces shut in this phase (none on most boards)."""
    spaces = variant.seasonal
    if spaces is None or _open(spaces, phase):
        return frozenset()
    return spaces.provinces


def _open(spaces: SeasonalSpaces, phase: Phase) -> bool:
    return phase.season in spaces.open_in and phase.kind.value != "A"


def trapped(variant: Variant, position: Position) -> tuple[Unit, ...]:
    """The units standing in a space shut in the position's phase."""
    if variant.seasonal is None:
        return ()
    return tuple(u for u in position.units if is_shut(variant, u.location.province, position.phase))


def close_spaces(variant: Variant, position: Position) -> Position:
    """The position as its phase begins: without `hibernate`, a unit in a space shut now is gone."""
    caught = trapped(variant, position)
    if not caught or HIBERNATE in variant.hooks:
        return position
    return Position(position.phase, tuple(u for u in position.units if u not in caught), dict(position.owners),
                    position.dislodged, position.homes)
