"""Partisan build sites (DPjudge's `*X`: 1900's Siberia for Russia; judge/engine/partisans.py), by cases
(tests/data/variants/partisans.json) on 1900's board imported from DPjudge's own map file."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine.variant import variant_from_data
from judge.language import OrderReader
from judge.variants.importer import import_map

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "partisans.json").read_text(encoding="utf-8"))
MAPS = Path(__file__).parent / "data" / "dpjudge-maps"


@functools.cache
def _data() -> str:
    data, _, _ = import_map(MAPS / "1900.map")
    data["id"] = "1900"
    return json.dumps(data)


def _named(name: str):
    variant = variant_from_data(json.loads(_data()))
    return variant, OrderReader(variant)


@pytest.mark.parametrize("case", CASES["adjust"], ids=[c["name"] for c in CASES["adjust"]])
def test_partisan_sites(case):
    response = adjudicate_request(json.loads(json.dumps(case["request"])), _named)
    assert "errors" not in response, response.get("errors")
    got = {r["order"]: r for rs in response["results"].values() for r in rs}
    assert {order: got[order]["result"] if order in got else None for order in case["results"]} == case["results"]
    assert {order: got[order].get("why") for order in case.get("why", {})} == case.get("why", {})
    for power, units in case.get("units", {}).items():
        assert sorted(response["next"]["units"][power]) == units
    for power, centres in case.get("centres", {}).items():
        assert sorted(response["next"]["centres"][power]) == centres


def test_1900s_siberia_is_imported_as_russias_partisan_site():
    data = json.loads(_data())
    russia = next(p for p in data["powers"] if p["id"] == "RUSSIA")
    assert russia["partisan_sites"] == ["sib"] and "sib" not in russia["home_centres"]
    assert not any(p.get("partisan_sites") for p in data["powers"] if p["id"] != "RUSSIA")


def test_a_partisan_site_must_be_no_centre():
    data = json.loads(_data())
    next(p for p in data["powers"] if p["id"] == "RUSSIA")["partisan_sites"] = ["rum"]
    with pytest.raises(ValueError, match="partisan site rum"):
        variant_from_data(data)
