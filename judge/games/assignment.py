"""Giving out the seats (a power, or the powers one person plays) to the players who joined.

By preference: the assignment with the smallest total rank wins (a seat a player did not list
ranks after all listed ones); among equally good assignments the game's seeded random order
decides, so a game's assignment can be replayed. Random: a seeded shuffle.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

Seat = tuple[str, ...]


def assign_random(players: Sequence[str], seats: Sequence[Seat], seed: int) -> dict[str, Seat]:
    shuffled = list(seats)
    random.Random(f"{seed}:assign").shuffle(shuffled)
    return dict(zip(players, shuffled))


def assign_by_preference(players: Sequence[str], seats: Sequence[Seat],
                         preferences: dict[str, Sequence[Seat]], seed: int) -> dict[str, Seat]:
    if len(players) > len(seats):      # fewer players than seats: a forced start leaves some empty
        raise ValueError(f"{len(seats)} seats for {len(players)} players")
    rng = random.Random(f"{seed}:assign")
    order = list(seats)
    rng.shuffle(order)
    who = list(players)
    rng.shuffle(who)

    def rank(player: str, seat: Seat) -> int:
        prefs = list(preferences.get(player, ()))
        return prefs.index(seat) if seat in prefs else len(seats)

    cost = [[rank(p, s) for s in order] for p in who]
    best, best_cost = None, None
    # at most 7! = 5040 permutations on the standard map
    for perm in itertools.permutations(range(len(order)), len(who)):
        total = sum(cost[i][j] for i, j in enumerate(perm))
        if best_cost is None or total < best_cost:
            best, best_cost = perm, total
    return {who[i]: order[j] for i, j in enumerate(best or ())}
