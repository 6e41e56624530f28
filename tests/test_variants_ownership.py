"""Supply centres change owner at the end of a year that has an adjustment phase, and only then.

Hundred turns five years at a time and adjusts only every tenth year (DPjudge's hundred.map:
`FLOW NEWYEAR:5`, `IFYEARDIV:10`); vDiplomacy and godip change centre owners only in those years,
so a unit that takes a centre in 1425 and leaves by 1430 never owned it. The cases are data:
tests/data/variants/ownership.json.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.language import OrderReader

DATA = Path(__file__).parent / "data" / "variants" / "ownership.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def _variant_named(name: str):
    variant = load_variant(name)
    return variant, OrderReader(variant)


@pytest.mark.parametrize("case", CASES, ids=[c["name"].split(":")[0] + f"-{i}" for i, c in enumerate(CASES)])
def test_centres_change_owner_only_in_years_with_adjustments(case):
    response = adjudicate_request(case["request"], _variant_named)
    assert "errors" not in response, response.get("errors")
    nxt = response["next"]
    assert nxt["phase"] == case["next_phase"]
    owner_of = {c: power for power, cs in nxt["centres"].items() for c in cs}
    for centre, power in case["owners"].items():
        assert owner_of.get(centre) == power, f"{centre}: {owner_of.get(centre)}, not {power}"
