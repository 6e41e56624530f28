"""Giving out the seats (a power, or the powers one person plays) to the players who joined.

By preference: the assignment with the smallest total rank wins (a seat a player did not list
ranks after all listed ones); among equally good assignments the game's seeded random order
decides, so a game's assignment can be replayed. Random: a seeded shuffle.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

Seat = tuple[str, ...]
# Up to this many seats every assignment is tried (8! = 40320), which fixes how ties are broken.
BRUTE_FORCE_UP_TO = 8


def assign_random(players: Sequence[str], seats: Sequence[Seat], seed: int) -> dict[str, Seat]:
    shuffled = list(seats)
    random.Random(f"{seed}:assign").shuffle(shuffled)
    # strict=False: a forced start has fewer players than seats, and the seats left over stay neutral
    return dict(zip(players, shuffled, strict=False))


def assign_by_preference(players: Sequence[str], seats: Sequence[Seat],
                         preferences: Mapping[str, Sequence[Seat]], seed: int) -> dict[str, Seat]:
    """Each player's seats best first, one to a rank."""
    return assign_by_rank(players, seats, {p: {s: i for i, s in enumerate(prefs)} for p, prefs in preferences.items()},
                          seed)


def assign_by_rank(players: Sequence[str], seats: Sequence[Seat], ranks: Mapping[str, Mapping[Seat, int]],
                   seed: int) -> dict[str, Seat]:
    """`ranks`: each player's listed seats and their rank (0 best; equal ranks as njudge's `E[FG]R`)."""
    if len(players) > len(seats):      # fewer players than seats: a forced start leaves some empty
        raise ValueError(f"{len(seats)} seats for {len(players)} players")
    rng = random.Random(f"{seed}:assign")
    order = list(seats)
    rng.shuffle(order)
    who = list(players)
    rng.shuffle(who)

    def rank(player: str, seat: Seat) -> int:
        return ranks.get(player, {}).get(seat, len(seats))

    cost = [[rank(p, s) for s in order] for p in who]
    if len(order) > BRUTE_FORCE_UP_TO:
        # Chaos has 34 powers, Youngstown ten: 34! orders cannot be tried; the Hungarian method finds
        # a least-cost assignment in n^3 steps (ties resolved by the same seeded order, differently).
        # square: seats nobody takes (a forced start) go to players who do not exist, at no cost
        perm: Sequence[int] = _least_cost(cost + [[0] * len(order) for _ in range(len(order) - len(who))])[:len(who)]
        return {who[i]: order[j] for i, j in enumerate(perm)}
    best, best_cost = None, None
    # at most 7! = 5040 permutations on the standard map
    for perm in itertools.permutations(range(len(order)), len(who)):
        total = sum(cost[i][j] for i, j in enumerate(perm))
        if best_cost is None or total < best_cost:
            best, best_cost = perm, total
    return {who[i]: order[j] for i, j in enumerate(best or ())}


def _least_cost(cost: list[list[int]]) -> list[int]:
    """For each row, its column in an assignment of least total cost (square matrix; the Hungarian
    method with potentials, as in Kuhn and Munkres)."""
    n = len(cost)
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    match, way = [0] * (n + 1), [0] * (n + 1)   # match[column] = row, both counted from 1
    for row in range(1, n + 1):
        match[0], col0 = row, 0
        low, used = [inf] * (n + 1), [False] * (n + 1)
        while match[col0]:
            used[col0] = True
            r, delta, col1 = match[col0], inf, 0
            for c in range(1, n + 1):
                if not used[c]:
                    here = cost[r - 1][c - 1] - u[r] - v[c]
                    if here < low[c]:
                        low[c], way[c] = here, col0
                    if low[c] < delta:
                        delta, col1 = low[c], c
            for c in range(n + 1):
                if used[c]:
                    u[match[c]] += delta
                    v[c] -= delta
                else:
                    low[c] -= delta
            col0 = col1
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    out = [0] * n
    for c in range(1, n + 1):
        out[match[c] - 1] = c - 1
    return out
