"""Partisan build sites (DPjudge's `*X`: 1900's Siberia for Russia; judge/engine/partisans.py), by cases
(tests/data/variants/partisans.json) on 1900's board imported from DPjudge's own map file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.variant import variant_from_data
from rule_cases import adjudicated, imported, imported_data

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "partisans.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["adjust"], ids=[c["name"] for c in CASES["adjust"]])
def test_partisan_sites(case):
    response = adjudicated(case, lambda name: imported("1900.map"))
    for power, units in case.get("units", {}).items():
        assert sorted(response["next"]["units"][power]) == units
    for power, centres in case.get("centres", {}).items():
        assert sorted(response["next"]["centres"][power]) == centres


def test_1900s_siberia_is_imported_as_russias_partisan_site():
    data = imported_data("1900.map")
    russia = next(p for p in data["powers"] if p["id"] == "RUSSIA")
    assert russia["partisan_sites"] == ["sib"] and "sib" not in russia["home_centres"]
    assert not any(p.get("partisan_sites") for p in data["powers"] if p["id"] != "RUSSIA")


def test_a_partisan_site_must_be_no_centre():
    data = imported_data("1900.map")
    next(p for p in data["powers"] if p["id"] == "RUSSIA")["partisan_sites"] = ["rum"]
    with pytest.raises(ValueError, match="partisan site rum"):
        variant_from_data(data)
