"""Movement results: every order's outcome in words, the board after the move, dislodged units.

Reads the decisions `MovementRules` and the resolver have settled; decides nothing itself.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import partial
from typing import TYPE_CHECKING, cast

from . import army_fleet
from .board import Board
from .entries import Entry, Route
from .geography import Location
from .orders import Convoy, Move
from .outcomes import Outcome, PhaseResult, Reason, Why
from .owner_edges import closed_to
from .seasonal import shut_now
from .position import DislodgedUnit, Position, Unit
from .resolver import Resolver
from .variant import Variant

if TYPE_CHECKING:  # movement.py imports this module
    from .movement import MovementRules

# (succeeded, reason, why, what it is about, involving): what `_verdict` says about one order
Verdict = tuple[bool, Reason, Why | None, tuple[str, ...], tuple[str, ...]]
_HELD: Verdict = (True, Reason.HELD, None, (), ())
_SUPPORTED: Verdict = (True, Reason.SUPPORTED, None, (), ())
_CONVOYED: Verdict = (True, Reason.CONVOYED, None, (), ())
_MOVED: Verdict = (True, Reason.MOVED, None, (), ())


def movement_results(variant: Variant, position: Position, game: MovementRules, r: Resolver[str],
                     rejected: tuple[Outcome, ...], disorder: frozenset[str] = frozenset()) -> PhaseResult:
    """The phase's result, once `r` has resolved every decision of `game`. The dislodged units of
    the powers in `disorder` (civil disorder) get no retreat: they are disbanded."""
    board = variant.board
    entries = game.entries
    with_af = game.with_af
    answer = r.answers
    moved = {p for p in game.dest if answer[p]}
    dislodged_by: dict[str, str] = {}
    for p in moved:
        dest = game.dest[p]
        if dest in entries and dest not in moved:
            dislodged_by[dest] = p
    stranded = _stranded_by_ferry(game, r, moved, dislodged_by) if with_af else {}

    # A/Fs whose army has landed: fleets again
    landed = {p for p in entries if army_fleet.army_key(p) in moved} if with_af else ()

    # (plain functions, not closures: a closure would make every name it reads a cell, slower to read here)
    unit_after = partial(_unit_after, landed)

    # the board after movement (a disembarking army was part of its A/F until it landed)
    gone = moved.union(dislodged_by, stranded)
    if with_af:
        staying = [unit_after(p, e) for p, e in entries.items() if p not in gone and e.route is not Route.DISEMBARK]
    else:
        staying = [e.unit for p, e in entries.items() if p not in gone]
    if stranded:
        ferries = {af.location.province: af for af in stranded.values()}
        staying = [ferries.get(u.location.province, u) for u in staying]  # ferries with their army aboard
    if with_af:
        arrived = [Unit(e.power, unit_after(p, e).kind, cast(Move, e.order).to) for p in moved for e in (entries[p],)]
    else:
        arrived = [Unit(e.power, e.unit.kind, cast(Move, e.order).to) for e in map(entries.__getitem__, moved)]
    occupied = {u.location.province for u in staying}
    occupied.update(map(game.dest.__getitem__, moved))
    has_path, head_to_head, opposite = game.has_path, game.head_to_head, game.opposite
    contested = {dest for p, dest in game.dest.items()
                 if p not in moved and (entries[p].route is Route.LAND or has_path(p, r))
                 and (p not in opposite or head_to_head(p, r) is None)}
    standoffs = tuple(sorted(contested - occupied))
    next_phase = variant.calendar.next_phase(position.phase)

    dislodged: list[DislodgedUnit] = []
    shut = shut_now(variant, next_phase)  # (a retreat into a seasonal space shut then: none)
    for p, attacker in sorted(dislodged_by.items()):
        if p in stranded:
            continue  # the army was aboard its ferry, not at home
        unit = unit_after(p, entries[p])
        came_from = entries[attacker].province
        if unit.power in disorder:
            dislodged.append(DislodgedUnit(unit, came_from, (), civil_disorder=True))
            continue
        blocked = occupied | set(standoffs)
        if not (game.by_convoy(attacker, r) and game.rules.retreat_to_convoyed_attackers_origin):
            blocked.add(came_from)
        steps = [dst for dst in _steps(board, unit)
                 if dst.province not in blocked and dst.province not in shut and board.can_stand(unit.kind, dst)
                 and not closed_to(variant.owner_edges, position, unit.power, p, dst.province)]
        if with_af:
            occupant = {u.location.province: u for u in staying + arrived}
            steps += army_fleet.retreat_options(variant, unit, occupant, next_phase, blocked)
        dislodged.append(DislodgedUnit(unit, came_from, tuple(sorted(set(steps), key=str))))

    after = Position.following(position, next_phase, staying + arrived, tuple(dislodged))
    explain = partial(_explain, game, r, rejected, moved, dislodged_by, stranded)
    return PhaseResult(position.phase, explain, after, tuple(dislodged), standoffs)


def _unit_after(landed: Collection[str], p: str, e: Entry) -> Unit:
    """The unit of entry e after movement: an A/F whose army has landed is a fleet again."""
    return army_fleet.without_army(e.unit) if p in landed else e.unit


def _explain(game: MovementRules, r: Resolver[str], rejected: tuple[Outcome, ...], moved: set[str],
             dislodged_by: dict[str, str], stranded: Mapping[str, Unit]) -> tuple[Outcome, ...]:
    """Every order's outcome and why, read from the settled decisions when first asked."""
    entries = game.entries
    outcomes: list[Outcome] = list(rejected)
    decided = game.dest.keys() | game.target_of.keys()  # the orders `_verdict` must look into
    for p, e in entries.items():
        attacker = dislodged_by.get(p)
        dislodged_from = entries[attacker].province if attacker is not None and p not in stranded else None
        if p in moved and e.route is not Route.DISEMBARK:
            ok, reason, why, about, involving = _MOVED
        elif dislodged_from is None and p not in decided and type(e.order) is not Convoy:
            ok, reason, why, about, involving = _HELD
        else:
            ok, reason, why, about, involving = _verdict(game, r, p, e, moved, dislodged_from, stranded)
        given = e.given
        outcomes.append(Outcome(e.power, e.order if given is None else given, ok, reason, why, about,
                                involving, dislodged_from, given is None))
    return tuple(outcomes)


