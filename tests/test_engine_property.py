"""The engine never raises on a legal position.

On every variant, seeded random positions are played for a few phases (movement with convoys,
convoy chains, supports of convoys, attacks on convoying fleets, coasts; then the retreats and the
adjustments they lead to) under each run's rules edition: no phase may raise.

The runs are data: tests/data/engine_property.json.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from engine_phases import random_position
from engine_property import adjustment_orders, movement_orders, retreat_orders
from judge.engine import PhaseKind, load_variant, process_phase
from judge.engine.notation import position_to_json
from judge.engine.rules import edition

DATA = json.loads((Path(__file__).parent / "data" / "engine_property.json").read_text(encoding="utf-8"))
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
