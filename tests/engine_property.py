"""Seeded random phases of every kind for the engine's property tests (tests/test_engine_property.py).

`convoyed` lays convoys over `engine_phases.random_orders`' moves, supports and holds: an army on a
coast carried by one fleet or a chain of two to a coast beyond, said "VIA CONVOY" or not, the move
supported now and then, the convoying fleet attacked now and then (with support, or from where the
army lands: the paradoxes). `retreat_orders` and `adjustment_orders` answer whatever the position
asks, sometimes wrongly (a retreat or build the engine must refuse), so that a game goes on.
"""
from __future__ import annotations

import random

from engine_phases import random_orders
from judge.engine import (Build, Convoy, Disband, Location, Move, Position, Retreat, SupportMove, UnitKind, UnitRef,
                          Waive)
from judge.engine.adjustment import adjustment_due, buildable_sites


def _ref(unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def movement_orders(variant, position: Position, rng: random.Random, convoys: int = 2) -> dict[str, list]:
    """`random_orders`, with up to `convoys` convoys laid over it."""
    orders = random_orders(variant, position, rng, unnamed=0.0)
    board = variant.board
    by_province = {u.location.province: u for u in position.units}
    order_of = {o.unit.location.province: (p, i) for p, os in orders.items() for i, o in enumerate(os)}

    def give(unit, order) -> None:
        if unit.location.province in order_of:
            power, i = order_of[unit.location.province]
            orders[power][i] = order
        else:
            orders.setdefault(unit.power, []).append(order)
            order_of[unit.location.province] = (unit.power, len(orders[unit.power]) - 1)

    fleets_at_sea = [u for u in position.units
                     if u.kind is UnitKind.FLEET and board.province(u.location.province).is_sea]
    for _ in range(convoys):
        if not fleets_at_sea:
            break
        fleet = rng.choice(fleets_at_sea)
        sea = fleet.location.province
        shores = sorted({n.province for n in board.fleet_neighbours(fleet.location)
                         if not board.province(n.province).is_sea}, key=str)
        armies = [by_province[s] for s in shores if s in by_province and by_province[s].kind is UnitKind.ARMY]
        if not armies:
            continue
        army = rng.choice(armies)
        carriers = [fleet]
        further = [by_province[n.province] for n in sorted(board.fleet_neighbours(fleet.location), key=str)
                   if n.province in by_province and by_province[n.province] in fleets_at_sea]
        if further and rng.random() < 0.4:
            carriers.append(rng.choice(further))
        last = carriers[-1]
        landings = sorted({n.province for n in board.fleet_neighbours(last.location)
                           if not board.province(n.province).is_sea and n.province != army.location.province
                           and board.can_stand(UnitKind.ARMY, Location(n.province))}, key=str)
        if not landings:
            continue
        to = Location(rng.choice(landings))
        give(army, Move(_ref(army), to, via_convoy=rng.random() < 0.6))
        for carrier in carriers:
            give(carrier, Convoy(_ref(carrier), _ref(army), to))
        helpers = [u for u in position.units if u not in carriers and u is not army
                   and board.can_reach_province(u.kind, u.location, to.province)]
        if helpers and rng.random() < 0.5:
            helper = rng.choice(helpers)
            give(helper, SupportMove(_ref(helper), _ref(army), to))
        attackers = [u for u in position.units if u not in carriers and u is not army
                     and board.can_reach_province(u.kind, u.location, sea)]
        if attackers and rng.random() < 0.6:
            # from where the army lands, if a unit there can: the convoy paradoxes
            landing = [u for u in attackers if u.location.province == to.province]
            attacker = landing[0] if landing and rng.random() < 0.6 else rng.choice(attackers)
            into = [n for n in sorted(board.fleet_neighbours(attacker.location), key=str) if n.province == sea]
            give(attacker, Move(_ref(attacker), rng.choice(into or [Location(sea)])))
            backers = [u for u in attackers if u is not attacker]
            if backers and rng.random() < 0.6:
                backer = rng.choice(backers)
                give(backer, SupportMove(_ref(backer), _ref(attacker), Location(sea)))
    return orders


def retreat_orders(variant, position: Position, rng: random.Random) -> dict[str, list]:
    orders: dict[str, list] = {}
    for d in position.dislodged:
        ref = _ref(d.unit)
        if d.retreats and rng.random() < 0.8:
            order = Retreat(ref, rng.choice(d.retreats))
        elif rng.random() < 0.5:
            order = Disband(ref)
        else:  # a retreat the engine must refuse: back where the attack came from
            order = Retreat(ref, Location(d.attacker_from))
        orders.setdefault(d.unit.power, []).append(order)
    return orders


def adjustment_orders(variant, position: Position, rng: random.Random) -> dict[str, list]:
    orders: dict[str, list] = {}
    for power in variant.power_ids:
        due = adjustment_due(variant, position, power)
        if due > 0:
            sites = list(buildable_sites(variant, position, power))
            rng.shuffle(sites)
            for site in sites[:due + (rng.random() < 0.2)]:  # sometimes one build too many
                kind = rng.choice([UnitKind.ARMY, UnitKind.FLEET])
                coasts = variant.board.fleet_locations(site) if kind is UnitKind.FLEET else ()
                orders.setdefault(power, []).append(Build(kind, rng.choice(coasts) if coasts else Location(site)))
            if rng.random() < 0.1:
                orders.setdefault(power, []).append(Waive())
        elif due < 0:
            units = [u for u in position.units if u.power == power]
            rng.shuffle(units)
            orders[power] = [Disband(_ref(u)) for u in units[:rng.randint(0, -due)]]  # the judge removes the rest
    return orders
