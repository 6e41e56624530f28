"""Which movement orders are legal, and what each legal order means.

This runs before adjudication. It ties every order to a unit, applies the DATC's
"poorly written order" readings (wrong unit kind or own coast ignored, the only
reachable coast assumed, coasts on armies dropped), rejects impossible orders with
a reason (the unit then holds), and decides for each army move whether it goes by
land or by convoy, as the rules in force say.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from . import army_fleet
from .convoy_routes import convoy_chain_exists, fleet_on_minimal_route, sea_route_exists
from .entries import Entry, MovementOrders, Rejected as _Reject, Route
from .board import Board
from .geography import Location, UnitKind
from .landings import af_army_could_land, as_disembark, disembarkations
from .orders import Convoy, Disembark, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from .outcomes import Outcome, Reason
from .position import Position, Unit
from .rules import AdjacentConvoy, Rules, SupportCoast
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
    # The everyday board (no A/F, no ice) lets a plain hold or move by land or sea be taken as written.
    plain = not with_af and variant.frozen is None
    for power, power_orders in orders.items():
        for given in power_orders:
            landing = as_disembark(variant, position, power, given) if with_af else None
            if landing is not None:
                landings.append((power, landing, given))
                continue
            unit = _as_written(board, position, power, given) if plain else None
            normal: Order = given
            if unit is None:
                try:
                    unit, normal = _read(variant, position, power, given, rules)
                except _Reject as r:
                    rejected.append(Outcome(power, given, False, Reason.ILLEGAL, r.why))
                    continue
            province = unit.location.province
            before = entries.get(province)
            if before is not None:
                repeated.setdefault(province, [(before.power, before.unit, before.order, before.given or before.order)])
                repeated[province].append((power, unit, normal, given))
            entries[province] = Entry(power, unit, normal, given)

    for province, candidates in repeated.items():
        if len({normal for _, _, normal, _ in candidates}) > 1:
            # DATC 4.D.3: two different orders for one unit; neither is carried out.
            del entries[province]
            for power, _, _, given in candidates:
                rejected.append(Outcome(power, given, False, Reason.ILLEGAL,
                                        f"the unit in {board.province(province).name} was given "
                                        "conflicting orders; it holds"))

    @functools.cache
    def fleets_at_sea() -> frozenset[str]:
        """Where convoys could be: asked only about a convoy or a move beyond the next province."""
        return frozenset(u.location.province for u in position.units
                         if u.kind is UnitKind.FLEET and u.location.province in board.seas)

    entries = _check_convoys(variant, entries, rejected, fleets_at_sea)
    entries = _choose_routes(variant, position, entries, rejected, rules, fleets_at_sea)
    if landings:
        entries = disembarkations(variant, position, entries, landings, rejected)
    entries = _check_supports(variant, position, entries, rejected, fleets_at_sea)

    # A unit whose order was rejected holds; remember why, since some rules treat it apart.
    why_rejected: dict[str, str] = {}
    for outcome in rejected:
        ref = getattr(outcome.order, "unit", None)
        unit = position.unit_in(ref.location.province) if ref is not None else None
        if unit is not None and unit.power == outcome.power:
            why_rejected.setdefault(unit.location.province, outcome.detail)
    for unit in position.units:
        if unit.location.province not in entries:
            hold = Hold(UnitRef(unit.location, unit.kind))
            entries[unit.location.province] = Entry(unit.power, unit, hold, None,
                                                    rejected_reason=why_rejected.get(unit.location.province))
    return MovementOrders(entries, tuple(rejected))


def _as_written(board: Board, position: Position, power: str, order: Order) -> Unit | None:
    """The power's unit when `order` is a hold or a move that is legal exactly as written, else None.

    Most orders are; for them this answers what `_read` would, without building anything. Anything
    less plain (a coast to infer, a convoy, a unit named wrongly) goes to `_read`."""
    cls = type(order)
    if cls is not Hold and cls is not Move:
        return None
    ref = order.unit  # type: ignore[union-attr]  # Hold and Move both name their unit
    unit = position.unit_in(ref.location.province)
    if unit is None or unit.power != power or ref.power is not None or ref.kind is not unit.kind \
            or (ref.location is not unit.location and ref.location != unit.location):
        return None
    if cls is Hold:
        return unit
    to = order.to  # type: ignore[union-attr]
    if unit.kind is UnitKind.ARMY:
        return unit if to.coast is None and to.province in board.army_steps(unit.location.province) else None
    if unit.kind is UnitKind.FLEET and not order.via_convoy and not order.route:  # type: ignore[union-attr]
        return unit if to in board.fleet_can_reach_province(unit.location, to.province) else None
    return None


def _read(variant: Variant, position: Position, power: str, order: Order,
          rules: Rules) -> tuple[Unit, Order]:
    """Tie an order to its unit and check what can be checked without other orders."""
    board = variant.board
    if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
        if type(order).__name__ in ("Embark", "Disembark"):
            raise _Reject(f"armies do not embark on fleets in {variant.name}")
        raise _Reject(f"a {type(order).__name__.lower()} order is not allowed in a movement phase")
    province = order.unit.location.province
    unit = position.unit_in(province)
    if unit is None:
        if province not in board.provinces:
            raise _Reject(f"there is no province {province!r} on this map")
        raise _Reject(f"there is no unit in {board.province(province).name}")
    if unit.power != power:
        raise _Reject(f"the unit in {board.province(province).name} belongs to {variant.power(unit.power).name}, "
                      "not to you")
    own = _own_ref(unit, order.unit)

    if isinstance(order, Hold):
        return unit, order if own is order.unit else Hold(own)
    if unit.kind is not UnitKind.ARMY and variant.is_frozen(province, position.phase):
        raise _Reject(f"{board.province(province).name} is frozen this month: a fleet there must stand")
    if isinstance(order, Move):
        return unit, _read_move(variant, unit, own, order)
    if isinstance(order, SupportHold):
        target = _target_unit(variant, position, order.supported.location.province)
        if target.location.province == unit.location.province:
            raise _Reject("a unit cannot support itself")
        if not board.can_reach_province(unit.kind, unit.location, target.location.province):
            raise _Reject(f"{_in_words(board, unit)} cannot reach {board.province(target.location.province).name}, "
                          "so it cannot support a unit there")
        return unit, SupportHold(own, UnitRef(target.location, target.kind, target.power))
    if isinstance(order, SupportMove):
        target = _target_unit(variant, position, order.supported.location.province)
        dest = order.to
        if dest.province not in board.provinces:
            raise _Reject(f"there is no province {dest.province!r} on this map")
        if target.location.province == unit.location.province and not (
                unit.kind is UnitKind.ARMY_FLEET and not board.province(dest.province).is_sea):
            # ... except that an A/F's fleet may support its own army's landing (army_fleet)
            raise _Reject("a unit cannot support its own move")
        if dest.province == unit.location.province:
            raise _Reject("a unit cannot support a move into its own province")
        if dest.province == target.location.province:
            raise _Reject("the supported move goes nowhere")
        if not board.can_reach_province(unit.kind, unit.location, dest.province):
            raise _Reject(f"{_in_words(board, unit)} cannot reach {board.province(dest.province).name}, "
                          "so it cannot support a move there")
        if dest.coast is not None and dest.coast not in board.coasts_of(dest.province):
            dest = dest.bare  # an unknown coast is ignored (DATC 4.B.6)
        if rules.support_coast is SupportCoast.IGNORED:
            dest = dest.bare
        return unit, SupportMove(own, UnitRef(target.location, target.kind, target.power), dest)
    # Convoy
    return unit, _read_convoy(variant, position, unit, own, order)


def _own_ref(unit: Unit, ref: UnitRef) -> UnitRef:
    """The unit as it really is, kind and coast (DATC 4.B.5, 4.C.2); the order's own reference if it says so."""
    if ref.kind is unit.kind and ref.power is None and (ref.location is unit.location or ref.location == unit.location):
        return ref
    return UnitRef(unit.location, unit.kind)


