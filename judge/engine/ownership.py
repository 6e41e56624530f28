"""Supply-centre ownership: a centre belongs to whoever last occupied it at the end of a year with an
adjustment phase (`Calendar.adjusts`: every Fall in standard play, every tenth year in Hundred)."""
from __future__ import annotations

from .position import Position
from .variant import Variant


def update_ownership(variant: Variant, position: Position) -> Position:
    owners = dict(position.owners)
    for unit in position.units:
        if variant.board.province(unit.location.province).supply_centre:
            owners[unit.location.province] = unit.power
    return position.with_(owners=owners)
