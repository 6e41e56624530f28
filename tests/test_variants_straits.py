"""Weak moves across straits (DPjudge's `~XXX`: Loeb9's Cordoba-North Africa and Naples-Sicily;
judge/engine/straits.py), by cases (tests/data/variants/straits.json) on the standard board with
Denmark-Sweden made a strait, and the importer reading Loeb9's straits."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.engine.variant import variant_from_data
from judge.language import OrderReader
from judge.variants.importer import import_map

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "straits.json").read_text(encoding="utf-8"))
MAPS = Path(__file__).parent / "data" / "dpjudge-maps"


def _results(case):
    def named(name: str):
        variant = replace(load_variant(name), weak_straits=frozenset(tuple(pair) for pair in case["straits"]))
        return variant, OrderReader(variant)

    response = adjudicate_request(json.loads(json.dumps(case["request"])), named)
    assert "errors" not in response, response.get("errors")
    got = {r["order"]: r for rs in response["results"].values() for r in rs}
    assert {order: got[order]["result"] if order in got else None for order in case["results"]} == case["results"]
    assert {order: got[order].get("why") for order in case.get("why", {})} == case.get("why", {})
    return response


@pytest.mark.parametrize("case", CASES["orders"], ids=[c["name"] for c in CASES["orders"]])
def test_moves_and_supports_across_a_strait(case):
    response = _results(case)
    if "dislodged" in case:
        got = {power: sorted(d["unit"] for d in ds) for power, ds in response.get("dislodged", {}).items() if ds}
        assert got == case["dislodged"]


@pytest.mark.parametrize("case", CASES["retreats"], ids=[c["name"] for c in CASES["retreats"]])
def test_retreats_across_a_strait(case):
    _results(case)


def test_loeb9s_straits_are_imported_both_ways():
    data, report, needs = import_map(MAPS / "loeb9.map")
    assert sorted(map(tuple, data["weak_straits"])) == [("cor", "naf"), ("naf", "cor"), ("nap", "sic"), ("sic", "nap")]
    assert not any("~" in need for need in needs)


def test_a_strait_must_be_a_border():
    data, _, _ = import_map(MAPS / "standard.map")
    data["weak_straits"] = [["lon", "par"]]
    with pytest.raises(ValueError, match="lon-par"):
        variant_from_data(data)
