"""judge.variants.importer: every DPjudge map imports, lints clean and loads; the linter finds what it
must in small broken maps; the checked-in imported variants are exactly what the importer makes; and
importing DPjudge's standard map gives the judge's standard board edge for edge."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.variant import load_variant, variant_from_data
from judge.variants.importer import import_map
from judge.variants.importer.__main__ import CATALOGUE
from judge.variants.importer.derive import SETUPS, derive

DATA = Path(__file__).parent / "data"
MAPS = DATA / "dpjudge-maps"
VARIANTS = Path(__file__).parent.parent / "judge" / "variants"
EXPECT = json.loads((DATA / "variants" / "importer.json").read_text(encoding="utf-8"))
LINT = json.loads((DATA / "variants" / "lint.json").read_text(encoding="utf-8"))["cases"]


def test_every_map_file_is_covered():
    assert sorted(p.name for p in MAPS.glob("*.map")) == sorted(EXPECT["maps"])
    assert (MAPS / "LICENSE").read_text().startswith("Copyright 2017 Manus Hand")


@pytest.mark.parametrize("name", sorted(EXPECT["maps"]))
def test_each_dpjudge_map_imports_lints_and_loads(name):
    data, report, needs = import_map(MAPS / name)
    assert report.errors == []
    want = EXPECT["maps"][name]
    assert sorted(needs) == sorted(want["needs"])
    variant = variant_from_data(data)
    assert len(variant.board.provinces) == want["provinces"]
    assert len(variant.supply_centres) == want["centres"]
    assert len(variant.powers) == want["powers"]


@pytest.mark.parametrize("case", LINT, ids=[c["map"] for c in LINT])
def test_the_linter_finds_what_is_wrong(case):
    data, report, _ = import_map(DATA / "variants" / "lint" / case["map"])
    for want in case["errors"]:
        assert any(want in e for e in report.errors), (want, report.errors)
    if not case["errors"]:
        assert report.errors == []
    for want in case["warnings"]:
        assert any(want in w for w in report.warnings), (want, report.warnings)
    if "army_edges" in case:
        assert data["army_edges"] == case["army_edges"] and data["fleet_edges"] == case["fleet_edges"]


def test_dpjudge_standard_map_is_the_judges_standard_board():
    data, report, needs = import_map(MAPS / "standard.map")
    ours = json.loads((VARIANTS / "standard" / "variant.json").read_text(encoding="utf-8"))
    assert not report.errors and not report.warnings and not needs
    for key in ("army_edges", "fleet_edges"):
        assert sorted(map(tuple, data[key])) == sorted(map(tuple, ours[key]))
    strip = lambda ps: {p["id"]: (p["name"], p["terrain"], p["supply_centre"], p["coasts"]) for p in ps}  # noqa: E731
    assert strip(data["provinces"]) == strip(ours["provinces"])
    home = lambda ps: {p["id"]: (sorted(p["home_centres"]), sorted(p["starting_units"]), p["letter"]) for p in ps}  # noqa: E731
    assert home(data["powers"]) == home(ours["powers"])
    assert data["calendar"] == ours["calendar"] and data["victory_centres"] == ours["victory_centres"]


@pytest.mark.parametrize("entry", CATALOGUE["imported"], ids=[e["id"] for e in CATALOGUE["imported"]])
def test_checked_in_variants_are_what_the_importer_makes(entry):
    aliases = (json.loads((VARIANTS / entry["aliases_from"] / "variant.json").read_text())
               if entry.get("aliases_from") else None)
    data, report, _ = import_map(MAPS / entry["map"], id=entry["id"], name=entry["name"],
                                 description=entry["description"], aliases_from=aliases,
                                 letters_from_names=entry.get("letters") == "names")
    assert not report.errors
    assert json.loads((VARIANTS / entry["id"] / "variant.json").read_text(encoding="utf-8")) == data
    assert "Permission is hereby granted" in (VARIANTS / entry["id"] / "SOURCE.md").read_text(encoding="utf-8")
    assert load_variant(entry["id"]).name == entry["name"]


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_checked_in_setups_are_the_standard_map_with_powers_absent(setup):
    assert json.loads((VARIANTS / setup / "variant.json").read_text(encoding="utf-8")) == derive(setup)
    variant = load_variant(setup)
    assert set(variant.power_ids) == set(SETUPS[setup][1])


READS = [  # what the importer must make of DPjudge's calendar and rule directives (and every import
    # wins only by its count: win_by_count_only, added to the hooks below)
    ("hundred.map", {"start_year": 1425, "year_step": 5, "adjustment_every": 10,
                     "seasons": [{"name": "A.D.", "code": "A", "adjustments": True}]}, ["build_any"], []),
    ("1898.map", {"start_year": 1898, "first_phase": "W1898A"}, ["mobilize"], []),
    ("chaos.map", {"start_year": 1900, "first_phase": "W1900A"}, ["build_any"], []),
    ("ancmed.map", {"start_year": 1, "start_season": "S"}, [], []),
    ("fiveman.map", {"start_year": 1901}, [], ["RUSSIA", "TURKEY"]),
]


@pytest.mark.parametrize("name,calendar,hooks,absent", READS, ids=[r[0] for r in READS])
def test_calendar_hooks_and_absent_powers_are_read(name, calendar, hooks, absent):
    data, _, _ = import_map(MAPS / name)
    assert {k: data["calendar"][k] for k in calendar} == calendar
    assert data["hooks"] == ["win_by_count_only", *hooks] and data.get("absent_powers", []) == absent
