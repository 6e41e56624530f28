"""The small rule hooks variants name in their data (tests/data/variants/hooks.json): absent powers,
`build_any`, `mobilize`, alternative home centres and hidden builds (Zeus), a first phase other than
Spring movement, and calendar steps."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant, starting_position
from judge.engine.variant import variant_from_data
from judge.language import OrderReader

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "hooks.json").read_text(encoding="utf-8"))


def _named(name: str):
    variant = load_variant(name)
    return variant, OrderReader(variant)


@pytest.mark.parametrize("case", CASES["adjust"], ids=[c["name"] for c in CASES["adjust"]])
def test_adjustment_hooks(case):
    response = adjudicate_request(dict(case["request"]), _named)
    assert "errors" not in response, response.get("errors")
    got = {r["order"]: r["result"] for rs in response["results"].values() for r in rs}
    assert {order: got.get(order) for order in case["results"]} == case["results"]
    why = {r["order"]: r.get("why") for rs in response["results"].values() for r in rs}
    assert {order: why.get(order) for order in case.get("why", {})} == case.get("why", {})
    for power, centres in case.get("centres", {}).items():
        assert sorted(response["next"]["centres"][power]) == centres
    if "centres" in case:   # powers not named own nothing (mobilize: a power that built nothing)
        assert all(not cs for p, cs in response["next"]["centres"].items() if p not in case["centres"])


@pytest.mark.parametrize("case", CASES["start"], ids=[c["variant"] for c in CASES["start"]])
def test_starting_positions(case):
    variant = load_variant(case["variant"])
    start = starting_position(variant)
    assert variant.calendar.code(start.phase) == case["first_phase"]
    powers = case["powers"]
    assert (sorted(variant.power_ids) == powers) if isinstance(powers, list) else len(variant.powers) == powers
    assert len(start.units) == case["units"]
    assert len(start.owners) == case["owned"]
    assert len(variant.supply_centres) == case["supply_centres"]
    assert variant.victory_centres == case["victory"]
    for c in case.get("neutral_includes", ()):
        assert variant.board.province(c).supply_centre and c not in start.owners
        assert variant.home_power(c) is None
    for power, units in case.get("has_units", {}).items():
        assert sorted(f"{u.kind.value} {u.location}" for u in start.units_of(power)) == sorted(units)
    if "then" in case:
        assert variant.calendar.code(variant.calendar.next_phase(start.phase)) == case["then"]


@pytest.mark.parametrize("case", CASES["calendar"], ids=[c["name"] for c in CASES["calendar"]])
def test_calendar_steps(case):
    data = json.loads(json.dumps(_PURE))
    data["calendar"] = case["calendar"]
    calendar = variant_from_data(data).calendar
    phase = calendar.first_phase
    seen = []
    for _ in case["phases"]:
        seen.append(calendar.code(phase))
        assert calendar.parse(seen[-1]) == phase   # every code reads back as its phase
        phase = calendar.next_phase(phase)
    assert seen == case["phases"]


def test_an_absent_power_must_be_one_of_the_variant():
    data = json.loads(json.dumps(_PURE))
    data["absent_powers"] = ["ATLANTIS"]
    with pytest.raises(ValueError, match="ATLANTIS"):
        variant_from_data(data)


def test_absent_powers_leave_their_homes_as_neutral_centres():
    data = json.loads(json.dumps(_PURE))
    data["absent_powers"] = ["RUSSIA"]
    variant = variant_from_data(data)
    assert "RUSSIA" not in variant.power_ids and variant.board.province("mos").supply_centre
    assert "mos" not in starting_position(variant).owners


_PURE = json.loads((Path(__file__).parent.parent / "judge" / "variants" / "pure" / "variant.json").read_text())


def test_a_power_may_own_other_centres_than_its_homes_at_the_start():
    """DPjudge's OWNS (the Shift maps): starting ownership apart from the home centres."""
    data = json.loads(json.dumps(_PURE))
    france = next(p for p in data["powers"] if p["id"] == "FRANCE")
    france["starting_centres"] = ["par", "ber"]
    germany = next(p for p in data["powers"] if p["id"] == "GERMANY")
    germany["starting_centres"] = []
    start = starting_position(variant_from_data(data))
    assert set(start.centres_of("FRANCE")) == {"par", "ber"} and not start.centres_of("GERMANY")
    france["starting_centres"] = ["atlantis"]
    with pytest.raises((ValueError, KeyError)):
        variant_from_data(data)


def test_builds_needed_count_no_alternative_home_centre():
    """Zeus's USA owns four centres at the start, one of them California, an alternative home centre:
    it is asked for three builds, as many as its ordinary home centres."""
    from judge.engine.phase import orders_needed
    variant = load_variant("zeus")
    start = starting_position(variant)
    assert len(start.centres_of("USA")) == 4
    assert orders_needed(variant, start)["USA"].builds == 3
