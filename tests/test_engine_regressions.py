"""Cases from the differential test against the `diplomacy` package (tests/data/engine_regressions.json).

Each case is a `judge adjudicate` request with, per rules edition, the results of named orders and
the next position the rulebook gives; its verdict and reasoning say why (bench/differential.md).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.engine.fast_movement import adjudicate_plain
from judge.engine.movement import adjudicate_general
from judge.engine.notation import parse_order, position_from_json, position_to_json
from judge.engine.rules import edition
from judge.language import OrderReader

VARIANT = load_variant("standard")
READER = OrderReader(VARIANT)
CASES = json.loads((Path(__file__).parent / "data" / "engine_regressions.json").read_text(encoding="utf-8"))["cases"]
RUNS = [(case, rules) for case in CASES for rules in case["expect"]]


def _variant_named(name: str):
    assert name == "standard"
    return VARIANT, READER


def test_every_case_says_why():
    assert len({c["name"] for c in CASES}) == len(CASES)
    for case in CASES:
        assert case["verdict"] in ("rule choice", "bug of the package", "bug of ours")
        assert len(case["reasoning"]) > 80 and case["other"] and case["found"]


@pytest.mark.parametrize("case,rules", RUNS, ids=[f"{c['name']}-{r}" for c, r in RUNS])
def test_regression_case(case, rules):
    response = adjudicate_request(dict(case["request"], rules=rules), _variant_named)
    assert "errors" not in response, response.get("errors")
    want = case["expect"][rules]
    got_results = {r["order"]: r["result"] for rs in response["results"].values() for r in rs}
    for order, result in want.get("results", {}).items():
        assert got_results.get(order) == result, f"{order}: expected {result}, got {got_results.get(order)}"
    nxt = response["next"]
    assert nxt["phase"] == want["next"]["phase"]
    assert {p: sorted(us) for p, us in nxt["units"].items() if us} == \
        {p: sorted(us) for p, us in want["next"]["units"].items()}
    dislodged = {d["unit"]: sorted(d["retreats"]) for ds in nxt.get("dislodged", {}).values() for d in ds}
    assert dislodged == want["next"].get("dislodged", {})


MOVEMENT_RUNS = [(c, r) for c, r in RUNS if c["request"]["phase"].endswith("M")]


@pytest.mark.parametrize("case,rules", MOVEMENT_RUNS, ids=[f"{c['name']}-{r}" for c, r in MOVEMENT_RUNS])
def test_general_engine_agrees(case, rules):
    """The general engine shares the fast path's resolver: each movement case through it as well."""
    request = case["request"]
    position = position_from_json(VARIANT, request)
    orders = {p: [parse_order(VARIANT, line) for line in lines] for p, lines in request["orders"].items()}
    general = adjudicate_general(VARIANT, position, orders, edition(rules))
    fast = adjudicate_plain(VARIANT, position, orders, edition(rules))
    assert fast is None or fast == general
    units = position_to_json(VARIANT, general.position)["units"]
    assert {p: sorted(us) for p, us in units.items() if us} == \
        {p: sorted(us) for p, us in case["expect"][rules]["next"]["units"].items()}
