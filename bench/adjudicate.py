"""Benchmark: movement adjudication on seeded full-board positions with random legal orders.

Times our engine and the `diplomacy` package (PyPI, bench-only) on the same inputs and
prints medians, p95 and the ratio; then times the whole DATC run.

A share of the positions (`--convoys`, 0.45 by default) also convoys one or two armies beyond their
neighbours (tests/engine_phases.py's `with_convoys`: chains of fleets at sea, sometimes attacked).
0.45 is issue 27's measure of real games: 45 % of their movement phases left the fast path when it
took no convoy, convoys being what sent them there. It is an upper bound (that 45 % holds every
other order the fast path refuses too); the random orders alone almost never convoy.

    .venv/bin/pip install diplomacy   # once
    .venv/bin/python bench/adjudicate.py [--positions 500] [--rounds 3] [--seed 1] [--convoys 0.45]
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from engine_phases import random_position, with_convoys  # noqa: E402  (the test's, for the same boards)
from judge.engine import (Convoy, Hold, Location, Move, Position, SupportHold, SupportMove, UnitKind,  # noqa: E402
                          UnitRef, adjudicate, load_variant)
from judge.engine.notation import order_text  # noqa: E402


# the share of real games' movement phases with a convoy (an upper bound: see the docstring)
REAL_CONVOY_SHARE = 0.45

# what every timing reads: wall time, or with --cpu this process's CPU time (another job's load left out)
CLOCK = time.perf_counter


def random_orders(variant, position: Position, rng: random.Random) -> dict[str, list]:
    board = variant.board
    first: dict[str, object] = {}
    for u in position.units:
        ref = UnitRef(u.location, u.kind)
        # sorted: a set's order changes with the process's hash seed, and the cases must not
        steps = sorted(board.fleet_neighbours(u.location) if u.kind is UnitKind.FLEET
                       else [Location(p) for p in board.army_neighbours(u.location.province)], key=str)
        if steps and rng.random() < 0.55:
            first[u.location.province] = Move(ref, rng.choice(steps))
        else:
            first[u.location.province] = Hold(ref)
    orders: dict[str, list] = {}
    for u in position.units:
        order = first[u.location.province]
        ref = UnitRef(u.location, u.kind)
        if isinstance(order, Hold) and rng.random() < 0.7:
            # support a neighbour's order if it can
            candidates = []
            for other in position.units:
                if other is u:
                    continue
                o = first[other.location.province]
                target = UnitRef(other.location, other.kind)
                if isinstance(o, Move) and o.to.province != u.location.province and \
                        board.can_reach_province(u.kind, u.location, o.to.province):
                    candidates.append(SupportMove(ref, target, o.to.bare))
                elif isinstance(o, Hold) and board.can_reach_province(u.kind, u.location, other.location.province):
                    candidates.append(SupportHold(ref, target))
                elif isinstance(o, Move) and u.kind is UnitKind.FLEET and board.province(u.location.province).is_sea \
                        and other.kind is UnitKind.ARMY \
                        and o.to.province in board.fleet_province_neighbours(u.location.province) \
                        and other.location.province in board.fleet_province_neighbours(u.location.province):
                    candidates.append(Convoy(ref, target, o.to.bare))
            if candidates:
                order = rng.choice(candidates)
        orders.setdefault(u.power, []).append(order)
    return orders


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def per_case(rounds: list[list[float]]) -> list[float]:
    """Each case's median over the rounds: one slow moment of a shared machine moves no figure."""
    return [statistics.median(times) for times in zip(*rounds, strict=True)]


def time_ours(variant, cases, explained: bool = False) -> list[float]:
    """`explained`: every order's outcome and reason built too (they are worked out when first read)."""
    times = []
    for position, orders in cases:
        t = CLOCK()
        result = adjudicate(variant, position, orders)
        if explained:
            _ = result.outcomes  # worked out on this first read
        times.append(CLOCK() - t)
    return times


def package_game(game_class, position, orders):
    """The package's game set to this position (untimed), and the orders as its `set_orders` reads them."""
    game = game_class()
    game.clear_units()
    for power in {u.power for u in position.units}:
        game.set_units(power, [f"{u.kind.value} {str(u.location).upper()}" for u in position.units_of(power)])
    texts = {power: [order_text(o).replace(" VIA CONVOY", " VIA") for o in os] for power, os in orders.items()}
    return game, texts