def _stranded_by_ferry(game: MovementRules, r: Resolver[str], moved: set[str],
                       dislodged_by: dict[str, str]) -> dict[str, Unit]:
    """Fast Ferry: an army its ferry carried but could not land stays aboard as an A/F.

    Returns the army's province -> the A/F it forms."""
    out: dict[str, Unit] = {}
    for p, e in game.entries.items():
        if e.route is not Route.CONVOY or p in moved or p in game.stood or not game.convoy_path(p, r):
            continue
        ferries = [game.entries[s].unit for s in sorted(game.convoys_for.get(p, ())) if s not in dislodged_by]
        aboard = army_fleet.ferry_landing_failed(e.unit, ferries)
        if aboard is not None and aboard not in out.values():
            out[p] = aboard
    return out


def _steps(board: Board, unit: Unit) -> list[Location]:
    if unit.kind.moves_as_fleet:
        return list(board.fleet_neighbours(unit.location))
    return [Location(p) for p in board.army_neighbours(unit.location.province)]


def _verdict(game: MovementRules, r: Resolver[str], p: str, e: Entry, moved: set[str], dislodged_from: str | None,
             stranded: Mapping[str, Unit]) -> Verdict:
    if p in game.dest:
        return _MOVED if p in moved and e.route is not Route.DISEMBARK else \
            _move_failed(game, r, p, e, moved, stranded)
    if p in game.target_of:
        if p not in game.matching_supports:
            return False, Reason.SUPPORT_UNMATCHED, None, (), ()
        if r.resolve(p):
            return _SUPPORTED
        if dislodged_from:
            return False, Reason.SUPPORT_CUT, None, (), (dislodged_from,)
        cutter = game.cutter(p, r)
        cutter = game.entries[cutter].province if cutter else None
        return False, Reason.SUPPORT_CUT, None, (), (cutter,) if cutter else ()
    if isinstance(e.order, Convoy):
        if not game.convoy_matches(e):
            return False, Reason.CONVOY_UNMATCHED, None, (), ()
        if dislodged_from:
            return False, Reason.DISLODGED, None, (), (dislodged_from,)
        return _CONVOYED
    # hold
    if dislodged_from:
        return False, Reason.DISLODGED, None, (), (dislodged_from,)
    return _HELD


def _move_failed(game: MovementRules, r: Resolver[str], p: str, e: Entry, moved: set[str],
                 stranded: Mapping[str, Unit]) -> Verdict:
    """Why a move did not move (or, for a landing that did, that it landed)."""
    if p in moved:
        return True, Reason.MOVED, Why.LANDED, (), ()
    if e.route is Route.DISEMBARK and not game.has_path(p, r):
        if p in game.paradox_broken:
            return False, Reason.DISEMBARK_FAILED, Why.LANDING_DECIDES_CARRIER, (), ()
        return False, Reason.DISEMBARK_FAILED, Why.CARRIER_DID_NOT_ARRIVE, (e.province,), ()
    if p in game.stood:
        return False, Reason.BOUNCED, Why.CIRCULAR_STANDS, (), ()
    if p in game.army_of and game.army_of[p] not in moved:
        return False, Reason.BOUNCED, Why.ARMY_DID_NOT_LAND, (), ()
    if e.route is Route.CONVOY and not game.convoy_path(p, r):
        why = Why.EVERY_CONVOY_DISRUPTED if p not in game.paradox_broken else Why.SZYKMAN
        return False, Reason.CONVOY_DISRUPTED, why, (), ()
    dest = game.dest[p]
    others = [game.entries[q].province for q in game.moves_to.get(dest, ()) if q != p and game.has_path(q, r)]
    occupant = dest if dest in game.entries and dest not in moved else None
    involving = tuple(sorted(set(others + ([occupant] if occupant else []))))
    if occupant and game.entries[occupant].power == e.power and not others:
        return False, Reason.BOUNCED, Why.OWN_UNIT, (), involving
    if p in stranded:  # who bounced it is in `involving`
        return False, Reason.BOUNCED, Why.STAYS_ABOARD, (stranded[p].location.province,), involving
    return False, Reason.BOUNCED, None, (), involving
