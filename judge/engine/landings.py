"""Landings: the army aboard an A/F moving onto a coast (Abstraction II, the `army_fleet` hook).

Each landing becomes a movement entry of its own, keyed `army_fleet.army_key(province of the A/F)`,
so the resolver sees it as one more move. See judge/engine/army_fleet.py for the rules.
"""
from __future__ import annotations

from collections.abc import Mapping

from . import army_fleet
from .board import Board
from .entries import Entry, Rejected, Route
from .geography import Location, UnitKind
from .orders import Disembark, Move, Order, UnitRef
from .outcomes import Outcome, Reason, Why
from .position import Position, Unit
from .variant import Variant


def af_army_could_land(board: Board, sea: str, dest: str) -> bool:
    """From its sea, or from a sea next to it (where its fleet may move this month)."""
    near = board.fleet_province_neighbours(sea)
    return dest in near or any(dest in board.fleet_province_neighbours(s) for s in near
                               if board.province(s).is_sea)


def as_disembark(variant: Variant, position: Position, power: str, order: Order) -> Disembark | None:
    """A Disembark, or what players also write for one: an A/F moving to a coast (`A/F Mao - Por`)."""
    if isinstance(order, Disembark):
        return order
    if not (army_fleet.enabled(variant) and isinstance(order, Move)):
        return None
    board = variant.board
    here, there = order.unit.location.province, order.to.province
    if here not in board.provinces or there not in board.provinces or board.province(there).is_sea:
        return None
    unit = position.unit_in(here)
    if order.unit.kind is UnitKind.FLEET:
        return None  # "F Eng - Bre" for an A/F: the fleet cannot go there (rejected with the reason)
    if unit is not None and unit.kind is UnitKind.ARMY_FLEET and unit.power == power:
        return Disembark(order.unit, order.to.bare)
    if order.unit.kind is UnitKind.ARMY_FLEET and (unit is None or unit.power != power):
        return Disembark(order.unit, order.to.bare)  # named where its A/F moves to
    return None


def disembarkations(variant: Variant, position: Position, entries: dict[str, Entry],
                     landings: list[tuple[str, Disembark, Order]], rejected: list[Outcome]) -> dict[str, Entry]:
    """Each army landing from an A/F becomes a move of its own, keyed `army_fleet.army_key(A/F's province)`."""
    out = dict(entries)
    chosen: dict[str, list[tuple[str, Entry, Order]]] = {}
    for power, order, given in landings:
        try:
            key, entry = _landing(variant, position, entries, power, order, given)
        except Rejected as r:
            rejected.append(Outcome(power, given, False, Reason.ILLEGAL, r.why, r.about))
            continue
        chosen.setdefault(key, []).append((power, entry, given))
    for key, candidates in chosen.items():
        if len({(e.order, e.carrier) for _, e, _ in candidates}) > 1:
            for power, _, given in candidates:
                rejected.append(Outcome(power, given, False, Reason.ILLEGAL, Why.LANDING_CONFLICT))
            continue
        out[key] = candidates[-1][1]
    return out


def _landing(variant: Variant, position: Position, entries: Mapping[str, Entry], power: str,
             order: Disembark, given: Order) -> tuple[str, Entry]:
    board = variant.board
    if not army_fleet.enabled(variant):
        raise Rejected(Why.NO_ARMIES_ABOARD)
    sea, dest = order.unit.location.province, order.to.province
    for p in (sea, dest):
        if p not in board.provinces:
            raise Rejected(Why.NO_SUCH_PROVINCE, p)
    unit = position.unit_in(sea)
    carrier = None
    if unit is not None and unit.kind is UnitKind.ARMY_FLEET and unit.power == power:
        af = sea
    else:
        movers = [p for p, e in entries.items() if e.power == power and e.unit.kind is UnitKind.ARMY_FLEET
                  and isinstance(e.order, Move) and e.order.to.province == sea]
        if not movers:
            raise Rejected(Why.NO_AF_TO_LAND_FROM, sea)
        af = carrier = movers[0]
    if not board.province(dest).is_coastal:
        raise Rejected(Why.LANDS_ONLY_ON_COAST, dest)
    if dest not in board.fleet_province_neighbours(sea):
        raise Rejected(Why.NOT_ON_COAST_OF, dest, sea)
    for p in (af, sea):
        if variant.is_frozen(p, position.phase):
            raise Rejected(Why.FROZEN_LANDING, p)
    army = Unit(power, UnitKind.ARMY, Location(sea))
    move = Move(UnitRef(Location(sea), UnitKind.ARMY), Location(dest))
    return army_fleet.army_key(af), Entry(power, army, move, given, Route.DISEMBARK, carrier=carrier)
