"""Seeded random movement phases for comparing the engine's two paths (tests/test_engine_fast_path.py).

`random_position` is bench/adjudicate.py's boards too, and the core of `random_orders` is its order
generator (a full board, every order legal, many supports of a neighbour's order); the rest adds what its phases never
hold: units and powers with no orders (default holds, civil disorder), moves aimed at occupied
provinces (chains, head-to-heads, rings of moves), supports that match nothing, and, in some phases,
one order the fast path must refuse (`TWISTS`).
"""
from __future__ import annotations

import random
from dataclasses import replace

from judge.engine import (Convoy, Hold, Location, Move, Position, SupportHold, SupportMove, Unit, UnitKind,
                          UnitRef, starting_position)


def random_position(variant, rng: random.Random, per_power: int = 5) -> Position:
    """`per_power` units of each power anywhere a unit of its kind may stand (bench/adjudicate.py's boards)."""
    board = variant.board
    free = [p for p, prov in board.provinces.items() if prov.terrain.value != "impassable"]
    rng.shuffle(free)
    units = []
    for power in variant.power_ids:
        for _ in range(per_power):
            if not free:
                break
            province = free.pop()
            prov = board.province(province)
            if prov.is_sea:
                kind = UnitKind.FLEET
            elif prov.is_land:
                kind = UnitKind.ARMY
            else:
                kind = rng.choice([UnitKind.ARMY, UnitKind.FLEET])
            loc = Location(province)
            if kind is UnitKind.FLEET:
                options = board.fleet_locations(province)
                if not options:
                    kind = UnitKind.ARMY
                else:
                    loc = rng.choice(options)
            if kind is UnitKind.ARMY and not board.can_stand(UnitKind.ARMY, loc):
                continue  # (a sea with no fleet location: nothing can stand there)
            units.append(Unit(power, kind, loc))
    start = starting_position(variant)
    return Position(start.phase, tuple(units), dict(start.owners))


def _steps(board, unit: Unit) -> list[Location]:
    # sorted: a set's order changes with the process's hash seed, and the cases must not
    if unit.kind is UnitKind.FLEET:
        return sorted(board.fleet_neighbours(unit.location), key=str)
    return sorted((Location(p) for p in board.army_neighbours(unit.location.province)
                   if board.can_stand(UnitKind.ARMY, Location(p))), key=str)


def random_orders(variant, position: Position, rng: random.Random, *, idle: float = 0.08,
                  silent: float = 0.1, unnamed: float = 0.1) -> dict[str, list]:
    """Legal orders, each unit at most one: bench/adjudicate.py's mix, some units left without an
    order (`idle`), some powers without any (`silent`), some orders naming their unit by province
    alone (`unnamed`: "Par - Bur"), moves drawn to occupied provinces."""
    board = variant.board
    occupied = {u.location.province for u in position.units}
    first: dict[str, object] = {}
    for u in position.units:
        ref = UnitRef(u.location, u.kind)
        steps = _steps(board, u)
        crowded = [s for s in steps if s.province in occupied]
        if steps and rng.random() < 0.55:
            pool = crowded if crowded and rng.random() < 0.5 else steps
            first[u.location.province] = Move(ref, rng.choice(pool))
        else:
            first[u.location.province] = Hold(ref)
    silent_powers = {p for p in variant.power_ids if rng.random() < silent}
    orders: dict[str, list] = {}
    for u in position.units:
        if u.power in silent_powers or rng.random() < idle:
            continue
        order = first[u.location.province]
        ref = UnitRef(u.location, u.kind)
        if isinstance(order, Hold) and rng.random() < 0.7:
            candidates = []
            for other in position.units:
                if other is u:
                    continue
                o = first[other.location.province]
                target = UnitRef(other.location, other.kind)
                if isinstance(o, Move) and o.to.province != u.location.province and \
                        board.can_reach_province(u.kind, u.location, o.to.province):
                    candidates.append(SupportMove(ref, target, o.to.bare))
                    # the support of a hold, to a unit that moves
                    if rng.random() < 0.3 and board.can_reach_province(u.kind, u.location, other.location.province):
                        candidates.append(SupportHold(ref, target))
                elif isinstance(o, Hold) and board.can_reach_province(u.kind, u.location, other.location.province):
                    candidates.append(SupportHold(ref, target))
                    # the support of a move the unit could make but was not ordered to
                    for step in _steps(board, other):
                        if step.province != u.location.province and step.coast is None \
                                and board.can_reach_province(u.kind, u.location, step.province):
                            candidates.append(SupportMove(ref, target, step))
                            break
            if candidates:
                order = rng.choice(candidates)
        if rng.random() < unnamed:
            order = replace(order, unit=UnitRef(Location(u.location.province)))
        orders.setdefault(u.power, []).append(order)
    for power in silent_powers:
        if rng.random() < 0.5:
            orders[power] = []  # a power named with no orders is as silent as one not named
    return orders


def _convoy(variant, position, orders, rng):
    fleet = next((u for u in position.units if u.kind is UnitKind.FLEET), None)
    army = next((u for u in position.units if u.kind is UnitKind.ARMY), None)
    if fleet is None or army is None:
        return None
    return fleet.power, Convoy(UnitRef(fleet.location, fleet.kind), UnitRef(army.location, army.kind), Location("xyz"))


def _via_convoy(variant, position, orders, rng):
    for u in position.units:
        steps = _steps(variant.board, u)
        if u.kind is UnitKind.ARMY and steps:
            return u.power, Move(UnitRef(u.location, u.kind), steps[0], via_convoy=True)
    return None


