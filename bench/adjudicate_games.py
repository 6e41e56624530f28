"""Benchmark: whole games through `judge adjudicate --jsonl`, against the `diplomacy` package.

Seeded games from the standard start (`--games`, `--years`: enough that the process's own start,
taken off, is small beside them), played by our engine: each movement
phase bench/adjudicate.py's random legal orders, a share of them (`--convoys`, real games' 0.45: see
bench/adjudicate.py) with one or two armies convoyed beyond their neighbours; dislodged units retreat
where they may (or are disbanded), builds and removals left to the rules' defaults. Each game is one
JSON line (`{"phases": [...]}`, every phase's order lines in the canonical notation).

Ours, timed from outside: `judge adjudicate --jsonl` as a process reading every game's line and
writing every answer, less the same process given one game of one phase (its start: imports, the
variant and its readers made, printed apart); per movement phase, every retreat and adjustment phase
of ours charged to the movement phases too. Theirs: the package's `set_orders` + `process()` of the
same movement phases, its board set to ours before each (outside the clock), in this process. Each
side by the wall clock and by CPU time (the child's, and this process's: a shared machine's other
jobs left out). Both run twice, quiet and beside a CPU hog of the bench's own (one busy process per
core), interleaved round by round; each figure's median of `--rounds` rounds is kept.

    .venv/bin/pip install diplomacy   # once
    .venv/bin/python bench/adjudicate_games.py [--games 120] [--years 8] [--rounds 3] [--seed 1] [--root ../main]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from adjudicate import REAL_CONVOY_SHARE, package_game, random_orders  # noqa: E402
from cli_start import Hog  # noqa: E402
from engine_phases import with_convoys  # noqa: E402

from judge.engine import Convoy, Position, Retreat, UnitRef, load_variant, process_phase, starting_position  # noqa: E402
from judge.engine.calendar import PhaseKind  # noqa: E402
from judge.engine.notation import order_text  # noqa: E402
from judge.engine.rules import DEFAULT  # noqa: E402

JUDGE_ROOT = ROOT  # the checkout whose `judge adjudicate` is timed (--root)


def play(variant, rng: random.Random, years: int, convoys: float) -> tuple[list[dict], list[tuple[Position, dict]]]:
    """One game: each phase's order lines (the request's `phases`), and each movement phase's
    position with its orders (the package's cases)."""
    position, phases, movement = starting_position(variant), [], []
    owed = 0.0  # convoys wanted but not yet made (a phase may have no army a chain of fleets can carry)
    while position.phase.year < 1901 + years:
        orders: dict[str, list] = {}
        if position.phase.kind is PhaseKind.MOVEMENT:
            orders = random_orders(variant, position, rng)
            owed += convoys
            if owed >= rng.random():
                orders = with_convoys(variant, position, orders, rng, armies=rng.choice((1, 2)))
                if any(isinstance(o, Convoy) for os in orders.values() for o in os):
                    owed -= 1
            movement.append((position, orders))
        elif position.phase.kind is PhaseKind.RETREAT:
            for d in position.dislodged:
                if d.retreats:
                    orders.setdefault(d.unit.power, []).append(
                        Retreat(UnitRef(d.unit.location, d.unit.kind), rng.choice(d.retreats)))
        phases.append({"orders": {p: [order_text(o) for o in os] for p, os in orders.items()}})
        position = process_phase(variant, position, orders, DEFAULT).next
    return phases, movement


def run_judge(source: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one `judge adjudicate --jsonl` process over `source`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([str(JUDGE_ROOT / ".venv" / "bin" / "python"), "-m", "judge", "adjudicate", "--jsonl",
                           str(source)], cwd=JUDGE_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or b'"error"' in done.stdout:
        raise SystemExit(f"judge adjudicate failed: {done.stdout[:300]!r} {done.stderr[-300:]!r}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def time_ours(path: Path, start: Path) -> tuple[float, float, float]:
    """(wall, CPU) seconds `judge adjudicate --jsonl` takes over the games, less its start (the
    same process given one game of one phase: the median of three, as its imports vary more than
    a small workload takes), and that start's wall seconds."""
    wall, cpu = run_judge(path)
    starts = [run_judge(start) for _ in range(3)]
    start_wall = statistics.median(s[0] for s in starts)
    return wall - start_wall, cpu - statistics.median(s[1] for s in starts), start_wall


def time_package(cases) -> tuple[float, float]:
    """(wall, CPU) seconds the package takes to read and play these movement phases (`set_orders` +
    `process`)."""
    from diplomacy import Game
    total = cpu = 0.0
    for position, orders in cases:
        game, texts = package_game(Game, position, orders)
        t, c = time.perf_counter(), time.process_time()
        for power, lines in texts.items():
            game.set_orders(power, lines)
        game.process()
        total += time.perf_counter() - t
        cpu += time.process_time() - c
    return total, cpu


def rounds(n: int, path: Path, start: Path, cases) -> list[float]:
    """Medians: ours (wall, CPU), theirs (wall, CPU), our start (wall)."""
    runs = []
    for _ in range(n):  # interleaved: a busy moment of the machine falls on both sides alike
        wall, cpu, started = time_ours(path, start)
        runs.append((wall, cpu, *time_package(cases), started))
    return [statistics.median(x) for x in zip(*runs, strict=True)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--years", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--convoys", type=float, default=REAL_CONVOY_SHARE)
    parser.add_argument("--no-hog", action="store_true", help="quiet only")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="another checkout's `judge adjudicate` to time (its .venv), e.g. main's")
    args = parser.parse_args()
    global JUDGE_ROOT
    JUDGE_ROOT = args.root.resolve()
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is not installed: .venv/bin/pip install diplomacy")
        return 1
    variant = load_variant("standard")
    rng = random.Random(args.seed)
    games = [play(variant, rng, args.years, args.convoys) for _ in range(args.games)]
    cases = [case for _, movement in games for case in movement]
    phases = sum(len(p) for p, _ in games)
    convoyed = sum(any(isinstance(o, Convoy) for os in orders.values() for o in os) for _, orders in cases)
    with tempfile.TemporaryDirectory() as tmp:
        path, start = Path(tmp) / "games.jsonl", Path(tmp) / "start.jsonl"
        path.write_text("".join(json.dumps({"phases": p}) + "\n" for p, _ in games), encoding="utf-8")
        start.write_text(json.dumps({"phases": [{"orders": {"FRANCE": ["A PAR H"]}}]}) + "\n", encoding="utf-8")
        time_ours(path, start)  # warm up: the files cached, the package imported
        time_package(cases[:20])
        figures = {"quiet": rounds(args.rounds, path, start, cases)}
        if not args.no_hog:
            with Hog():
                figures[f"beside a CPU hog ({os.cpu_count()} busy processes)"] = \
                    rounds(args.rounds, path, start, cases)
    print(f"judge adjudicate of {JUDGE_ROOT}")
    print(f"{args.games} seeded games of {args.years} years (seed {args.seed}): {phases} phases, {len(cases)} "
          f"of them movement, {convoyed} of those with a convoy ({convoyed / len(cases):.0%}); "
          f"median of {args.rounds} rounds")
    n = len(cases)
    for label, (ours, ours_cpu, theirs, theirs_cpu, started) in figures.items():
        print(f"{label}: judge adjudicate --jsonl {ours / n * 1e3:6.3f} ms a movement phase, wall "
              f"({ours / phases * 1e3:.3f} ms a phase of any kind; its start {started:.2f} s apart), "
              f"{ours_cpu / n * 1e3:6.3f} ms CPU; the package {theirs / n * 1e3:6.3f} ms wall, "
              f"{theirs_cpu / n * 1e3:6.3f} ms CPU; ratio {theirs / ours:4.1f}x wall, "
              f"{theirs_cpu / ours_cpu:4.1f}x CPU "
              f"(goal 6x: {'met' if theirs >= 6 * ours else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
