"""Which movement orders are legal, and what each legal order means.

This runs before adjudication. It ties every order to a unit, applies the DATC's
"poorly written order" readings (wrong unit kind or own coast ignored, the only
reachable coast assumed, coasts on armies dropped), rejects impossible orders with
a reason (the unit then holds), and decides for each army move whether it goes by
land or by convoy, as the rules in force say.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from . import army_fleet, cape, dummies
from .board import Board
from .entries import Entry, MovementOrders, Route
from .entries import Rejected as _Reject
from .geography import Location, UnitKind
from .landings import af_army_could_land, as_disembark, disembarkations
from .orders import (
    Convoy,
    Disembark,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    UnitRef,
)
from .outcomes import Outcome, Reason, Why
from .owner_edges import closed_to
from .seasonal import shut_now
from .position import Position, Unit
from .rules import AdjacentConvoy, Rules, SupportCoast
from .straits import crosses
from .variant import Variant

__all__ = ["Entry", "MovementOrders", "Route", "normalise"]


def normalise(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
              rules: Rules) -> MovementOrders:
    board = variant.board
    rejected: list[Outcome] = []
    entries: dict[str, Entry] = {}
    # a unit ordered more than once: province -> every (power, unit, normalised, given) for it
    repeated: dict[str, list[tuple[str, Unit, Order, Order]]] = {}

    landings: list[tuple[str, Disembark, Order]] = []
    with_af = army_fleet.enabled(variant)
    # The everyday board (no A/F, no ice) lets a plainly legal hold, move or support be read in a few steps.
    # (a move of a unit that may not move is read closely, to be refused: judge.engine.dummies)
    plain = not with_af and variant.frozen is None and not variant.owner_edges and not variant.weak_straits \
        and not variant.half_strength_borders and not shut_now(variant, position.phase) \
        and not dummies.orders_move_immobile(variant, orders)
    by_province = position._by_province  # (the unit in each province: read for every order)
    # the provinces of the units given a move, a support of a move or a convoy: the checks below
    # look only at theirs
    kinds: dict[type, list[str]] = {Move: [], SupportMove: [], Convoy: []}
    all_plain = plain  # every order read by `_as_written`
    for power, power_orders in orders.items():
        for given in power_orders:
            if with_af:
                landing = as_disembark(variant, position, power, given)
                if landing is not None:
                    landings.append((power, landing, given))
                    continue
            plain_unit = _as_written(board, by_province, power, given) if plain else None
            if plain_unit is not None:
                unit, normal = plain_unit, given
            else:
                all_plain = False
                try:
                    unit, normal = _read(variant, position, power, given, rules)
                except _Reject as r:
                    rejected.append(Outcome(power, given, False, Reason.ILLEGAL, r.why, r.about))
                    continue
            province = unit.location.province
            if province in entries:
                before = entries[province]
                repeated.setdefault(province, [(before.power, before.unit, _in_full(before.order, by_province),
                                                before.given or before.order)])
                repeated[province].append((power, unit, _in_full(normal, by_province), given))
            else:
                kind = type(normal)
                if kind is Move or kind is SupportMove or kind is Convoy:
                    kinds[kind].append(province)
            entries[province] = Entry(power, unit, normal, given)

    for province, candidates in repeated.items():
        if len({normal for _, _, normal, _ in candidates}) > 1:
            # DATC 4.D.3: two different orders for one unit; neither is carried out.
            del entries[province]
            for power, _, _, given in candidates:
                rejected.append(Outcome(power, given, False, Reason.ILLEGAL, Why.CONFLICTING_ORDERS, (province,)))

    known: list[int] = []

    def fleets_at_sea() -> int:
        """Where convoys could be, as a set of the compiled map (judge.engine.graph): worked out
        only if asked, about a convoy or a move beyond the next province."""
        if not known:
            known.append(board.graph.bits(u.location.province for u in position.units
                                          if u.kind is UnitKind.FLEET and u.location.province in board.convoy_waters))
        return known[0]

    if repeated:  # some unit's first order was replaced, or it has none now: list them again
        kinds = {Move: [], SupportMove: [], Convoy: []}
        for province, e in entries.items():
            if type(e.order) in kinds:
                kinds[type(e.order)].append(province)

    convoys = kinds.get(Convoy, [])
    entries = _check_convoys(variant, entries, convoys, rejected, fleets_at_sea)
    if not (all_plain and not convoys):  # (else every move is an army's by land, or a fleet's)
        entries = _choose_routes(variant, position, entries, kinds.get(Move, []), convoys, rejected, rules,
                                 fleets_at_sea)
    if landings:
        entries = disembarkations(variant, position, entries, landings, rejected)
    if not all_plain:  # (else every support of a move is of one the supported unit can make)
        entries = _check_supports(variant, position, entries, kinds.get(SupportMove, []), rejected, fleets_at_sea)

    # A unit whose order was rejected holds; remember why, since some rules treat it apart.
    why_rejected: dict[str, Why | None] = {}
    for outcome in rejected:
        ref = getattr(outcome.order, "unit", None)
        owner = position.unit_in(ref.location.province) if ref is not None else None
        if owner is not None and owner.power == outcome.power:
            why_rejected.setdefault(owner.location.province, outcome.why)
    if plain and len(entries) == len(position.units):
        return MovementOrders(entries, tuple(rejected))  # every unit has its order (keys are its provinces)
    for unit in position.units:
        if unit.location.province not in entries:
            hold = Hold(UnitRef(unit.location, unit.kind))
            entries[unit.location.province] = Entry(unit.power, unit, hold, None,
                                                    rejected_reason=why_rejected.get(unit.location.province))
    return MovementOrders(entries, tuple(rejected))


def _as_written(board: Board, by_province: Mapping[str, Unit], power: str, order: Order) -> Unit | None:
    """The power's unit when `order` is a hold, a move or a support that is plainly legal (to be
    carried out as written), else None. `by_province`: the position's unit in each province.

    Most orders are; for them this answers what `_read` would with the fewest steps. Anything less
    plain (a coast to infer, a convoy, a unit named wrongly) goes to `_read`. A support is taken as
    written too: the supported unit is read by its province alone from here on (`_in_full` gives
    the form `_read` makes, where two orders for one unit are compared)."""
    kind = type(order)
    if kind is not Hold and kind is not Move and kind is not SupportHold and kind is not SupportMove:
        return None
    ref = order.unit  # type: ignore[union-attr]  # one of the four kinds above
    at = ref.location  # (province and coast compared apart: a Location's == is a Python call)
    unit = by_province.get(at.province)
    if unit is None or unit.power != power or ref.power is not None or ref.kind is not unit.kind \
            or at.coast is not unit.location.coast:
        return None
    if kind is Hold:
        return unit
    if type(order) is Move:
        to = order.to
        if unit.kind is UnitKind.ARMY:  # (by land: "via convoy" is `_read`'s and `_choose_routes`')
            plain = to.coast is None and not order.via_convoy and to.province in board.army_steps(at.province)
        else:
            reach = board.fleet_can_reach_province(unit.location, to.province)
            # one way in, and the order names it (a coast to choose or to infer is `_read`'s)
            plain = not order.via_convoy and not order.route and len(reach) == 1 and reach[0].coast is to.coast
        return unit if plain else None
    # a support: of a unit that is there, into a province this unit could enter (no coast named)
    if not isinstance(order, (SupportHold, SupportMove)):
        return None
    target = by_province.get(order.supported.location.province)
    if target is None or target is unit:
        return None
    if type(order) is SupportHold:
        return unit if board.can_reach_province(unit.kind, unit.location, target.location.province) else None
    if not isinstance(order, SupportMove):
        return None
    to = order.to
    if to.coast is not None or to.province == at.province or to.province == target.location.province \
            or not board.can_reach_province(unit.kind, unit.location, to.province):
        return None
    # ... and the supported unit could make the move itself (a move only a convoy could make is
    # `_check_supports`' to judge)
    if target.kind is UnitKind.ARMY:
        return unit if to.province in board.army_neighbours(target.location.province) else None
    return unit if board.can_reach_province(target.kind, target.location, to.province) else None


def _in_full(order: Order, by_province: Mapping[str, Unit]) -> Order:
    """A support naming the supported unit as it is (place, kind, power), as `_read` writes it: the
    form in which two orders for one unit are the same order or not (DATC 4.D.3)."""
    if isinstance(order, (SupportHold, SupportMove)):
        target = by_province.get(order.supported.location.province)
        if target is not None:
            full = UnitRef(target.location, target.kind, target.power)
            if isinstance(order, SupportHold):
                return SupportHold(order.unit, full)
            return SupportMove(order.unit, full, order.to)
    return order


def _read(variant: Variant, position: Position, power: str, order: Order,
          rules: Rules) -> tuple[Unit, Order]:
    """Tie an order to its unit and check what can be checked without other orders."""
    board = variant.board
    if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
        if type(order).__name__ in ("Embark", "Disembark"):
            raise _Reject(Why.NO_EMBARKING)
        raise _Reject(Why.NOT_IN_THIS_PHASE, type(order).__name__.lower())
    province = order.unit.location.province
    unit = position.unit_in(province)
    if unit is None:
        if province not in board.provinces:
            raise _Reject(Why.NO_SUCH_PROVINCE, province)
        raise _Reject(Why.NO_UNIT, province)
    if unit.power != power:
        raise _Reject(Why.NOT_YOUR_UNIT, province, unit.power)
    own = _own_ref(unit, order.unit)

    if isinstance(order, Hold):
        return unit, order if own is order.unit else Hold(own)
    shut = shut_now(variant, position.phase)
    if province in shut:
        raise _Reject(Why.TRAPPED, province)
    if unit.kind is not UnitKind.ARMY and variant.is_frozen(province, position.phase):
        raise _Reject(Why.FROZEN_FLEET, province)
    if isinstance(order, Move):
        if dummies.immobile(variant, power):
            raise _Reject(Why.IMMOBILE_DUMMY, power)
        if order.to.province in shut:
            raise _Reject(Why.SHUT_THIS_SEASON, order.to.province)
        if not order.via_convoy:
            _check_owner_edge(variant, position, unit, order.to.province)
        return unit, _read_move(variant, unit, own, order)
    if isinstance(order, SupportHold):
        target = _target_unit(variant, position, order.supported.location.province)
        if target.location.province == unit.location.province:
            raise _Reject(Why.SUPPORTS_ITSELF)
        if not board.can_reach_province(unit.kind, unit.location, target.location.province):
            raise _Reject(Why.CANNOT_SUPPORT_HOLD_THERE, str(unit), target.location.province)
        if target.location.province in shut:
            raise _Reject(Why.SHUT_THIS_SEASON, target.location.province)
        _check_owner_edge(variant, position, unit, target.location.province)
        _check_strait(variant, unit, target.location.province)
        _check_cape(variant, unit, target.location.province)
        return unit, SupportHold(own, UnitRef(target.location, target.kind, target.power))
    if isinstance(order, SupportMove):
        target = _target_unit(variant, position, order.supported.location.province)
        dest = order.to
        if dest.province not in board.provinces:
            raise _Reject(Why.NO_SUCH_PROVINCE, dest.province)
        if target.location.province == unit.location.province and not (
                unit.kind is UnitKind.ARMY_FLEET and not board.province(dest.province).is_sea):
            # ... except that an A/F's fleet may support its own army's landing (army_fleet)
            raise _Reject(Why.SUPPORTS_OWN_MOVE)
        if dest.province == unit.location.province:
            raise _Reject(Why.SUPPORT_INTO_OWN_PROVINCE)
        if dest.province == target.location.province:
            raise _Reject(Why.SUPPORTED_MOVE_GOES_NOWHERE)
        if not board.can_reach_province(unit.kind, unit.location, dest.province):
            raise _Reject(Why.CANNOT_SUPPORT_MOVE_THERE, str(unit), dest.province)
        if dest.province in shut:
            raise _Reject(Why.SHUT_THIS_SEASON, dest.province)
        _check_owner_edge(variant, position, unit, dest.province)
        _check_strait(variant, unit, dest.province)
        _check_cape(variant, unit, dest.province)
        if dest.coast is not None and dest.coast not in board.coasts_of(dest.province):
            dest = dest.bare  # an unknown coast is ignored (DATC 4.B.6)
        if rules.support_coast is SupportCoast.IGNORED:
            dest = dest.bare
        return unit, SupportMove(own, UnitRef(target.location, target.kind, target.power), dest)
    # Convoy
    return unit, _read_convoy(variant, position, unit, own, order)


def _check_owner_edge(variant: Variant, position: Position, unit: Unit, there: str) -> None:
    """A border only owners of some centres cross (Imperial's Bosphorus): refused to other powers."""
    if variant.owner_edges:
        lacking = closed_to(variant.owner_edges, position, unit.power, unit.location.province, there)
        if lacking:
            raise _Reject(Why.BORDER_NEEDS_CENTRES, unit.location.province, there, *lacking)


def _check_strait(variant: Variant, unit: Unit, there: str) -> None:
    """No unit supports across a strait (Loeb9's weak straits: judge/engine/straits.py)."""
    if crosses(variant.weak_straits, unit.location.province, there):
        raise _Reject(Why.NO_SUPPORT_ACROSS_STRAIT, unit.location.province, there)


def _check_cape(variant: Variant, unit: Unit, there: str) -> None:
    """No unit supports round the Cape (1900: judge/engine/cape.py)."""
    if cape.crosses(variant.half_strength_borders, unit.location.province, there):
        raise _Reject(Why.NO_SUPPORT_ROUND_THE_CAPE, unit.location.province, there)


def _own_ref(unit: Unit, ref: UnitRef) -> UnitRef:
    """The unit as it really is, kind and coast (DATC 4.B.5, 4.C.2); the order's own reference if it says so."""
    if ref.kind is unit.kind and ref.power is None and (ref.location is unit.location or ref.location == unit.location):
        return ref
    return UnitRef(unit.location, unit.kind)


def _target_unit(variant: Variant, position: Position, province: str) -> Unit:
    board = variant.board
    if province not in board.provinces:
        raise _Reject(Why.NO_SUCH_PROVINCE, province)
    target = position.unit_in(province)
    if target is None:
        raise _Reject(Why.NO_UNIT_TO_SUPPORT, province)
    return target


def _read_move(variant: Variant, unit: Unit, own: UnitRef, order: Move) -> Move:
    board = variant.board
    dest = order.to
    if dest.province not in board.provinces:
        raise _Reject(Why.NO_SUCH_PROVINCE, dest.province)
    target = board.province(dest.province)
    if dest.province == unit.location.province:
        raise _Reject(Why.MOVE_TO_OWN_PROVINCE)
    if unit.kind is UnitKind.ARMY:
        if target.is_sea:
            raise _Reject(Why.ARMY_TO_SEA, dest.province)
        if not board.can_stand(UnitKind.ARMY, dest.bare):
            raise _Reject(Why.IMPASSABLE, dest.province)
        if dest.province not in board.army_neighbours(unit.location.province) and not (
                board.coastal_for_convoy(unit.location.province) and board.coastal_for_convoy(dest.province)):
            raise _Reject(Why.NOT_ADJACENT, dest.province, unit.location.province)
        if own is order.unit and dest.coast is None:
            return order
        return Move(own, dest.bare, order.via_convoy, order.route)
    if unit.kind is UnitKind.ARMY_FLEET and not target.is_sea:
        raise _Reject(Why.AF_TO_COAST, dest.province)
    # a fleet
    if target.is_land:
        raise _Reject(Why.FLEET_INLAND, dest.province)
    reachable = board.fleet_can_reach_province(unit.location, dest.province)
    if not reachable:
        raise _Reject(Why.FLEET_NOT_ADJACENT, dest.province, str(unit))
    if target.coasts:
        if dest.coast is None:
            if len(reachable) > 1:
                raise _Reject(Why.SAY_WHICH_COAST, dest.province, *(c.coast.value for c in reachable if c.coast))
            dest = reachable[0]  # the only coast it can reach (DATC 4.B.2)
        elif dest not in reachable:
            raise _Reject(Why.CANNOT_REACH_COAST, str(unit), dest.coast.value, dest.province)
    else:
        dest = dest.bare
    if own is order.unit and dest is order.to and not order.via_convoy and not order.route:
        return order
    return Move(own, dest, False, ())


def _read_convoy(variant: Variant, position: Position, unit: Unit, own: UnitRef, order: Convoy) -> Convoy:
    board = variant.board
    if unit.kind is not UnitKind.FLEET or not board.can_convoy_from(unit.location.province):
        raise _Reject(Why.ONLY_FLEETS_AT_SEA_CONVOY)
    origin, dest = order.army.location.province, order.to.province
    for p in (origin, dest):
        if p not in board.provinces:
            raise _Reject(Why.NO_SUCH_PROVINCE, p)
    army = position.unit_in(origin)
    if army is None or army.kind is not UnitKind.ARMY:
        raise _Reject(Why.NO_ARMY_TO_CONVOY, origin)
    if not (board.coastal_for_convoy(origin) and board.coastal_for_convoy(dest)):
        raise _Reject(Why.CONVOY_NOT_COASTAL)
    if origin == dest:
        raise _Reject(Why.CONVOY_GOES_NOWHERE)
    here = board.fleet_province_neighbours(unit.location.province)
    if army_fleet.enabled(variant) and not (origin in here and dest in here):
        raise _Reject(Why.FERRY_CROSSES_ONE_SEA)
    if variant.is_frozen(origin, position.phase):
        raise _Reject(Why.FROZEN_ARMY, origin)
    return Convoy(own, UnitRef(army.location, army.kind, army.power), Location(dest))


def _check_convoys(variant: Variant, entries: dict[str, Entry], convoys: list[str], rejected: list[Outcome],
                   fleets_at_sea: Callable[[], int]) -> dict[str, Entry]:
    """A convoy by a fleet that no convoy route could need is illegal (DATC 4.E.1, 6.G.19).
    `convoys`: the provinces of the fleets ordered to convoy."""
    if not convoys:
        return entries
    out = dict(entries)
    for province in convoys:
        e = entries[province]
        if isinstance(e.order, Convoy):
            origin, dest = e.order.army.location.province, e.order.to.province
            if not variant.board.graph.on_minimal_route(origin, dest, province, fleets_at_sea()):
                rejected.append(Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, Why.NOT_ON_CONVOY_ROUTE,
                                        (origin, dest)))
                del out[province]
    return out


