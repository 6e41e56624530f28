"""Benchmark: `judge adjudicate`'s JSON edge against the adjudication it wraps.

Seeded random games from the standard start (random legal movement orders; retreats and
adjustments left to the rules' defaults) are replayed three ways, in one process, each timed
per phase played (a round's mean over its phases, movement and the rest alike):
- adjudication alone: `process_phase` on orders read in advance (the engine's own cost);
- one request per game (`"phases": [...]`, the whole game in one JSON line) through the CLI's
  `_answer` and `json.dumps`, as `judge adjudicate --jsonl` runs it;
- one request per phase (position in, `next` out), as a tool chaining phases did before.
The JSON edge's cost is what a request takes beyond adjudication: decoding, reading the order
lines, encoding results. Goal (issue: fast where it is felt): less than the adjudication itself.

    .venv/bin/python bench/adjudicate_jsonl.py [--games 40] [--years 6] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from adjudicate import random_orders  # noqa: E402

from judge.adjudicate_cli import _answer  # noqa: E402
from judge.engine import load_variant, process_phase, starting_position  # noqa: E402
from judge.engine.calendar import PhaseKind  # noqa: E402
from judge.engine.notation import order_text, parse_order  # noqa: E402
from judge.engine.rules import DEFAULT  # noqa: E402
from judge.language import OrderReader  # noqa: E402


def random_game(variant, rng: random.Random, years: int) -> list[dict]:
    """Each phase's orders as canonical text, as a whole-game request lists them."""
    position, phases = starting_position(variant), []
    while position.phase.year < 1901 + years:
        orders = random_orders(variant, position, rng) if position.phase.kind is PhaseKind.MOVEMENT else {}
        phases.append({"orders": {p: [order_text(o) for o in os] for p, os in orders.items()}})
        position = process_phase(variant, position, orders, DEFAULT).next
    return phases


def time_engine(variant, games) -> list[float]:
    """Seconds per phase, adjudication alone (orders read before the clock starts)."""
    times = []
    for phases in games:
        position = starting_position(variant)
        for phase in phases:
            orders = {p: [parse_order(variant, line) for line in lines] for p, lines in phase["orders"].items()}
            t = time.perf_counter()
            turn = process_phase(variant, position, orders, DEFAULT)
            times.append(time.perf_counter() - t)
            position = turn.next
    return times


def time_whole_games(lines: list[str], counts: list[int], variant_named) -> list[float]:
    times = []
    for line, count in zip(lines, counts, strict=True):
        t = time.perf_counter()
        out = json.dumps(_answer(line, variant_named, None))
        times.extend([(time.perf_counter() - t) / count] * count)
        assert '"error"' not in out[:20], out[:200]
    return times


def time_phase_chains(variant, games, variant_named) -> list[float]:
    times = []
    for phases in games:
        request = _answer(json.dumps({"phases": []}), variant_named, None)["next"]
        for phase in phases:
            request["orders"] = phase["orders"]
            t = time.perf_counter()
            out = json.dumps(_answer(json.dumps(request), variant_named, None))
            times.append(time.perf_counter() - t)
            request = json.loads(out)["next"]
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--years", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    variant = load_variant("standard")
    reader = OrderReader(variant)
    variant_named = lambda name: (variant, reader)  # noqa: E731 - the CLI's per-process cache, already filled
    rng = random.Random(args.seed)
    games = [random_game(variant, rng, args.years) for _ in range(args.games)]
    lines = [json.dumps({"phases": phases}) for phases in games]
    counts = [len(phases) for phases in games]
    engine, whole, chained = [], [], []
    for _ in range(args.rounds):   # interleaved rounds: a busy moment of the machine hits all three alike
        engine.append(statistics.fmean(time_engine(variant, games)))
        whole.append(statistics.fmean(time_whole_games(lines, counts, variant_named)))
        chained.append(statistics.fmean(time_phase_chains(variant, games, variant_named)))
    e, w, c = (statistics.median(x) * 1e3 for x in (engine, whole, chained))
    print(f"{sum(counts)} phases in {len(games)} seeded games of {args.years} years (seed {args.seed}); "
          f"time per phase (each round's mean; the median of {args.rounds} rounds)")
    print(f"adjudication alone                 {e:7.3f} ms")
    print(f"whole game per request (--jsonl)   {w:7.3f} ms   JSON edge {w - e:6.3f} ms = "
          f"{(w - e) / e:4.2f}x adjudication (goal < 1: {'met' if w - e < e else 'NOT met'})")
    print(f"one request per phase              {c:7.3f} ms   JSON edge {c - e:6.3f} ms = "
          f"{(c - e) / e:4.2f}x adjudication")
    return 0


if __name__ == "__main__":
    sys.exit(main())