def _wrong_kind(variant, position, orders, rng):
    u = rng.choice(position.units)
    other = UnitKind.FLEET if u.kind is UnitKind.ARMY else UnitKind.ARMY
    return u.power, Hold(UnitRef(u.location, other))


def _foreign_unit(variant, position, orders, rng):
    u = rng.choice(position.units)
    power = next(p for p in variant.power_ids if p != u.power)
    return power, Hold(UnitRef(u.location, u.kind))


def _ordered_twice(variant, position, orders, rng):
    given = [(power, o) for power, os in orders.items() for o in os]
    if not given:
        return None
    power, order = rng.choice(given)
    return power, Hold(order.unit)  # (the same order again, or another: either way the general engine's)


def _no_unit(variant, position, orders, rng):
    empty = sorted(set(variant.board.provinces) - {u.location.province for u in position.units})
    if not empty:
        return None
    return variant.power_ids[0], Hold(UnitRef(Location(rng.choice(empty)), UnitKind.ARMY))


def _coast_to_infer(variant, position, orders, rng):
    board = variant.board
    for u in position.units:
        if u.kind is UnitKind.FLEET:
            for step in sorted(board.fleet_neighbours(u.location), key=str):
                if step.coast is not None:
                    return u.power, Move(UnitRef(u.location, u.kind), step.bare)
    return None


# one order each that `movement_orders._as_written` does not take as written: the fast path refuses the phase
TWISTS = (_convoy, _via_convoy, _wrong_kind, _foreign_unit, _ordered_twice, _no_unit, _coast_to_infer)


def twisted(variant, position: Position, orders: dict[str, list], rng: random.Random) -> dict[str, list] | None:
    """The orders with one order the fast path must refuse added, or None if this board has no room for it."""
    made = rng.choice(TWISTS)(variant, position, orders, rng)
    if made is None:
        return None
    power, order = made
    out = {p: list(os) for p, os in orders.items()}
    out.setdefault(power, []).append(order)
    return out


def with_convoys(variant, position: Position, orders: dict[str, list], rng: random.Random, *,
                 armies: int = 2, attack: float = 0.15, support: float = 0.5) -> dict[str, list]:
    """The orders with up to `armies` armies convoyed beyond their neighbours (bench/adjudicate.py's
    convoy phases too): each by the shortest chain of fleets at sea (any power's) to a coastal
    province, half the time one a unit stands in, its fleets ordered to convoy it; some such moves
    supported by a unit that could enter the destination; the random moves into the chain's seas held
    back, and, in a share `attack` of the chains, one of its fleets attacked by a neighbour instead (a
    convoy the fast path leaves to the general engine)."""
    board = variant.board
    out = {p: list(os) for p, os in orders.items()}
    unit_at = {u.location.province: u for u in position.units}
    fleets = {p for p, u in unit_at.items() if u.kind is UnitKind.FLEET and p in board.seas}
    used: set[str] = set()

    def order_for(unit: Unit, order) -> None:
        mine = out.setdefault(unit.power, [])
        mine[:] = [o for o in mine if o.unit.location.province != unit.location.province]
        mine.append(order)

    for army in sorted((u for u in position.units if u.kind is UnitKind.ARMY
                        and board.coastal_for_convoy(u.location.province)), key=lambda u: u.location.province):
        if armies <= 0 or rng.random() < 0.5:
            continue
        origin = army.location.province
        came = {s: None for s in sorted(board.fleet_province_neighbours(origin)) if s in fleets and s not in used}
        frontier, reached = list(came), {}
        while frontier:  # breadth first: each coast reached by the first sea that touches it
            step = []
            for sea in frontier:
                for n in sorted(board.fleet_province_neighbours(sea)):
                    if n in fleets and n not in came and n not in used:
                        came[n] = sea
                        step.append(n)
                    elif n not in board.seas and n != origin and board.coastal_for_convoy(n) and n not in reached:
                        reached[n] = sea
            frontier = step
        far = sorted(p for p in reached if p not in board.army_neighbours(origin))
        if not far:
            continue
        crowded = [p for p in far if p in unit_at]
        goal = rng.choice(crowded if crowded and rng.random() < 0.5 else far)
        chain, sea = [], reached[goal]
        while sea is not None:
            chain.append(sea)
            sea = came[sea]
        armies -= 1
        used.update(chain)
        order_for(army, Move(UnitRef(army.location, army.kind), Location(goal)))
        for s in chain:
            f = unit_at[s]
            order_for(f, Convoy(UnitRef(f.location, f.kind), UnitRef(army.location, army.kind), Location(goal)))
        for mine in out.values():  # the random moves into the chain's seas held back (attacks come below)
            mine[:] = [Hold(o.unit) if isinstance(o, Move) and o.to.province in chain else o for o in mine]
        helpers = [u for u in position.units if u.location.province not in used and u is not army
                   and u.location.province != goal and board.can_reach_province(u.kind, u.location, goal)]
        if helpers and rng.random() < support:
            h = rng.choice(helpers)
            order_for(h, SupportMove(UnitRef(h.location, h.kind), UnitRef(army.location, army.kind), Location(goal)))
        if rng.random() < attack:
            s = rng.choice(chain)
            near = [u for u in position.units if u.location.province not in used
                    and any(n.province == s for n in _steps(board, u))]
            if near:
                u = rng.choice(near)
                order_for(u, Move(UnitRef(u.location, u.kind), next(n for n in _steps(board, u) if n.province == s)))
    return out