def _convoyers_by_route(entries: Mapping[str, Entry], convoys: list[str]) -> dict[tuple[str, str], dict[str, str]]:
    """(army's province, destination) -> the seas ordered to convoy that move, with each fleet's power.
    `convoys`: the provinces of the fleets ordered to convoy (some since found illegal)."""
    routes: dict[tuple[str, str], dict[str, str]] = {}
    for p in convoys:
        e = entries.get(p)
        if e is not None and isinstance(e.order, Convoy):
            routes.setdefault((e.order.army.location.province, e.order.to.province), {})[p] = e.power
    return routes


def _choose_routes(variant: Variant, position: Position, entries: dict[str, Entry], moves: list[str],
                   convoys: list[str], rejected: list[Outcome], rules: Rules,
                   fleets_at_sea: Callable[[], int]) -> dict[str, Entry]:
    board = variant.board
    out = dict(entries)
    by_route = _convoyers_by_route(entries, convoys)
    frozen_board = variant.frozen is not None
    for province in moves:
        e = entries[province]
        order = e.order
        if type(order) is not Move or e.unit.kind is not UnitKind.ARMY:
            continue
        origin, dest = province, order.to.province
        by_land = dest in board.army_neighbours(origin)
        if by_land and not by_route and not order.via_convoy and not frozen_board:
            continue  # the everyday case, decided before anything else is looked up
        convoyers = by_route.get((origin, dest), {})
        frozen = variant.is_frozen(origin, position.phase)
        if not by_land and frozen:
            rejected.append(Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, Why.FROZEN_ARMY, (origin,)))
            del out[province]
            continue
        if frozen:
            convoyers = {}  # no convoy out of the ice
        if by_land and not convoyers and not order.via_convoy:
            continue  # the everyday case: a plain move by land
        chain = bool(convoyers) and board.graph.sea_route(origin, dest, board.graph.bits(convoyers))
        if not by_land:
            if not chain and not _could_be_convoyed(variant, origin, dest, fleets_at_sea):
                if board.coastal_for_convoy(origin) and board.coastal_for_convoy(dest):
                    rejected.append(
                        Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, Why.NO_CONVOYING_FLEETS)
                    )
                else:
                    rejected.append(Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, Why.NOT_ADJACENT,
                                            (dest, origin)))
                del out[province]
                continue
            out[province] = replace(e, route=Route.CONVOY)
            continue
        route = _adjacent_route(rules, order, e, chain, convoyers, entries)
        if route is None:
            rejected.append(Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, Why.VIA_CONVOY_WITHOUT_CONVOY))
            del out[province]
            continue
        if route is not Route.LAND:
            out[province] = replace(e, route=route)
    return out


