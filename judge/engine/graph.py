"""The map compiled to integers once, when it loads: province ids, and sets of provinces as bitsets.

Province i is bit i of a Python int, so a set of provinces is one int, "is p in it" a shift and a
mask, and a step from a whole set of seas at once is an OR of their neighbour sets. Convoy routes are
searched this way (every sea a fleet stands in, every route from a coast to a coast), where the
string graph of `Board` would walk one sea at a time.

Only geography here, as in `convoy_routes`; which fleets count is the caller's business.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping


class Graph:
    __slots__ = ("fleet_near", "ids", "names")

    def __init__(self, provinces: Iterable[str], fleet_near: Mapping[str, Iterable[str]]) -> None:
        self.names: tuple[str, ...] = tuple(sorted(provinces))
        self.ids: dict[str, int] = {p: i for i, p in enumerate(self.names)}
        # province id -> the provinces a fleet somewhere in it could move to, coasts ignored
        self.fleet_near: tuple[int, ...] = tuple(self.bits(fleet_near.get(p, ())) for p in self.names)

    def bits(self, provinces: Iterable[str]) -> int:
        """The set of these provinces (any not on the map left out)."""
        ids = self.ids
        out = 0
        for p in provinces:
            i = ids.get(p)
            if i is not None:
                out |= 1 << i
        return out

    def members(self, bits: int) -> Iterator[int]:
        """The ids in a set, lowest first."""
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low

    def sea_route(self, origin: str, dest: str, seas: int) -> bool:
        """Could fleets in `seas` (a set) carry an army from origin to dest, each touching the next?"""
        o, d = self.ids.get(origin), self.ids.get(dest)
        if o is None or d is None or not seas:
            return False
        near = self.fleet_near
        reached = near[o] & seas
        frontier = reached
        while frontier:
            if any(near[i] >> d & 1 for i in self.members(frontier)):
                return True
            step = 0
            for i in self.members(frontier):
                step |= near[i]
            frontier = step & seas & ~reached
            reached |= frontier
        return False

    def on_minimal_route(self, origin: str, dest: str, fleet: str, seas: int) -> bool:
        """Is `fleet` on some convoy route of `seas` that would break without it?

        Such a route is a path with no shortcut: no two of its fleets touch unless they are
        consecutive, and the coasts touch only its ends (the DATC's 6.G.19)."""
        o, d, f = self.ids.get(origin), self.ids.get(dest), self.ids.get(fleet)
        if o is None or d is None or f is None or not seas >> f & 1:
            return False
        near = self.fleet_near
        touches_origin, touches_dest = near[o], near[d]

        def extend(path: list[int], on_path: int, touched: int) -> bool:
            """`touched`: every sea next to a fleet of the path before its last."""
            last = path[-1]
            if touches_dest >> last & 1:
                return bool(on_path >> f & 1)
            for nxt in self.members(near[last] & seas & ~on_path):
                # no shortcut: the new fleet touches only the last one, not the origin or earlier fleets
                if touches_origin >> nxt & 1 or touched >> nxt & 1:
                    continue
                if touches_dest >> nxt & 1 and any(touches_dest >> p & 1 for p in path):
                    continue
                path.append(nxt)
                if extend(path, on_path | 1 << nxt, touched | near[last]):
                    return True
                path.pop()
            return False

        return any(extend([first], 1 << first, 0) for first in self.members(touches_origin & seas))
