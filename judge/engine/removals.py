"""Which units a power loses when it does not order the removals it owes (civil disorder).

The editions differ (see `RemovalOrder`): 1982 counts the distance to the nearest
home centre (armies may cross water, as by convoy; fleets move as fleets); 2000
counts it to the country's home centres the same way; the 5th edition counts plain
adjacency to the nearest owned centre and keeps units on centres to the last. In
every edition fleets go before armies, then by province name in alphabetical order.
`2000-godip` reads the 2000 text as godip does: plain adjacency to the nearest home
centre, fleets before armies, then by the province's abbreviation.
"""
from __future__ import annotations

from .geography import UnitKind
from .homes import home_centres
from .position import Position, Unit
from .rules import RemovalOrder, Rules
from .variant import Variant

_FAR = 10_000


def civil_disorder_removals(variant: Variant, position: Position, power: str, count: int,
                            rules: Rules) -> list[Unit]:
    board = variant.board
    units = position.units_of(power)
    if rules.removal_order is RemovalOrder.FARTHEST_FROM_OWNED_CENTRE:
        dist = board.distances_from(position.centres_of(power))

        def key(u: Unit) -> tuple[bool, int, bool, str]:
            on_centre = board.province(u.location.province).supply_centre
            return (on_centre, -dist.get(u.location.province, _FAR), u.kind is not UnitKind.FLEET,
                    board.province(u.location.province).name)
    elif rules.removal_order is RemovalOrder.NEAREST_HOME_BY_ADJACENCY:
        dist = board.distances_from(home_centres(variant, position, power))

        def key(u: Unit) -> tuple[int, bool, str]:  # type: ignore[misc]
            return (-dist.get(u.location.province, _FAR), u.kind is not UnitKind.FLEET, str(u.location))
    else:
        home = home_centres(variant, position, power)
        by_any = board.distances_from(home)
        # fleets move as fleets, from the coast they are on: F SPA/NC is not next to Marseilles
        home_coasts = [c for h in home for c in board.fleet_locations(h)]
        by_fleet = board.distances_from(home_coasts, step=board.fleet_neighbours)

        def key(u: Unit) -> tuple[int, bool, str]:  # type: ignore[misc]
            far = by_any.get(u.location.province, _FAR) if u.kind is UnitKind.ARMY else by_fleet.get(u.location, _FAR)
            return (-far, u.kind is not UnitKind.FLEET,
                    board.province(u.location.province).name)
    return sorted(units, key=key)[:count]