def _could_be_convoyed(variant: Variant, origin: str, dest: str,
                       fleets_at_sea: Callable[[], int]) -> bool:
    """Legal in the DATC's sense (4.E.1): some fleets on the board could carry the army there.

    If so, a move with no convoy ordered fails (and cannot be supported to hold, 6.D.8);
    if not, it is illegal and the unit holds (6.D.32).
    """
    board = variant.board
    if not (board.coastal_for_convoy(origin) and board.coastal_for_convoy(dest)):
        return False
    return _sea_route(variant, origin, dest, fleets_at_sea())


def _sea_route(variant: Variant, origin: str, dest: str, fleets: int) -> bool:
    """Could these fleets (a set of the compiled map) carry an army from origin to dest? With A/F
    rules only one sea (the Fast Ferry)."""
    graph = variant.board.graph
    if army_fleet.enabled(variant):
        return any({origin, dest} <= variant.board.fleet_province_neighbours(graph.names[f])
                   for f in graph.members(fleets))
    return graph.sea_route(origin, dest, fleets)


def _adjacent_route(rules: Rules, order: Move, e: Entry, chain: bool, convoyers: Mapping[str, str],
                    entries: Mapping[str, Entry]) -> Route | None:
    """How an army travels to an adjacent province (DATC 4.A.3). None: the order is void."""
    mode = rules.adjacent_convoy
    if not chain:
        if order.via_convoy and mode in (AdjacentConvoy.OWN_CONVOY, AdjacentConvoy.VIA_CONVOY_ONLY):
            return None
        return Route.LAND
    if mode is AdjacentConvoy.ANY_CONVOY:
        # 1971: the convoy counts only for a swap, and only if it is not disrupted.
        other = entries.get(order.to.province)
        opposite = other is not None and isinstance(other.order, Move) and \
            other.order.to.province == e.province
        return Route.CONVOY_ELSE_LAND if opposite else Route.LAND
    own_fleet = e.power in convoyers.values()
    if mode is AdjacentConvoy.OWN_CONVOY:
        return Route.CONVOY if order.via_convoy or own_fleet else Route.LAND
    if mode is AdjacentConvoy.VIA_CONVOY_ONLY:
        return Route.CONVOY if order.via_convoy else Route.LAND
    # DATC 2.4: "via convoy" with no convoy ordered falls back to land (above); an ordered
    # convoy is the route, and a paradox in it stops the army (6.G.11 in v2.4).
    return Route.CONVOY if order.via_convoy or own_fleet else Route.LAND


