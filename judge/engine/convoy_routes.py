"""Convoy routes during adjudication: chains of fleets at sea, each asked in turn whether it still stands.

The fleets are asked one at a time, in the order a search reaches them, because asking is a decision
of the resolver. The static questions (could any route exist? is this fleet on one?) are answered on
the compiled map, `judge.engine.graph`. Which fleets count is the caller's business.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable

from .board import Board


def route_exists(board: Board, origin: str, dest: str, seas: frozenset[str] | set[str],
                 usable: Callable[[str], bool] = lambda sea: True) -> bool:
    """Is there a chain of `seas` (each passing `usable`) from origin to dest?"""
    if not seas:
        return False
    seen: set[str] = set()
    queue: deque[str] = deque()
    for sea in board.fleet_province_neighbours(origin):
        if sea in seas and sea not in seen:
            seen.add(sea)
            if usable(sea):
                queue.append(sea)
    while queue:
        here = queue.popleft()
        nbrs = board.fleet_province_neighbours(here)
        if dest in nbrs:
            return True
        for sea in nbrs:
            if sea in seas and sea not in seen:
                seen.add(sea)
                if usable(sea):
                    queue.append(sea)
    return False
