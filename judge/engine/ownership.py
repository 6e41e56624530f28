"""Supply-centre ownership: a centre belongs to whoever last occupied it at the end of a year with an
adjustment phase (`Calendar.adjusts`: every Fall in standard play, every tenth year in Hundred).
With vassals (judge.engine.vassals) a unit does not take a centre from its own side, and the dummies
keep their homes."""
from __future__ import annotations

from . import vassals
from .position import Position
from .variant import Variant


def update_ownership(variant: Variant, position: Position) -> Position:
    owners = dict(position.owners)
    with_vassals = vassals.in_use(variant)
    for unit in position.units:
        province = unit.location.province
        if variant.board.province(province).supply_centre and (
                not with_vassals or vassals.captures(position, unit.power, owners.get(province))):
            owners[province] = unit.power
    if with_vassals:
        return vassals.settle(variant, position, owners)
    return position.with_(owners=owners)