def _in_words(board, unit: Unit) -> str:
    """ "the fleet in St Petersburg (south coast)": a unit as the reasons name it."""
    place = board.province(unit.location.province).name
    if unit.location.coast is not None:
        place += f" ({unit.location.coast.full_name})"
    return f"the {unit.kind.full_name} in {place}"


def _target_unit(variant: Variant, position: Position, province: str) -> Unit:
    board = variant.board
    if province not in board.provinces:
        raise _Reject(f"there is no province {province!r} on this map")
    target = position.unit_in(province)
    if target is None:
        raise _Reject(f"there is no unit in {board.province(province).name} to support")
    return target


def _read_move(variant: Variant, unit: Unit, own: UnitRef, order: Move) -> Move:
    board = variant.board
    dest = order.to
    if dest.province not in board.provinces:
        raise _Reject(f"there is no province {dest.province!r} on this map")
    target = board.province(dest.province)
    if dest.province == unit.location.province:
        raise _Reject("a unit cannot move to the province it is in")
    if unit.kind is UnitKind.ARMY:
        if target.is_sea:
            raise _Reject(f"an army cannot move into {target.name}, a sea")
        if not board.can_stand(UnitKind.ARMY, dest.bare):
            raise _Reject(f"no unit can enter {target.name}")
        if dest.province not in board.army_neighbours(unit.location.province) and not (
                board.coastal_for_convoy(unit.location.province) and board.coastal_for_convoy(dest.province)):
            raise _Reject(f"{target.name} is not next to {board.province(unit.location.province).name}")
        if own is order.unit and dest.coast is None:
            return order
        return Move(own, dest.bare, order.via_convoy, order.route)
    if unit.kind is UnitKind.ARMY_FLEET and not target.is_sea:
        raise _Reject(f"an A/F never enters a coastal province: order its army to disembark in {target.name}")
    # a fleet
    if target.is_land:
        raise _Reject(f"a fleet cannot move into {target.name}, an inland province")
    reachable = board.fleet_can_reach_province(unit.location, dest.province)
    if not reachable:
        raise _Reject(f"{target.name} is not next to {_in_words(board, unit)} along a coast or sea")
    if target.coasts:
        if dest.coast is None:
            if len(reachable) > 1:
                raise _Reject(f"say which coast of {target.name} (" +
                              " or ".join(c.coast.full_name for c in reachable) + ")")
            dest = reachable[0]  # the only coast it can reach (DATC 4.B.2)
        elif dest not in reachable:
            raise _Reject(f"{_in_words(board, unit)} cannot reach the {dest.coast.full_name} of {target.name}")
    else:
        dest = dest.bare
    if own is order.unit and dest is order.to and not order.via_convoy and not order.route:
        return order
    return Move(own, dest, False, ())


