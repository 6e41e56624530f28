"""The DPjudge rules issue 29 adds as hooks, by cases (tests/data/variants/dpjudge_rules.json): PORT
(a coast whose fleet convoys), REMOTE_BUILDS, HOME_BUILDS, borders open only to owners of some centres,
home centres reassigned in a given year (NEWHOMES), a space a map makes passable (Renaissance's
`LAND SWI`: Switzerland land and a centre), and a calendar that counts years down B.C. to A.D.,
its phases named by era in codes and in words."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine.board import Board
from judge.engine.geography import Province, Terrain
from judge.language.later_phase import read_phase
from rule_cases import adjudicated, imported

CASES = json.loads((Path(__file__).parent / "data" / "variants" / "dpjudge_rules.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["orders"], ids=[c["name"] for c in CASES["orders"]])
def test_rule_cases(case):
    def make(name: str):
        variant = imported(case["import"]) if "import" in case else load_variant(name)
        return replace(variant, hooks=variant.hooks | set(case.get("hooks", ())))

    response = adjudicated(case, make)
    for power, centres in case.get("centres", {}).items():
        assert sorted(response["next"]["centres"][power]) == centres
    for power, homes in case.get("homes", {}).items():    # NEWHOMES: kept in the position as reassigned
        assert sorted(response["next"]["homes"].get(power, [])) == homes
    for power, units in case.get("retreats", {}).items():
        got_retreats = {d["unit"]: sorted(d["retreats"]) for d in response["dislodged"][power]}
        assert got_retreats == units


@pytest.mark.parametrize("case", CASES["calendar"], ids=[c["name"] for c in CASES["calendar"]])
def test_calendar_cases(case):
    calendar = load_variant(case["variant"]).calendar
    phase = calendar.parse(case["from"])
    codes, names = [], []
    for _ in case["codes"]:
        codes.append(calendar.code(phase))
        names.append(calendar.name(phase))
        assert calendar.parse(codes[-1]) == phase      # every code reads back as its phase
        phase = calendar.next_phase(phase)
    assert codes == case["codes"] and names == case["names"]


@pytest.mark.parametrize("case", CASES["phase_words"], ids=[c["words"] for c in CASES["phase_words"]])
def test_a_phase_named_in_words_by_its_era(case):
    """The PHASE line's words (judge.language.later_phase) on a calendar of eras: 273 BC Movement."""
    calendar = load_variant(case["variant"]).calendar
    if "code" in case:
        assert calendar.code(read_phase(calendar, case["words"])) == case["code"]
    else:
        with pytest.raises(ValueError, match=case["error"]):
            read_phase(calendar, case["words"])


@pytest.mark.parametrize("case", CASES["bad_codes"], ids=[c["variant"] for c in CASES["bad_codes"]])
def test_a_calendar_refuses_codes_that_name_no_phase_of_it(case):
    calendar = load_variant(case["variant"]).calendar
    for code in case["codes"]:
        with pytest.raises(ValueError):
            calendar.parse(code)


def test_a_port_must_be_a_coast():
    provinces = [Province("sea", "Sea", Terrain.SEA, False), Province("inl", "Inland", Terrain.LAND, False)]
    with pytest.raises(ValueError, match="inl"):
        Board(provinces, [], [], ports=["inl"])
