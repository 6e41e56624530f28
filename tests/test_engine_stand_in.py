"""The stand-in for a power nobody plays (judge/engine/stand_in.py).

1. Seeded random positions on every packaged variant, played on through their retreats and
   adjustments: every order the stand-in gives is one the engine takes (check_orders flags none), it
   orders everything the power owes, and the same input gives the same orders (also across processes
   with different hash seeds: no set is read unsorted).
2. Hand-made positions (tests/data/stand_in_cases.json): orders it must give, and orders it must not.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine_phases import random_orders, random_position
from judge.engine import available_variants, check_orders, edition, load_variant, orders_needed, process_phase
from judge.engine.calendar import PhaseKind
from judge.engine.notation import order_text, position_from_json
from judge.engine.orders import Build, Disband, Retreat, Waive
from judge.engine.stand_in import stand_in_orders

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((ROOT / "tests" / "data" / "stand_in_cases.json").read_text())["cases"]
RULES = ("5th", "2000", "1982")


def _owes_all(variant, position, power, orders) -> None:
    """The stand-in orders everything the power has to decide."""
    need = orders_needed(variant, position)[power]
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        assert sorted(str(o.unit.location) for o in orders) == sorted(str(loc) for loc in need.units)
    elif kind is PhaseKind.RETREAT:
        assert sorted(str(o.unit.location) for o in orders if isinstance(o, (Retreat, Disband))) == \
            sorted(str(d.unit.location) for d in need.retreats)
    else:
        assert sum(isinstance(o, (Build, Waive)) for o in orders) == need.builds
        assert sum(isinstance(o, Disband) for o in orders) <= need.removals


def _checked_phase(variant, position, rules) -> dict[str, list]:
    """Every power's stand-in orders for this phase, each checked; returns them."""
    out = {}
    for power in orders_needed(variant, position):
        orders = stand_in_orders(variant, position, power, rules)
        assert orders == stand_in_orders(variant, position, power, rules)
        flagged = [(o.order, o.why) for o in check_orders(variant, position, {power: list(orders)}, rules)]
        assert not flagged, (variant.id, variant.calendar.code(position.phase), power, flagged)
        _owes_all(variant, position, power, orders)
        out[power] = list(orders)
    return out


@pytest.mark.parametrize("variant_id", available_variants())
def test_every_order_is_legal_in_every_kind_of_phase(variant_id):
    variant = load_variant(variant_id)
    rng = random.Random(f"stand-in/{variant_id}")
    seen = {kind: 0 for kind in PhaseKind}
    # about two hundred positions in all; on the boards of many powers (Chaos: 34) fewer, each costing more
    many = 9 if len(variant.power_ids) <= 10 else 3
    for n in range(many):
        rules = edition(RULES[n % 3])
        position = random_position(variant, rng, per_power=rng.choice((3, 5, 7)))
        for _ in range(4):
            seen[position.phase.kind] += 1
            by_stand_in = _checked_phase(variant, position, rules)
            if position.phase.kind is PhaseKind.MOVEMENT:
                # the others play at random, with the stand-in for one power in three
                orders = random_orders(variant, position, rng)
                orders.update({p: os for p, os in by_stand_in.items() if rng.random() < 0.3})
            else:
                orders = by_stand_in
            position = process_phase(variant, position, orders, rules).next
    assert seen[PhaseKind.MOVEMENT] and seen[PhaseKind.ADJUSTMENT]
    if many == 9 and len(variant.power_ids) >= 7:  # (two powers on a big board may well dislodge nothing)
        assert seen[PhaseKind.RETREAT]


_DIGEST = """
import hashlib, random, sys
sys.path.insert(0, "tests")
from engine_phases import random_position
from judge.engine import load_variant, orders_needed, process_phase, FIFTH
from judge.engine.notation import order_text
from judge.engine.stand_in import stand_in_orders
variant, rng, digest = load_variant("standard"), random.Random(5), hashlib.sha256()
for _ in range(12):
    position = random_position(variant, rng, per_power=6)
    for _ in range(3):
        orders = {p: stand_in_orders(variant, position, p, FIFTH) for p in orders_needed(variant, position)}
        digest.update(repr(sorted((p, [order_text(o) for o in os]) for p, os in orders.items())).encode())
        position = process_phase(variant, position, orders, FIFTH).next
print(digest.hexdigest())
"""


def test_the_same_orders_whatever_the_hash_seed():
    runs = set()
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", _DIGEST], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        runs.add(done.stdout.strip())
    assert len(runs) == 1 and len(next(iter(runs))) == len(hashlib.sha256().hexdigest())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_made_positions(case):
    variant = load_variant(case.get("variant", "standard"))
    position = position_from_json(variant, {"variant": variant.id, **case["position"]})
    orders = stand_in_orders(variant, position, case["power"])
    given = [order_text(o) for o in orders]
    assert not check_orders(variant, position, {case["power"]: list(orders)})
    for wanted in case.get("gives", ()):
        assert wanted in given, (wanted, given)
    for unwanted in case.get("never", ()):
        assert unwanted not in given, (unwanted, given)