def _read_convoy(variant: Variant, position: Position, unit: Unit, own: UnitRef, order: Convoy) -> Convoy:
    board = variant.board
    if unit.kind is not UnitKind.FLEET or not board.province(unit.location.province).is_sea:
        raise _Reject("only a fleet at sea can convoy")
    origin, dest = order.army.location.province, order.to.province
    for p in (origin, dest):
        if p not in board.provinces:
            raise _Reject(f"there is no province {p!r} on this map")
    army = position.unit_in(origin)
    if army is None or army.kind is not UnitKind.ARMY:
        raise _Reject(f"there is no army in {board.province(origin).name} to convoy")
    if not (board.coastal_for_convoy(origin) and board.coastal_for_convoy(dest)):
        raise _Reject("an army can only be convoyed from one coastal province to another")
    if origin == dest:
        raise _Reject("the convoyed move goes nowhere")
    here = board.fleet_province_neighbours(unit.location.province)
    if army_fleet.enabled(variant) and not (origin in here and dest in here):
        raise _Reject("a Fast Ferry crosses one sea: both coasts must touch it (to go further, embark "
                      "the army on a fleet as an A/F)")
    if variant.is_frozen(origin, position.phase):
        raise _Reject(f"{board.province(origin).name} is frozen: an army may leave it only overland")
    return Convoy(own, UnitRef(army.location, army.kind, army.power), Location(dest))


def _check_convoys(variant: Variant, entries: dict[str, Entry], rejected: list[Outcome],
                   fleets_at_sea: Callable[[], frozenset[str]]) -> dict[str, Entry]:
    """A convoy by a fleet that no convoy route could need is illegal (DATC 4.E.1, 6.G.19)."""
    out = dict(entries)
    for province, e in entries.items():
        if isinstance(e.order, Convoy):
            origin, dest = e.order.army.location.province, e.order.to.province
            if not fleet_on_minimal_route(variant.board, origin, dest, province, fleets_at_sea()):
                rejected.append(Outcome(e.power, e.given, False, Reason.ILLEGAL,
                                        "this fleet is on no convoy route between "
                                        f"{variant.board.province(origin).name} and "
                                        f"{variant.board.province(dest).name}"))
                del out[province]
    return out


def _convoyers_by_route(entries: Mapping[str, Entry]) -> dict[tuple[str, str], dict[str, str]]:
    """(army's province, destination) -> the seas ordered to convoy that move, with each fleet's power."""
    routes: dict[tuple[str, str], dict[str, str]] = {}
    for p, e in entries.items():
        if isinstance(e.order, Convoy):
            routes.setdefault((e.order.army.location.province, e.order.to.province), {})[p] = e.power
    return routes


