"""Convoy routes: chains of fleets at sea from one coastal province to another.

Only geography here; which fleets count (ordered to convoy, still afloat) is the
caller's business.
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


# The same question, named for where it is asked.
convoy_chain_exists = route_exists
sea_route_exists = route_exists


def fleet_on_minimal_route(board: Board, origin: str, dest: str, fleet: str, seas: frozenset[str]) -> bool:
    """Is `fleet` on some convoy route that would break without it?

    A route that would break without each of its fleets is a path with no shortcut:
    no two fleets of it touch unless they are consecutive, and the coasts touch only
    its ends. The DATC calls a convoy by a fleet on no such route illegal (6.G.19).
    """
    nbrs = board.fleet_province_neighbours
    if fleet not in seas:
        return False

    def extend(path: list[str]) -> bool:
        last = path[-1]
        if dest in nbrs(last):
            return fleet in path
        for nxt in nbrs(last):
            if nxt not in seas or nxt in path:
                continue
            # no shortcut: the new fleet touches only the last one, not the origin or earlier fleets
            if origin in nbrs(nxt) or any(nxt in nbrs(p) for p in path[:-1]):
                continue
            if dest in nbrs(nxt) and any(dest in nbrs(p) for p in path):
                continue
            path.append(nxt)
            if extend(path):
                return True
            path.pop()
        return False

    for first in nbrs(origin):
        if first in seas and extend([first]):
            return True
    return False
