"""Retreats: each dislodged unit retreats to a space it may reach, or is disbanded.

Two retreats to one space: both units are disbanded. A unit without a valid
retreat order is disbanded.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from . import army_fleet
from .geography import Location, UnitKind
from .orders import Disband, Move, Order, Retreat, UnitRef
from .outcomes import Outcome, PhaseResult, Reason
from .ownership import update_ownership
from .position import DislodgedUnit, Position, Unit
from .rules import Rules
from .variant import Variant


class _Reject(Exception):
    pass


def adjudicate_retreats(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                        rules: Rules) -> PhaseResult:
    board = variant.board
    dislodged = {d.unit.location.province: d for d in position.dislodged}
    outcomes: list[Outcome] = []
    chosen: dict[str, list[tuple[str, Order, Order]]] = {}
    for power, power_orders in orders.items():
        for given in power_orders:
            try:
                province, normal = _read(variant, dislodged, power, given)
            except _Reject as r:
                outcomes.append(Outcome(power, given, False, Reason.ILLEGAL, str(r)))
                continue
            chosen.setdefault(province, []).append((power, normal, given))

    final: dict[str, tuple[str, Order, Order | None]] = {}
    for province, candidates in chosen.items():
        if len({n for _, n, _ in candidates}) > 1:
            for power, _, given in candidates:
                outcomes.append(Outcome(power, given, False, Reason.ILLEGAL,
                                        f"the unit in {board.province(province).name} was given "
                                        "conflicting orders; it is disbanded"))
            continue
        final[province] = candidates[-1]
    for province, d in dislodged.items():
        if province not in final:
            final[province] = (d.unit.power, Disband(UnitRef(d.unit.location, d.unit.kind)), None)

    targets = Counter(o.to.province for _, o, _ in final.values() if isinstance(o, Retreat))
    units = list(position.units)
    for province, (power, normal, given) in sorted(final.items()):
        d = dislodged[province]
        shown = given if given is not None else normal
        by_judge = given is None
        if isinstance(normal, Retreat):
            if targets[normal.to.province] > 1:
                outcomes.append(Outcome(power, shown, False, Reason.RETREAT_BOUNCED,
                                        f"another unit also retreated to {board.province(normal.to.province).name};"
                                        " both are disbanded", (normal.to.province,)))
            else:
                units, detail = _arrive(variant, units, d.unit, normal.to)
                outcomes.append(Outcome(power, shown, True, Reason.RETREATED, detail))
        else:
            if d.civil_disorder:
                reason = Reason.CIVIL_DISORDER
            elif d.retreats or not by_judge:
                reason = Reason.DISBANDED
            else:
                reason = Reason.DISBANDED_NO_RETREAT
            outcomes.append(Outcome(power, shown, True, reason, by_judge=by_judge))

    after = Position(variant.calendar.next_phase(position.phase), tuple(units), dict(position.owners), ())
    if variant.calendar.season(position.phase).adjustments:
        after = update_ownership(variant, after)
    return PhaseResult(position.phase, tuple(outcomes), after)


def _read(variant: Variant, dislodged: Mapping[str, DislodgedUnit], power: str,
          order: Order) -> tuple[str, Order]:
    board = variant.board
    if isinstance(order, Move):  # "A Bur-Gas" in a retreat phase means a retreat
        order = Retreat(order.unit, order.to)
    if not isinstance(order, (Retreat, Disband)):
        raise _Reject("only retreats and disbands can be ordered in a retreat phase")
    province = order.unit.location.province
    if province not in board.provinces:
        raise _Reject(f"there is no province {province!r} on this map")
    d = dislodged.get(province)
    name = board.province(province).name
    if d is None:
        raise _Reject(f"no unit was dislodged from {name}")
    if d.unit.power != power:
        raise _Reject(f"the dislodged unit in {name} belongs to {variant.power(d.unit.power).name}")
    own = UnitRef(d.unit.location, d.unit.kind)
    if isinstance(order, Disband):
        return province, Disband(own)
    if d.civil_disorder:
        raise _Reject(f"{_unit_words(variant, d)} cannot retreat: its power sent no orders for the move "
                      "(civil disorder), so it is disbanded")
    dest = order.to
    if dest.province not in board.provinces:
        raise _Reject(f"there is no province {dest.province!r} on this map")
    options = [loc for loc in d.retreats if loc.province == dest.province]
    dest_name = board.province(dest.province).name
    if not options:
        allowed = ", ".join(_name(variant, loc) for loc in d.retreats) or "nowhere: it can only disband"
        raise _Reject(f"{d.unit} cannot retreat to {dest_name}; it may retreat to {allowed}")
    if dest.coast is not None and Location(dest.province, dest.coast) in options:
        return province, Retreat(own, dest)
    if dest.coast is not None and any(loc.coast is not None for loc in options):
        # a coast it cannot reach is an impossible order, as in a move (DATC 4.B.3, 6.B.3)
        raise _Reject(f"{_unit_words(variant, d)} cannot reach the {dest.coast.full_name} of {dest_name}")
    if len(options) > 1:
        raise _Reject(f"say which coast of {dest_name}")
    return province, Retreat(own, options[0])


def _unit_words(variant: Variant, d: DislodgedUnit) -> str:
    """ "the army in Marseilles" """
    return f"the {d.unit.kind.full_name} in {_name(variant, d.unit.location)}"


def _name(variant: Variant, loc: Location) -> str:
    name = variant.board.province(loc.province).name
    return f"{name} ({loc.coast.full_name})" if loc.coast else name


def _arrive(variant: Variant, units: list[Unit], unit: Unit, to: Location) -> tuple[list[Unit], str]:
    """The board after a retreat, with the A/F rules: an A/F reaching a coast is a fleet again (its army
    is disbanded); an army retreating onto its own fleet at sea forms an A/F."""
    host = next((u for u in units if u.location.province == to.province), None)
    if host is not None and unit.kind is UnitKind.ARMY:
        board_after = [u for u in units if u is not host]
        return board_after + [Unit(unit.power, UnitKind.ARMY_FLEET, host.location)], \
            "the army boarded the fleet there: an A/F"
    kind = army_fleet.retreat_kind(variant, unit, to)
    detail = "it is a fleet again: its army is disbanded" if kind is not unit.kind else ""
    return units + [Unit(unit.power, kind, to)], detail