def _choose_routes(variant: Variant, position: Position, entries: dict[str, Entry],
                   rejected: list[Outcome], rules: Rules,
                   fleets_at_sea: Callable[[], frozenset[str]]) -> dict[str, Entry]:
    board = variant.board
    out = dict(entries)
    by_route = _convoyers_by_route(entries)
    frozen_board = variant.frozen is not None
    for province, e in entries.items():
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
            rejected.append(Outcome(e.power, e.given, False, Reason.ILLEGAL,
                                    f"{board.province(origin).name} is frozen: an army may leave it "
                                    "only overland"))
            del out[province]
            continue
        if frozen:
            convoyers = {}  # no convoy out of the ice
        if by_land and not convoyers and not order.via_convoy:
            continue  # the everyday case: a plain move by land
        chain = bool(convoyers) and convoy_chain_exists(board, origin, dest, frozenset(convoyers))
        if not by_land:
            if not chain and not _could_be_convoyed(variant, origin, dest, fleets_at_sea):
                why = ("no fleets stand where they could convoy this move" if board.coastal_for_convoy(origin)
                       and board.coastal_for_convoy(dest) else
                       f"{board.province(dest).name} is not next to {board.province(origin).name}")
                rejected.append(Outcome(e.power, e.given, False, Reason.ILLEGAL, why))
                del out[province]
                continue
            out[province] = replace(e, route=Route.CONVOY)
            continue
        route = _adjacent_route(rules, order, e, chain, convoyers, entries)
        if route is None:
            rejected.append(Outcome(e.power, e.given, False, Reason.ILLEGAL,
                                    "it says via convoy, but no convoy was ordered for it"))
            del out[province]
            continue
        if route is not Route.LAND:
            out[province] = replace(e, route=route)
    return out


def _could_be_convoyed(variant: Variant, origin: str, dest: str,
                       fleets_at_sea: Callable[[], frozenset[str]]) -> bool:
    """Legal in the DATC's sense (4.E.1): some fleets on the board could carry the army there.

    If so, a move with no convoy ordered fails (and cannot be supported to hold, 6.D.8);
    if not, it is illegal and the unit holds (6.D.32).
    """
    board = variant.board
    if not (board.coastal_for_convoy(origin) and board.coastal_for_convoy(dest)):
        return False
    return _sea_route(variant, origin, dest, fleets_at_sea())


def _sea_route(variant: Variant, origin: str, dest: str, fleets: frozenset[str]) -> bool:
    """Could these fleets carry an army from origin to dest? With A/F rules only one sea (the Fast Ferry)."""
    board = variant.board
    if army_fleet.enabled(variant):
        return any({origin, dest} <= board.fleet_province_neighbours(f) for f in fleets)
    return sea_route_exists(board, origin, dest, fleets)


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


def _check_supports(variant: Variant, position: Position, entries: dict[str, Entry],
                    rejected: list[Outcome], fleets_at_sea: Callable[[], frozenset[str]]) -> dict[str, Entry]:
    """A support of a move that could only be made by a convoy nobody can give is illegal (6.D.31-32)."""
    board = variant.board
    out = dict(entries)
    for province, e in entries.items():
        if not isinstance(e.order, SupportMove):
            continue
        target = position.unit_in(e.order.supported.location.province)
        dest = e.order.to.province
        if target.kind is UnitKind.ARMY:
            if dest in board.army_neighbours(target.location.province):
                continue
            if board.coastal_for_convoy(target.location.province) and board.coastal_for_convoy(dest) \
                    and _sea_route(variant, target.location.province, dest, fleets_at_sea() - {province}):
                continue
            why = (f"the army in {board.province(target.location.province).name} could reach "
                   f"{board.province(dest).name} only by a convoy that no other fleet can give")
        elif target.kind is UnitKind.ARMY_FLEET and not board.province(dest).is_sea:
            if af_army_could_land(board, target.location.province, dest):
                continue
            why = f"the army aboard the A/F in {board.province(target.location.province).name} cannot land in " \
                  f"{board.province(dest).name}"
        else:
            if board.can_reach_province(target.kind, target.location, dest):
                continue
            why = f"{_in_words(board, target)} cannot reach {board.province(dest).name}"
        rejected.append(Outcome(e.power, e.given, False, Reason.ILLEGAL, why))
        del out[province]
    return out