def _check_supports(variant: Variant, position: Position, entries: dict[str, Entry], supports: list[str],
                    rejected: list[Outcome], fleets_at_sea: Callable[[], int]) -> dict[str, Entry]:
    """A support of a move that could only be made by a convoy nobody can give is illegal (6.D.31-32).
    `supports`: the provinces of the units ordered to support a move."""
    board = variant.board
    illegal: list[str] = []
    for province in supports:
        e = entries[province]
        if not isinstance(e.order, SupportMove):
            continue
        target = position.unit_in(e.order.supported.location.province)
        assert target is not None  # `_read` found it
        dest = e.order.to.province
        if target.kind is UnitKind.ARMY:
            if dest in board.army_neighbours(target.location.province):
                continue
            if board.coastal_for_convoy(target.location.province) and board.coastal_for_convoy(dest) \
                    and _sea_route(variant, target.location.province, dest,
                                   fleets_at_sea() & ~board.graph.bits((province,))):
                continue
            why, about = Why.SUPPORTED_NEEDS_CONVOY, (target.location.province, dest)
        elif target.kind is UnitKind.ARMY_FLEET and not board.province(dest).is_sea:
            if af_army_could_land(board, target.location.province, dest):
                continue
            why, about = Why.SUPPORTED_AF_CANNOT_LAND, (target.location.province, dest)
        else:
            if board.can_reach_province(target.kind, target.location, dest):
                continue
            why, about = Why.SUPPORTED_CANNOT_REACH, (str(target), dest)
        rejected.append(Outcome(e.power, e.given or e.order, False, Reason.ILLEGAL, why, about))
        illegal.append(province)
    if not illegal:
        return entries  # (the usual case: no copy made)
    out = dict(entries)
    for province in illegal:
        del out[province]
    return out
