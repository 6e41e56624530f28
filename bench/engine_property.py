"""The engine against the `diplomacy` package on many random movement phases (tests/test_engine_property.py's
comparison, at scale): random positions on the standard map, orders drawn from the package's own legal
orders (convoys and "VIA" included), each difference classed as a rule choice or a known slip of the
package, or printed as UNEXPLAINED with its reproduction.

    .venv/bin/python bench/engine_property.py [--phases 100000] [--rules 5th] [--seed 1] [--jobs 2]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))


def run_part(args: tuple[str, int, int]) -> tuple[Counter, list[str], float]:
    import test_engine_property as t
    from judge.engine import edition, load_variant
    rules, seed, count = args
    diff, variant, rng = t._differential(), load_variant("standard"), random.Random(f"bench/{rules}/{seed}")
    kinds: Counter = Counter()
    unexplained: list[str] = []
    start = time.process_time()
    for _ in range(count):
        try:
            verdict = t.compare_random_phase(diff, variant, edition(rules), rng)
        except Exception as e:  # our engine raising is the worst finding of all: count it, keep going
            verdict = f"RAISED {type(e).__name__}: {e}"
        if verdict is None:
            kinds["agreed"] += 1
        elif verdict.startswith(("UNEXPLAINED", "RAISED")):
            kinds[verdict.split(" ", 1)[0]] += 1
            unexplained.append(verdict)
        else:
            for c in t.classes_of(verdict):
                kinds[c] += 1
            kinds["differed, explained"] += 1
    return kinds, unexplained, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--phases", type=int, default=100_000)
    parser.add_argument("--rules", default="5th")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--part", type=int, default=2_000, help="phases per task")
    args = parser.parse_args()
    parts = [(args.rules, args.seed * 100_000 + n, min(args.part, args.phases - n * args.part))
             for n in range((args.phases + args.part - 1) // args.part)]
    total: Counter = Counter()
    unexplained: list[str] = []
    cpu = 0.0
    started = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (kinds, bad, seconds) in enumerate(pool.map(run_part, parts), 1):
            total.update(kinds)
            unexplained += bad
            for line in bad:   # at once, so a long run cut short still shows what it found
                print(line, flush=True)
            cpu += seconds
            print(f"after {done} of {len(parts)} parts: {dict(total)}", flush=True)   # a long run's progress
    phases = sum(n for _, _, n in parts)
    print(f"{phases} random movement phases, rules {args.rules}, seed {args.seed}: "
          f"{total['agreed']} agreed, {total['differed, explained']} differed by a documented reading, "
          f"{total['UNEXPLAINED']} unexplained, {total['RAISED']} raised; "
          f"{time.time() - started:.0f} s wall, {1000 * cpu / max(phases, 1):.1f} ms CPU a phase")
    for kind, n in total.most_common():
        if kind not in ("agreed", "differed, explained", "UNEXPLAINED", "RAISED"):
            print(f"  {n:6}  {kind}")
    for line in unexplained[:20]:
        print(line)
    print(json.dumps({k: v for k, v in total.items()}))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
