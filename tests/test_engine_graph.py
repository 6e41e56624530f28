"""The compiled map (judge.engine.graph) answers the convoy questions as the province graph does:
every variant's map, every pair of coasts, seeded sets of fleets at sea."""
from __future__ import annotations

import random

import pytest

from judge.engine import available_variants, load_variant
from judge.engine.board import Board
from judge.engine.convoy_routes import route_exists


@pytest.mark.parametrize("name", available_variants())
def test_convoy_routes_on_the_compiled_map_match_the_province_graph(name):
    board = load_variant(name).board
    graph = board.graph
    rng = random.Random(name)
    seas = sorted(board.seas)
    coasts = sorted(board.coastal)
    pairs = [(a, b) for a in coasts for b in coasts if a != b]
    answers: set[tuple[str, bool]] = set()
    for _ in range(40):
        fleets = frozenset(s for s in seas if rng.random() < 0.5)
        bits = graph.bits(fleets)
        for origin, dest in rng.sample(pairs, min(60, len(pairs))):
            route = graph.sea_route(origin, dest, bits)
            assert route == route_exists(board, origin, dest, fleets)
            answers.add(("route", route))
            for fleet in rng.sample(sorted(fleets), min(3, len(fleets))):
                on_route = graph.on_minimal_route(origin, dest, fleet, bits)
                assert on_route == _minimal_route_by_provinces(board, origin, dest, fleet, fleets), (
                    origin,
                    dest,
                    fleet,
                )
                answers.add(("on route", on_route))
    if seas:  # both answers were met, so the comparison tested something
        assert answers == {("route", True), ("route", False), ("on route", True), ("on route", False)}


def _minimal_route_by_provinces(board: Board, origin: str, dest: str, fleet: str, seas: frozenset[str]) -> bool:
    """The question as it was first written, on the province graph (the compiled map's answer must match):
    is `fleet` on some convoy route that would break without it?

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

    return any(first in seas and extend([first]) for first in nbrs(origin))
