"""Half-strength moves round the Cape (DPjudge's `*XXX`: 1900's Suez Canal rules; judge/engine/cape.py),
by cases (tests/data/variants/cape.json) on 1900's board imported from DPjudge's own map file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rule_cases import adjudicated, imported, imported_data

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "cape.json").read_text(encoding="utf-8"))


def _results(case):
    return adjudicated(case, lambda name: imported("1900.map"))


@pytest.mark.parametrize("case", CASES["orders"], ids=[c["name"] for c in CASES["orders"]])
def test_moves_and_supports_round_the_cape(case):
    response = _results(case)
    if "dislodged" in case:
        got = {power: sorted(d["unit"] for d in ds) for power, ds in response.get("dislodged", {}).items() if ds}
        assert got == case["dislodged"]


@pytest.mark.parametrize("case", CASES["retreats"], ids=[c["name"] for c in CASES["retreats"]])
def test_retreats_round_the_cape(case):
    _results(case)


def test_1900s_cape_is_imported_both_ways():
    data = imported_data("1900.map")
    assert sorted(map(tuple, data["half_strength_borders"])) == [
        ("egy", "mao"), ("hej", "mao"), ("mao", "egy"), ("mao", "hej")]

