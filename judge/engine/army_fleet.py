"""Armies aboard fleets (Abstraction II's A/F), as a rule hook the variant switches on ("army_fleet").

Agar's revision of the rules, as the variant text gives it:

- Embarking happens before movement: an army boards its own fleet in an adjacent sea and the
  two become one A/F there. A legal embarkation never fails (`embark`).
- The A/F moves, fights, supports and is supported as one fleet; it never enters a coast.
- Its army disembarks during movement, onto a coast next to the A/F's sea or next to the sea
  its fleet moves to this month. The movement code gives the army a decision of its own, keyed
  `army_key(province of the A/F)`, so the resolver sees it as just another move.
- A single-sea convoy is the Fast Ferry; an army the ferry cannot land stays aboard
  (`ferry_landing_failed`).
- Retreats: an A/F onto a coast is a fleet again; an army may retreat onto its own fleet at sea.

An A/F is two units for supply and for counting units: `unit_count`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .calendar import Phase
from .geography import Location, UnitKind
from .orders import Embark, Move, Order, UnitRef
from .outcomes import Outcome, Reason, Rejected, Why
from .position import Position, Unit
from .variant import Variant

HOOK = "army_fleet"
_ARMY_SUFFIX = "+army"


def enabled(variant: Variant) -> bool:
    return HOOK in variant.hooks


def army_key(province: str) -> str:
    """The decision of the army aboard the A/F in `province` (never a province id: ids have no '+')."""
    return province + _ARMY_SUFFIX


def unit_count(position: Position, power: str) -> int:
    """Units a power keeps on the board: an A/F is an army and a fleet, each needing a centre."""
    return sum(2 if u.kind is UnitKind.ARMY_FLEET else 1 for u in position.units_of(power))


def without_army(unit: Unit) -> Unit:
    """An A/F whose army has gone (landed, disbanded or removed) is a fleet again."""
    return Unit(unit.power, UnitKind.FLEET, unit.location) if unit.kind is UnitKind.ARMY_FLEET else unit


def embark(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]
           ) -> tuple[Position, dict[str, list[Order]], list[Outcome]]:
    """Carry out every legal embarkation; return the position after them, the other orders, and outcomes."""
    rest: dict[str, list[Order]] = {}
    wanted: list[tuple[str, Order, Unit, Unit]] = []
    outcomes: list[Outcome] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            boarding = _as_embark(variant, position, power, order)
            if boarding is None:
                rest.setdefault(power, []).append(order)
                continue
            try:
                army, fleet = _check(variant, position, power, boarding)
            except Rejected as e:
                outcomes.append(Outcome(power, order, False, Reason.ILLEGAL, e.why, e.about))
                continue
            wanted.append((power, order, army, fleet))
    # An army given another order too, two armies for one fleet, or one army for two fleets: none boards.
    other_orders = {o.unit.location.province for os in rest.values() for o in os if hasattr(o, "unit")}
    armies = [a.location.province for _, _, a, _ in wanted]
    fleets = [f.location.province for _, _, _, f in wanted]
    units = list(position.units)
    for power, order, army, fleet in wanted:
        where, sea = army.location.province, fleet.location.province
        clash = (Outcome(power, order, False, Reason.ILLEGAL, Why.EMBARK_WITH_OTHER_ORDER, (where,))
                 if where in other_orders else
                 Outcome(power, order, False, Reason.ILLEGAL, Why.EMBARK_TWICE, (where,))
                 if armies.count(where) > 1 else
                 Outcome(power, order, False, Reason.ILLEGAL, Why.TWO_ARMIES_ONE_FLEET, (sea,))
                 if fleets.count(sea) > 1 else None)
        if clash:
            outcomes.append(clash)  # the army does not embark
            continue
        units.remove(army)
        units[units.index(fleet)] = Unit(power, UnitKind.ARMY_FLEET, fleet.location)
        outcomes.append(Outcome(power, order, True, Reason.EMBARKED, Why.ABOARD, (fleet.location.province,)))
    return position.with_(units=tuple(units)), rest, outcomes


def _as_embark(variant: Variant, position: Position, power: str, order: Order) -> Embark | None:
    """An Embark, or what players also write for one: an army moving onto its own fleet at sea (`A Lon - Eng`)."""
    if isinstance(order, Embark):
        return order
    if not (enabled(variant) and isinstance(order, Move)) or order.to.province not in variant.board.provinces:
        return None
    army, fleet = position.unit_in(order.unit.location.province), position.unit_in(order.to.province)
    if (
        army is not None
        and army.kind is UnitKind.ARMY
        and army.power == power
        and fleet is not None
        and fleet.kind is UnitKind.FLEET
        and fleet.power == power
        and variant.board.province(order.to.province).is_sea
    ):
        return Embark(UnitRef(army.location, UnitKind.ARMY), UnitRef(fleet.location, UnitKind.FLEET))
    return None


def _check(variant: Variant, position: Position, power: str, order: Embark) -> tuple[Unit, Unit]:
    board = variant.board
    if not enabled(variant):
        raise Rejected(Why.NO_EMBARKING)
    where, sea = order.unit.location.province, order.fleet.location.province
    for p in (where, sea):
        if p not in board.provinces:
            raise Rejected(Why.NO_SUCH_PROVINCE, p)
    army, fleet = position.unit_in(where), position.unit_in(sea)
    if army is None or army.kind is not UnitKind.ARMY or army.power != power:
        raise Rejected(Why.NO_ARMY_TO_EMBARK, where)
    if not board.province(sea).is_sea:
        raise Rejected(Why.EMBARK_NOT_AT_SEA, sea)
    if fleet is None or fleet.kind is not UnitKind.FLEET or fleet.power != power:
        if fleet is not None and fleet.power == power and fleet.kind is UnitKind.ARMY_FLEET:
            raise Rejected(Why.FLEET_CARRIES_ARMY, sea)
        raise Rejected(Why.NO_FLEET_TO_BOARD, sea)
    if sea not in board.fleet_province_neighbours(where):
        raise Rejected(Why.SEA_NOT_NEXT_TO, sea, where)
    for p in (where, sea):
        if variant.is_frozen(p, position.phase):
            raise Rejected(Why.FROZEN_EMBARKING, p)
    return army, fleet


def ferry_landing_failed(army: Unit, fleets: Sequence[Unit]) -> Unit | None:
    """The A/F a Fast-Ferried army forms when it cannot land: aboard its own undislodged ferry, if any."""
    own = [f for f in fleets if f.power == army.power and f.kind is UnitKind.FLEET]
    return Unit(army.power, UnitKind.ARMY_FLEET, own[0].location) if own else None


def retreat_kind(variant: Variant, unit: Unit, to: Location) -> UnitKind:
    """An A/F retreating onto a coast reverts to a fleet (its army is disbanded)."""
    if unit.kind is UnitKind.ARMY_FLEET and not variant.board.province(to.province).is_sea:
        return UnitKind.FLEET
    return unit.kind


def retreat_options(variant: Variant, unit: Unit, occupant: Mapping[str, Unit], phase: Phase,
                    blocked: set[str]) -> list[Location]:
    """Where a dislodged unit may go: an A/F as a fleet (coasts included); an army also onto its own
    fleet in an adjacent sea, forming an A/F."""
    board = variant.board
    if unit.kind is UnitKind.ARMY_FLEET:
        return [dst for dst in board.fleet_neighbours(unit.location)
                if dst.province not in blocked and board.can_stand(UnitKind.FLEET, dst)]
    if unit.kind is UnitKind.ARMY:
        out = []
        for sea in board.fleet_province_neighbours(unit.location.province):
            host = occupant.get(sea)
            if board.province(sea).is_sea and host is not None and host.power == unit.power \
                    and host.kind is UnitKind.FLEET and not variant.is_frozen(sea, phase):
                out.append(Location(sea))
        return out
    return []


def removal(unit: Unit) -> Unit | None:
    """What stays on the board when a unit is removed: an A/F loses its army, anything else goes."""
    return without_army(unit) if unit.kind is UnitKind.ARMY_FLEET else None
