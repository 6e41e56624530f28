"""Loeb9's seasonal space and DPjudge's HIBERNATE (judge/engine/seasonal.py), by cases
(tests/data/variants/seasonal.json); the importer's reading of `IN SPRING: WATER ARC`."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.engine import load_variant, starting_position
from judge.pictures import style
from judge.pictures.render import province_fills
from judge.variants.importer.mapfile import read_map
from rule_cases import adjudicated

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "variants" / "seasonal.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["orders"], ids=[c["name"] for c in CASES["orders"]])
def test_seasonal_cases(case):
    def make(name: str):
        variant = load_variant(name)
        return replace(variant, hooks=variant.hooks - set(case.get("hooks_off", ())))

    response = adjudicated(case, make)
    for power, units in case.get("retreats", {}).items():
        assert {d["unit"]: sorted(d["retreats"]) for d in response["dislodged"][power]} == units
    for power, units in case.get("next_units", {}).items():
        assert sorted(response["next"]["units"].get(power, [])) == units


def test_the_importer_reads_a_space_open_in_one_season(tmp_path):
    """`IN SPRING: WATER ARC` over `SHUT ARC`: the space has a sea's borders, open in Spring; the same
    change over a space that is not shut, or in a phase that is not a season's name, is a need."""
    (tmp_path / "a.map").write_text("USE standard.map\nArctic = arc\nIN SPRING: WATER ARC\n"
                                    "SHUT ARC ABUTS BAR NWG\nAMEND BAR ABUTS ARC\nAMEND NWG ABUTS ARC\n")
    data = read_map(tmp_path / "a.map", (DATA / "dpjudge-maps",))
    assert data.terrain["arc"].kind == "WATER" and data.seasonal == {"arc": ("WATER", ["SPRING"])}
    assert not data.needs
    (tmp_path / "b.map").write_text("USE standard.map\nIN SPRING: WATER BUR\nIN S1904M: WATER NTH\n")
    data = read_map(tmp_path / "b.map", (DATA / "dpjudge-maps",))
    assert len(data.needs) == 2 and not data.seasonal


def test_the_picture_draws_the_arctic_ocean_as_sea_in_spring_and_impassable_in_fall():
    variant = load_variant("loeb9")
    spring = starting_position(variant)
    fall = replace(spring, phase=variant.calendar.parse("F1901M"))
    assert province_fills(variant, spring, {p: (0, 0, 0) for p in variant.power_ids})["arc"] == style.SEA
    assert province_fills(variant, fall, {p: (0, 0, 0) for p in variant.power_ids})["arc"] == style.IMPASSABLE
