"""What the everyday movement phase asks of the map, answered once when the board is built.

The fast path (judge.engine.fast_movement) checks every order of a phase against these tables:
one dict lookup by province id each (a fleet on a split coast: by province and coast), where the
board's general queries take a call, a tuple key and a branch on the unit's kind. Built from the
board's own queries, so the two cannot disagree; read-only afterwards.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .geography import Coast, Location, UnitKind

if TYPE_CHECKING:  # board.py builds this
    from .board import Board

# where a fleet can move: province it moves to -> the locations (coasts) of it it can reach
Reach = Mapping[str, tuple[Location, ...]]


class PlainMap:
    __slots__ = ("army_near", "army_retreats", "army_steps", "army_supports", "fleet_reach", "fleet_reach_coast",
                 "fleet_retreats")

    def __init__(self, board: Board) -> None:
        provinces = list(board.provinces)
        # an army's move by land (no sea, nowhere impassable), as `_as_written` asks
        self.army_steps: dict[str, frozenset[str]] = {p: board.army_steps(p) for p in provinces}
        # the provinces an army borders: the moves a support of an army's move may name
        self.army_near: dict[str, frozenset[str]] = {p: board.army_neighbours(p) for p in provinces}
        # where an army may give support (`Board.can_reach_province` for an army)
        self.army_supports: dict[str, frozenset[str]] = {
            p: frozenset(q for q in board.army_neighbours(p) if board.can_reach_province(UnitKind.ARMY, Location(p), q))
            for p in provinces}
        # a fleet's moves (`Board.fleet_can_reach_province`): the keys are where it may give support
        self.fleet_reach: dict[str, Reach] = {}  # a fleet in a province with one coast
        self.fleet_reach_coast: dict[tuple[str, Coast], Reach] = {}  # a fleet on one of a province's coasts
        # where a dislodged unit could go if nothing were in the way, in the order a result lists them
        self.army_retreats: dict[str, tuple[Location, ...]] = {}
        self.fleet_retreats: dict[tuple[str, Coast | None], tuple[Location, ...]] = {}
        for p in provinces:
            self.army_retreats[p] = retreat_options(board, UnitKind.ARMY, Location(p))
            for at in board.fleet_locations(p):
                reach = {q: board.fleet_can_reach_province(at, q)
                         for q in {n.province for n in board.fleet_neighbours(at)}}
                if at.coast is None:
                    self.fleet_reach[p] = reach
                else:
                    self.fleet_reach_coast[(p, at.coast)] = reach
                self.fleet_retreats[(p, at.coast)] = retreat_options(board, UnitKind.FLEET, at)


def retreat_options(board: Board, kind: UnitKind, at: Location) -> tuple[Location, ...]:
    """Where a unit of this kind at `at` could retreat to on an empty board, sorted as a result lists
    them (`movement_results`: its steps that it can stand in)."""
    steps: Iterable[Location] = board.fleet_neighbours(at) if kind.moves_as_fleet else \
        [Location(q) for q in board.army_neighbours(at.province)]
    return tuple(sorted({s for s in steps if board.can_stand(kind, s)}, key=str))
