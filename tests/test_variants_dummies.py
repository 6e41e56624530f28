"""Dummy powers, powers of a variant nobody plays (judge.engine.dummies: Sengoku's Neutral): the
engine's cases (tests/data/variants/dummies.json), what the importer reads of DPjudge's DUMMY lines,
and the games layer's seats, waiting and draws (a Sengoku game by mail: tests/test_variant_sengoku.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.engine.variant import variant_from_data
from judge.games.small import EACH, setup
from judge.language import OrderReader
from judge.variants.importer import import_map

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "variants" / "dummies.json").read_text(encoding="utf-8"))["cases"]


def _named(name: str):
    variant = load_variant(name)
    return variant, OrderReader(variant)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_dummy_powers(case):
    """Each order's result and reason code, the phase that follows and the units then."""
    response = adjudicate_request(json.loads(json.dumps(case["request"])), _named)
    assert "error" not in response, response
    played = response.get("phases", [response])
    got = {r["order"]: [r["result"], r.get("why")] for phase in played for rs in phase["results"].values() for r in rs}
    assert {order: got.get(order) for order in case["results"]} == case["results"]
    if not case["results"]:      # nothing to decide: no order made for anyone
        assert not got
    assert response["next"]["phase"] == case["next_phase"]
    for power, units in case["units"].items():
        assert sorted(response["next"]["units"][power]) == units


def test_a_dummy_power_must_be_one_of_the_variant():
    data = json.loads((Path(__file__).parent.parent / "judge" / "variants" / "pure" / "variant.json").read_text())
    data["dummy_powers"] = ["ATLANTIS"]
    with pytest.raises(ValueError, match="ATLANTIS"):
        variant_from_data(data)


@pytest.mark.parametrize("name,dummies,hooks", [
    ("sengoku.map", ["NEUTRAL"], ["build_any", "no_draw", "cd_dummies", "cd_builds", "immobile_dummies"]),
    ("vassal.map", ["BELGIUM", "HOLLAND", "GREECE", "TUNIS", "PORTUGAL", "NORWAY",
                    "BULGARIA", "RUMANIA", "SERBIA", "DENMARK", "SWEDEN", "SPAIN"],
     ["vassal_dummies", "cd_dummies", "cd_builds"]),
    ("standard.map", [], []),
])
def test_dpjudge_dummy_lines_and_rules_are_read(name, dummies, hooks):
    """`DUMMY` in a power's lines names that power, `DUMMY A B ...` those; the dummies' rules and
    NO_DRAW become hooks."""
    data, _, needs = import_map(DATA / "dpjudge-maps" / name)
    assert data.get("dummy_powers", []) == dummies
    assert data["hooks"] == ["win_by_count_only", *hooks]
    assert not [n for n in needs if "DUMMY" in n and "VASSAL" not in n and "PAY_DUMMIES" not in n]


def test_a_dummy_is_never_a_seat_but_a_neutral_power():
    seats = setup(EACH, load_variant("sengoku"))
    assert len(seats.seats) == 8 and all("NEUTRAL" not in seat for seat in seats.seats)
    assert seats.neutral == ("NEUTRAL",)
