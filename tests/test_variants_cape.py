"""Half-strength moves round the Cape (DPjudge's `*XXX`: 1900's Suez Canal rules; judge/engine/cape.py),
by cases (tests/data/variants/cape.json) on 1900's board imported from DPjudge's own map file."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.engine.strengths import counted_here
from judge.engine.variant import variant_from_data
from judge.language import OrderReader
from judge.variants.importer import import_map

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "cape.json").read_text(encoding="utf-8"))
MAPS = Path(__file__).parent / "data" / "dpjudge-maps"


@functools.cache
def _data() -> str:
    data, _, _ = import_map(MAPS / "1900.map")
    data["id"] = "1900"
    return json.dumps(data)


def _named(name: str):
    variant = variant_from_data(json.loads(_data()))
    return variant, OrderReader(variant)


def _results(case):
    response = adjudicate_request(json.loads(json.dumps(case["request"])), _named)
    assert "errors" not in response, response.get("errors")
    got = {r["order"]: r for rs in response["results"].values() for r in rs}
    assert {order: got[order]["result"] if order in got else None for order in case["results"]} == case["results"]
    assert {order: got[order].get("why") for order in case.get("why", {})} == case.get("why", {})
    return response


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
    data = json.loads(_data())
    assert sorted(map(tuple, data["half_strength_borders"])) == [
        ("egy", "mao"), ("hej", "mao"), ("mao", "egy"), ("mao", "hej")]


def test_no_strengths_are_told_where_a_move_may_be_weaker_than_a_unit():
    """A half-strength move read back from the outcomes alone would be told as strong as any: 1900's
    results tell no strengths (judge.engine.strengths.counted_here); the standard board's do."""
    assert not counted_here(load_variant("1900")) and counted_here(load_variant("standard"))
