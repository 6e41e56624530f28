"""Plain convoys on the fast path (judge/engine/fast_convoys.py): on seeded random phases with convoys
the fast path must give what the general engine gives, outcome for outcome, wherever it takes a phase;
and must leave to the general engine every phase where a convoying fleet is attacked by a move
another power supports (one it could be dislodged by), and every one under the 1982 convoy rule.
The runs and hand-made attacked convoys are data (tests/data/engine_fast_convoys.json).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from datc_cases import position_for, read_order
from engine_phases import random_orders, random_position, with_convoys
from judge.engine import Convoy, Move, PhaseResult, Reason, SupportMove, load_variant
from judge.engine.fast_movement import adjudicate_plain
from judge.engine.movement import adjudicate_general
from judge.engine.calendar import PhaseKind
from judge.engine.rules import edition
from test_engine_fast_path import _same

DATA = json.loads((Path(__file__).parent / "data" / "engine_fast_convoys.json").read_text(encoding="utf-8"))
RUNS = DATA["runs"]

# what every run must show between its phases, so that agreement means something
EVERY_RUN_SHOWS = {"taken", "convoyed", "moved by convoy", "bounced by convoy", "dislodged by convoy",
                   "convoyed move supported", "unsupported attack on a convoy taken"}


def _phases(run):
    variant = load_variant(run["variant"])
    rng = random.Random(run["seed"])
    for _ in range(run["phases"]):
        position = random_position(variant, rng, run["per_power"])
        orders = with_convoys(variant, position, random_orders(variant, position, rng), rng, armies=run["armies"])
        yield variant, position, orders


def _convoys_attacked(position, orders) -> set[str]:
    """How the phase's convoying fleets are attacked: "unsupported" (no other power supports the
    attack: it cannot dislodge the fleet) and "supported" (it could)."""
    given = [(power, o) for power, os in orders.items() for o in os]
    convoying = {o.unit.location.province: power for power, o in given if isinstance(o, Convoy)}
    how = set()
    for _, attack in given:
        if isinstance(attack, Move) and attack.to.province in convoying:
            fleet = convoying[attack.to.province]
            backed = any(isinstance(o, SupportMove) and power != fleet and o.to.province == attack.to.province
                         and o.supported.location.province == attack.unit.location.province for power, o in given)
            how.add("supported" if backed else "unsupported")
    return how


def _shown(result: PhaseResult) -> set[str]:
    armies = {o.order.army.location.province for o in result.outcomes
              if isinstance(o.order, Convoy) and o.reason is Reason.CONVOYED}
    shown = {"convoyed"} if armies else set()
    for o in result.outcomes:
        if isinstance(o.order, Move) and o.order.unit.location.province in armies:
            shown.add("moved by convoy" if o.reason is Reason.MOVED else "bounced by convoy")
            if o.reason is Reason.MOVED and o.order.to.province in {d.unit.location.province for d in result.dislodged}:
                shown.add("dislodged by convoy")
        if o.reason is Reason.SUPPORTED and getattr(o.order, "supported", None) is not None \
                and o.order.supported.location.province in armies:
            shown.add("convoyed move supported")
    return shown


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['variant']}-{r['rules']}-{r['seed']}" for r in RUNS])
def test_fast_convoys_agree(run):
    rules = edition(run["rules"])
    shown: Counter[str] = Counter()
    for variant, position, orders in _phases(run):
        general = adjudicate_general(variant, position, orders, rules)
        fast = adjudicate_plain(variant, position, orders, rules)
        attacked = _convoys_attacked(position, orders)
        if "supported" in attacked:
            assert fast is None, "a phase with a convoying fleet attacked with another power's support was taken"
            shown["attacked convoy refused"] += 1
            continue
        if fast is None:
            continue
        _same(fast, general)
        shown["taken"] += 1
        shown.update(f"{how} attack on a convoy taken" for how in attacked)
        shown.update(_shown(general))
    assert shown.keys() >= EVERY_RUN_SHOWS, f"these phases never showed {EVERY_RUN_SHOWS - shown.keys()}"
    # most phases with plain convoys are taken (the rest: a convoy the generator made illegal or unmatched)
    assert shown["taken"] >= run["phases"] // 2


def test_1982_convoy_rule_is_the_general_engines():
    run = DATA["refused_rules"]
    rules = edition(run["rules"])
    convoyed = 0
    for variant, position, orders in _phases(run):
        if any(isinstance(o, Convoy) for os in orders.values() for o in os):
            convoyed += 1
            assert adjudicate_plain(variant, position, orders, rules) is None
    assert convoyed >= run["phases"] // 2


@pytest.mark.parametrize("case", DATA["attacked_convoys"], ids=[c["why"] for c in DATA["attacked_convoys"]])
def test_attacked_convoy(case):
    """A convoying fleet attacked: taken by the fast path (and as the general engine has it) only when
    the attack cannot dislodge it."""
    variant, rules = load_variant("standard"), edition("5th")
    orders: dict[str, list] = {}
    for line in case["orders"]:
        power, order, _ = read_order(line)
        orders.setdefault(power, []).append(order)
    position = position_for(variant, {}, case["orders"], PhaseKind.MOVEMENT)
    assert "supported" not in _convoys_attacked(position, orders) if case["taken"] else \
        "supported" in _convoys_attacked(position, orders)
    fast = adjudicate_plain(variant, position, orders, rules)
    if not case["taken"]:
        assert fast is None
        return
    assert fast is not None
    _same(fast, adjudicate_general(variant, position, orders, rules))
    assert any(isinstance(o.order, Move) and o.order.unit.location.province == "lon" and o.reason is Reason.MOVED
               for o in fast.outcomes)
