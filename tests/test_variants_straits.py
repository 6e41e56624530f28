"""Weak moves across straits (DPjudge's `~XXX`: Loeb9's Cordoba-North Africa and Naples-Sicily;
judge/engine/straits.py), by cases (tests/data/variants/straits.json) on the standard board with
Denmark-Sweden made a strait, and the importer reading Loeb9's straits."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.variant import variant_from_data
from judge.variants.importer import import_map
from rule_cases import MAPS, adjudicated

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "straits.json").read_text(encoding="utf-8"))


def _results(case):
    return adjudicated(case, lambda name: replace(load_variant(name),
                                                  weak_straits=frozenset(tuple(pair) for pair in case["straits"])))


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
