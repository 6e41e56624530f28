"""The engine never raises on a legal position, and agrees with an independent adjudicator.

1. Every variant: seeded random positions played for a few phases (movement with convoys, convoy
   chains, supports of convoys, attacks on convoying fleets, coasts; then the retreats and the
   adjustments they lead to) under each run's rules edition: no phase may raise.
2. The standard map: seeded random positions with orders drawn from the `diplomacy` package's
   own legal orders (convoys, "VIA", supports of convoys, coasts), adjudicated by it and by us.
   Every difference must be one listed in tests/data/engine_deviations.json, where each says its
   DATC case and why our reading stands (bench/differential.md has the long form, and
   bench/differential.py runs the same comparison on whole games, 100,000 phases and more).

The runs are data: tests/data/engine_property.json.
"""
from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine_phases import random_position
from engine_property import adjustment_orders, movement_orders, retreat_orders
from judge.engine import PhaseKind, load_variant, process_phase
from judge.engine.notation import position_to_json
from judge.engine.rules import edition

DATA = json.loads((Path(__file__).parent / "data" / "engine_property.json").read_text(encoding="utf-8"))
DEVIATIONS = json.loads((Path(__file__).parent / "data" / "engine_deviations.json").read_text(encoding="utf-8"))
NEXT_ORDERS = {PhaseKind.MOVEMENT: movement_orders, PhaseKind.RETREAT: retreat_orders,
               PhaseKind.ADJUSTMENT: adjustment_orders}


RUNS = DATA["no_exception"]


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['variant']}-{r['rules']}" for r in RUNS])
def test_no_phase_raises(run):
    variant, rules = load_variant(run["variant"]), edition(run["rules"])
    rng = random.Random(run["seed"])
    played: Counter[str] = Counter()
    for _ in range(run["games"]):
        position = random_position(variant, rng, run["per_power"])
        for _ in range(run["phases"]):
            kind = position.phase.kind
            orders = NEXT_ORDERS[kind](variant, position, rng)
            try:
                turn = process_phase(variant, position, orders, rules)
            except Exception as e:  # noqa: BLE001 - the position and orders are the report
                pytest.fail(f"{type(e).__name__} {e} on {json.dumps(position_to_json(variant, position))} "
                            f"with {orders}")
            played[kind.name] += 1
            played["convoy"] += any(o.reason.value == "convoyed" or type(o.order).__name__ == "Convoy"
                                    for o in turn.result.outcomes)
            played["dislodged"] += bool(turn.result.dislodged)
            if turn.next.phase == position.phase:  # (a movement phase with no units at all)
                break
            position = turn.next
    # what the runs must have shown between them, so that "no exception" means something
    for kind in ("MOVEMENT", "RETREAT", "ADJUSTMENT", "convoy", "dislodged"):
        assert played[kind] or kind in run.get("never", {}), f"no {kind} in this run: {dict(played)}"


# -- against the diplomacy package -------------------------------------------------------------------

def _differential():
    bench = str(Path(__file__).resolve().parents[1] / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import differential
    return differential


def _parts(kind: str) -> list[str]:
    """The named deviations a difference is made of ("theirs: ... + rule choice a + b": three)."""
    return [part.removeprefix("rule choice ") for part in kind.split(" + ")]


def _their_start(variant, rng, per_power):
    """A random standard position in the package's notation: units anywhere, centres as at the start."""
    position = position_to_json(variant, random_position(variant, rng, per_power))
    return {"phase": rng.choice(["S1905M", "F1905M"]), "units": position["units"], "centres": position["centres"]}


SAMPLES = DATA["against_diplomacy"]


@pytest.mark.parametrize("run", SAMPLES, ids=[f"{r['rules']}-{r['seed']}" for r in SAMPLES])
def test_agrees_with_the_diplomacy_package(run):
    diff = _differential()
    variant, rules = load_variant("standard"), edition(run["rules"])
    rng = random.Random(run["seed"])
    listed = {d["kind"] for d in DEVIATIONS["deviations"]}
    seen: Counter[str] = Counter()
    unlisted = []
    for _ in range(run["phases"]):
        position = _their_start(variant, rng, run["per_power"])
        game = diff.game_at(position)
        orders = diff.movement_orders(game, list(game.powers), rng, run["via"], run["backing"])
        kept = diff.given(game, orders)
        ours = diff.our_next(position, kept, rules, variant)
        game.process()
        theirs = diff.settle_their_empty_retreats(game)
        if not diff.differences(ours, theirs):
            seen["agreed"] += 1
            continue
        choice = diff.explained_by(position, kept, rules, variant, theirs)
        kind = f"rule choice {choice}" if choice else diff.their_slips(position, kept, rules, variant) or "unexplained"
        seen[kind] += 1
        if not set(_parts(kind)) <= listed:
            unlisted.append({"kind": kind, "position": position, "orders": kept,
                             "difference": diff.differences(ours, theirs)})
    assert not unlisted, json.dumps(unlisted[:3], indent=1)
    assert seen["agreed"] >= run["phases"] * run["agree_at_least"], dict(seen)
