"""The everyday movement phase has a fast path (judge/engine/fast_movement.py) beside the general
engine: on every phase it takes, both must give the same result (the board after the move, every
dislodged unit with its retreats, the standoffs, every order's outcome and reason), and it must
refuse every phase holding an order it does not take as written.

The phases are seeded random ones (tests/engine_phases.py), the runs data
(tests/data/engine_fast_path.json: variant, rules edition, seed, how many phases, how crowded).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from engine_phases import random_orders, random_position, twisted
from judge.engine import PhaseResult, Reason, load_variant
from judge.engine.fast_movement import adjudicate_plain
from judge.engine.movement import adjudicate_general
from judge.engine.rules import edition

RUNS = json.loads((Path(__file__).parent / "data" / "engine_fast_path.json").read_text(encoding="utf-8"))["runs"]

# what every run's phases must show between them, so that agreement means something
EVERY_RUN_SHOWS = {"moved", "bounced", "support given", "support cut", "dislodged", "held", "judge's hold",
                   "standoff", "retreat", "no retreat", "disbanded in disorder", "ring", "own_unit",
                   "the supported unit was not ordered so", "refused"}


def _same(fast: PhaseResult, general: PhaseResult) -> None:
    assert fast.phase == general.phase
    assert fast.position == general.position
    assert fast.position.units == general.position.units  # (in the same order, too)
    assert fast.dislodged == general.dislodged
    assert fast.standoffs == general.standoffs
    for mine, theirs in zip(fast.outcomes, general.outcomes, strict=True):
        assert mine == theirs
    assert fast == general


def _shown(result: PhaseResult) -> set[str]:
    """What the phase showed of the rules: outcomes' reasons and codes, retreats, rings of moves."""
    shown = {o.reason.value for o in result.outcomes}
    shown.update(o.why.value for o in result.outcomes if o.why is not None)
    if any(o.by_judge for o in result.outcomes):
        shown.add("judge's hold")
    if result.standoffs:
        shown.add("standoff")
    for d in result.dislodged:
        shown.add("disbanded in disorder" if d.civil_disorder else "retreat" if d.retreats else "no retreat")
    moved = {o.order.unit.location.province: o.order.to.province for o in result.outcomes if o.reason is Reason.MOVED}
    for start in moved:
        seen, p = [], start
        while p in moved and p not in seen:
            seen.append(p)
            p = moved[p]
        if p == start and len(seen) > 2:
            shown.add("ring")
    return shown


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['variant']}-{r['rules']}-{r['seed']}" for r in RUNS])
def test_both_paths_agree(run):
    variant, rules = load_variant(run["variant"]), edition(run["rules"])
    rng = random.Random(run["seed"])
    shown: Counter[str] = Counter()
    for _ in range(run["phases"]):
        position = random_position(variant, rng, run["per_power"])
        orders = random_orders(variant, position, rng)
        twist = twisted(variant, position, orders, rng) if rng.random() < run["twisted"] else None
        if twist is not None:
            assert adjudicate_plain(variant, position, twist, rules) is None, "an order not as written was taken"
            shown["refused"] += 1
            continue
        fast = adjudicate_plain(variant, position, orders, rules)
        assert fast is not None, "an everyday phase was refused"
        general = adjudicate_general(variant, position, orders, rules)
        _same(fast, general)
        shown.update(_shown(general))
    wanted = EVERY_RUN_SHOWS - run.get("never", {}).keys()
    assert wanted <= shown.keys(), f"these phases never showed {wanted - shown.keys()}"

