"""Retreats: each dislodged unit retreats to a space it may reach, or is disbanded.

Two retreats to one space: both units are disbanded (but one crossing a weak strait gives way to the
other: judge/engine/straits.py; then one round the Cape: cape.py). A unit without a valid retreat order is disbanded.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from . import army_fleet, cape, straits
from .geography import Location, UnitKind
from .orders import Disband, Move, Order, Retreat, UnitRef
from .outcomes import Outcome, PhaseResult, Reason, Rejected, Why
from .ownership import update_ownership
from .position import DislodgedUnit, Position, Unit
from .rules import Rules
from .variant import Variant


def adjudicate_retreats(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                        rules: Rules) -> PhaseResult:
    if not position.dislodged and not any(orders.values()):
        # nobody to retreat and nothing ordered: the board as it stands, in the next phase
        after = Position.moved_on(position, variant.calendar.next_phase(position.phase))
        return PhaseResult(position.phase, (), update_ownership(variant, after)
                           if variant.calendar.adjusts(position.phase) else after)
    dislodged = {d.unit.location.province: d for d in position.dislodged}
    outcomes: list[Outcome] = []
    chosen: dict[str, list[tuple[str, Order, Order]]] = {}
    for power, power_orders in orders.items():
        for given in power_orders:
            try:
                province, normal = _read(variant, dislodged, power, given)
            except Rejected as r:
                outcomes.append(Outcome(power, given, False, Reason.ILLEGAL, r.why, r.about))
                continue
            chosen.setdefault(province, []).append((power, normal, given))

    final: dict[str, tuple[str, Order, Order | None]] = {}
    for province, candidates in chosen.items():
        if len({n for _, n, _ in candidates}) > 1:
            for power, _, given in candidates:
                outcomes.append(Outcome(power, given, False, Reason.ILLEGAL, Why.CONFLICTING_RETREATS, (province,)))
            continue
        final[province] = candidates[-1]
    for province, d in dislodged.items():
        if province not in final:
            final[province] = (d.unit.power, Disband(UnitRef(d.unit.location, d.unit.kind)), None)

    to = {p: o.to.province for p, (_, o, _) in final.items() if isinstance(o, Retreat)}
    gave_way = straits.giving_way(variant.weak_straits, to)
    round_the_cape = cape.giving_way(variant.half_strength_borders, {h: t for h, t in to.items() if h not in gave_way})
    targets = Counter(there for here, there in to.items() if here not in gave_way | round_the_cape)
    units = list(position.units)
    for province, (power, normal, written) in sorted(final.items()):
        d = dislodged[province]
        shown = written if written is not None else normal
        by_judge = written is None
        if isinstance(normal, Retreat):
            if province in round_the_cape:
                outcomes.append(Outcome(power, shown, False, Reason.RETREAT_BOUNCED, Why.GAVE_WAY_ROUND_THE_CAPE,
                                        (normal.to.province,), (normal.to.province,)))
            elif province in gave_way:
                outcomes.append(Outcome(power, shown, False, Reason.RETREAT_BOUNCED, Why.GAVE_WAY_ACROSS_STRAIT,
                                        (normal.to.province,), (normal.to.province,)))
            elif targets[normal.to.province] > 1:
                outcomes.append(Outcome(power, shown, False, Reason.RETREAT_BOUNCED, Why.RETREAT_CLASH,
                                        (normal.to.province,), (normal.to.province,)))
            else:
                units, why = _arrive(variant, units, d.unit, normal.to)
                outcomes.append(Outcome(power, shown, True, Reason.RETREATED, why))
        else:
            if d.civil_disorder:
                reason = Reason.CIVIL_DISORDER
            elif d.retreats or not by_judge:
                reason = Reason.DISBANDED
            else:
                reason = Reason.DISBANDED_NO_RETREAT
            outcomes.append(Outcome(power, shown, True, reason, by_judge=by_judge))

    after = Position(variant.calendar.next_phase(position.phase), tuple(units), dict(position.owners), (),
                     position.homes, position.vassals)
    if variant.calendar.adjusts(position.phase):  # (Hundred: only every other turn, as vDiplomacy and godip)
        after = update_ownership(variant, after)
    return PhaseResult(position.phase, tuple(outcomes), after)


def _read(variant: Variant, dislodged: Mapping[str, DislodgedUnit], power: str,
          order: Order) -> tuple[str, Order]:
    board = variant.board
    if isinstance(order, Move):  # "A Bur-Gas" in a retreat phase means a retreat
        order = Retreat(order.unit, order.to)
    if not isinstance(order, (Retreat, Disband)):
        raise Rejected(Why.ONLY_RETREATS)
    province = order.unit.location.province
    if province not in board.provinces:
        raise Rejected(Why.NO_SUCH_PROVINCE, province)
    d = dislodged.get(province)
    if d is None:
        raise Rejected(Why.NOT_DISLODGED, province)
    if d.unit.power != power:
        raise Rejected(Why.NOT_YOUR_DISLODGED, province, d.unit.power)
    own = UnitRef(d.unit.location, d.unit.kind)
    if isinstance(order, Disband):
        return province, Disband(own)
    if d.civil_disorder:
        raise Rejected(Why.NO_RETREAT_IN_DISORDER, str(d.unit))
    dest = order.to
    if dest.province not in board.provinces:
        raise Rejected(Why.NO_SUCH_PROVINCE, dest.province)
    options = [loc for loc in d.retreats if loc.province == dest.province]
    if not options:
        raise Rejected(Why.CANNOT_RETREAT_THERE, str(d.unit), dest.province, *(str(loc) for loc in d.retreats))
    if dest.coast is not None and Location(dest.province, dest.coast) in options:
        return province, Retreat(own, dest)
    if dest.coast is not None and any(loc.coast is not None for loc in options):
        # a coast it cannot reach is an impossible order, as in a move (DATC 4.B.3, 6.B.3)
        raise Rejected(Why.CANNOT_REACH_COAST, str(d.unit), dest.coast.value, dest.province)
    if len(options) > 1:
        raise Rejected(Why.SAY_WHICH_COAST, dest.province, *(loc.coast.value for loc in options if loc.coast))
    return province, Retreat(own, options[0])


def _arrive(variant: Variant, units: list[Unit], unit: Unit, to: Location) -> tuple[list[Unit], Why | None]:
    """The board after a retreat, with the A/F rules: an A/F reaching a coast is a fleet again (its army
    is disbanded); an army retreating onto its own fleet at sea forms an A/F."""
    host = next((u for u in units if u.location.province == to.province), None)
    if host is not None and unit.kind is UnitKind.ARMY:
        board_after = [u for u in units if u is not host]
        return board_after + [Unit(unit.power, UnitKind.ARMY_FLEET, host.location)], \
            Why.BOARDED_FLEET
    kind = army_fleet.retreat_kind(variant, unit, to)
    return units + [Unit(unit.power, kind, to)], Why.FLEET_AGAIN if kind is not unit.kind else None