def time_diplomacy(cases) -> tuple[list[float], list[float]] | None:
    """(process only, orders read and validated + process) per phase.

    Our `adjudicate` reads and validates the orders as well as resolving them, so the fair
    comparison includes the package's `set_orders`, which does its validation.
    """
    try:
        from diplomacy import Game
    except ImportError:
        return None
    process_only, with_orders = [], []
    for position, orders in cases:
        game, texts = package_game(Game, position, orders)
        t = CLOCK()
        for power, lines in texts.items():
            game.set_orders(power, lines)
        t_orders = CLOCK()
        game.process()
        t_end = CLOCK()
        process_only.append(t_end - t_orders)
        with_orders.append(t_end - t)
    return process_only, with_orders


def summary(label: str, times: list[float]) -> str:
    return f"{label:30s} median {statistics.median(times) * 1e3:7.3f} ms   p95 {percentile(times, 0.95) * 1e3:7.3f} ms"


def ratios(label: str, theirs: list[float], ours: list[float], goal: float) -> str:
    median = statistics.median(theirs) / statistics.median(ours)
    p95 = percentile(theirs, 0.95) / percentile(ours, 0.95)
    return (f"ratio {label:25s} median {median:5.1f}x   p95 {p95:5.1f}x   "
            f"(goal {goal:.0f}x: {'met' if median >= goal else 'NOT met'})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3, help="timings per case; each case's median is kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-datc", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="time by this process's CPU time, not the wall clock")
    parser.add_argument("--convoys", type=float, default=REAL_CONVOY_SHARE,
                        help="the share of positions with armies convoyed (default: real games', see above)")
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    variant = load_variant("standard")
    rng = random.Random(args.seed)
    cases = []
    for _ in range(args.positions):
        position = random_position(variant, rng)
        orders = random_orders(variant, position, rng)
        if rng.random() < args.convoys:
            orders = with_convoys(variant, position, orders, rng, armies=rng.choice((1, 2)))
        cases.append((position, orders))
    time_ours(variant, cases)  # warm up
    have_package = time_diplomacy(cases[:20]) is not None  # warm up, or find it missing
    # The rounds alternate (ours, ours with outcomes, the package's): a slow stretch of a shared
    # machine falls on both sides alike instead of on whichever ran during it.
    ours_runs, explained_runs, package_runs = [], [], []
    for _ in range(args.rounds):
        ours_runs.append(time_ours(variant, cases))
        explained_runs.append(time_ours(variant, cases, explained=True))
        if have_package:
            package_runs.append(time_diplomacy(cases))
    ours, explained = per_case(ours_runs), per_case(explained_runs)
    convoyed = sum(any(isinstance(o, Convoy) for os in orders.values() for o in os) for _, orders in cases)
    print(f"positions: {len(cases)} seeded full-board movement phases (seed {args.seed}), 35 units each, "
          f"{convoyed} with a convoy; {args.rounds} alternating rounds, each case's median kept")
    print(summary("ours (validate + adjudicate)", ours))
    print(summary("ours, every outcome built too", explained))
    if not have_package:
        print("diplomacy: not installed (pip install diplomacy) - no ratio")
    else:
        process_only = per_case([run[0] for run in package_runs])
        with_orders = per_case([run[1] for run in package_runs])
        print(summary("diplomacy process()", process_only))
        print(summary("diplomacy set_orders+process()", with_orders))
        # issue 15's goal: 12x the package's process() (the Rust crate measured ~9.5x)
        print(ratios("to process() only", process_only, ours, 12))
        print(ratios("to set_orders+process()", with_orders, ours, 12))
        print(ratios("outcomes built, to process()", process_only, explained, 12))
        each = [statistics.median(p) / statistics.median(o)
                for p, o in zip((r[0] for r in package_runs), ours_runs, strict=True)]
        print("ratio to process() round by round: " + ", ".join(f"{r:.1f}x" for r in each))
    if not args.skip_datc:
        t = time.perf_counter()
        # no -q here: the project's addopts already has one, and -qq would drop the summary line
        done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                               "tests/test_datc_v3.py", "tests/test_datc_v24.py"],
                              cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t
        print(f"DATC run (v3.0 + v2.4, via pytest, wall): {wall:.2f} s; {done.stdout.strip().splitlines()[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
