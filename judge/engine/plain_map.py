"""What the everyday movement phase asks of the map, answered once when the board is built, on integers.

Every province gets a small id (in the order of the names, so that sorting ids sorts names); a fleet's
place is its province's id, or for a fleet on one of a province's coasts an id of its own after them
(`coast_id`). Adjacency is kept as rows of bytes, one a province or place (byte q 1: province q), not
as int bitsets: with more than 62 provinces such an int is a heap object, and every shift to test a bit
made another (allocations the compiled engine spent a share of its phase on); a byte is read in place.
The other answers are lists indexed by id. The fast path (judge.engine.fast_movement) translates each
province an order names to its id once, then reads rows and indexes lists. Built from the board's own
queries, so the two cannot disagree; read-only afterwards.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .geography import Coast, Location, UnitKind

if TYPE_CHECKING:  # board.py builds this
    from .board import Board


class PlainMap:
    __slots__ = ("army_near", "army_retreats", "army_steps", "army_supports", "coast_id", "fleet_reach",
                 "fleet_retreats", "fleet_ways", "id_of", "names")

    def __init__(self, board: Board) -> None:
        self.names: tuple[str, ...] = tuple(sorted(board.provinces))
        id_of = self.id_of = {p: i for i, p in enumerate(self.names)}

        def row(ids: Iterable[int]) -> bytes:
            marks = bytearray(len(id_of))
            for q in ids:
                marks[q] = 1
            return bytes(marks)

        def row_of(provinces: Iterable[str]) -> bytes:
            return row(id_of[q] for q in provinces)

        names = self.names
        # an army's move by land (no sea, nowhere impassable), as `_as_written` asks
        self.army_steps: list[bytes] = [row_of(board.army_steps(p)) for p in names]
        # the provinces an army borders: the moves a support of an army's move may name
        self.army_near: list[bytes] = [row_of(board.army_neighbours(p)) for p in names]
        # where an army may give support (`Board.can_reach_province` for an army)
        self.army_supports: list[bytes] = [
            row_of(q for q in board.army_neighbours(p) if board.can_reach_province(UnitKind.ARMY, Location(p), q))
            for p in names]
        # where a dislodged army could go if nothing were in the way, in the order a result lists them
        self.army_retreats: list[tuple[Location, ...]] = [
            retreat_options(board, UnitKind.ARMY, Location(p)) for p in names]
        # A fleet's place: its province's id, or one of `coast_id`'s on a split coast. By place: where it
        # may move (`Board.fleet_can_reach_province`) and so give support, as a row; for each province it
        # may move to, the locations (coasts) of it it reaches; where it could retreat to on an empty board.
        # A place where no fleet can be has a row of 0s, no ways and no retreats (None: asked of the board).
        self.coast_id: dict[tuple[int, Coast], int] = {}
        self.fleet_reach: list[bytes] = [bytes(len(names))] * len(names)
        self.fleet_ways: list[dict[int, tuple[Location, ...]]] = [{} for _ in names]
        self.fleet_retreats: list[tuple[Location, ...] | None] = [None] * len(names)
        for p in names:
            for at in board.fleet_locations(p):
                ways = {id_of[q]: board.fleet_can_reach_province(at, q)
                        for q in {n.province for n in board.fleet_neighbours(at)}}
                if at.coast is None:
                    place = id_of[p]
                else:
                    place = self.coast_id[(id_of[p], at.coast)] = len(self.fleet_ways)
                    self.fleet_reach.append(bytes(len(names)))
                    self.fleet_ways.append({})
                    self.fleet_retreats.append(None)
                self.fleet_reach[place] = row(ways)
                self.fleet_ways[place] = ways
                self.fleet_retreats[place] = retreat_options(board, UnitKind.FLEET, at)


def retreat_options(board: Board, kind: UnitKind, at: Location) -> tuple[Location, ...]:
    """Where a unit of this kind at `at` could retreat to on an empty board, sorted as a result lists
    them (`movement_results`: its steps that it can stand in)."""
    steps: Iterable[Location] = board.fleet_neighbours(at) if kind.moves_as_fleet else \
        [Location(q) for q in board.army_neighbours(at.province)]
    return tuple(sorted({s for s in steps if board.can_stand(kind, s)}, key=str))
