"""A/F orders as players write them, their confirmations in full, and the canonical notation (`judge adjudicate`)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judge.engine import Disembark, Embark, Location, Move, Retreat, SupportMove, UnitKind, UnitRef, load_variant
from judge.engine import notation
from judge.engine.calendar import PhaseKind
from judge.games.ordercodec import order_from_json, order_to_json
from judge.language import OrderReader, describe

VARIANT = load_variant("abstraction2")
READER = OrderReader(VARIANT)
A, F, AF = UnitKind.ARMY, UnitKind.FLEET, UnitKind.ARMY_FLEET


def ref(where, kind=None):
    return UnitRef(Location(where), kind)


def read(text, phase=PhaseKind.MOVEMENT):
    result = READER.parse(text, phase)
    assert not result.errors, result.errors
    assert len(result.orders) == 1
    return result.orders[0].order


@pytest.mark.parametrize("text", ["A Lon embarks F Eng", "A Lon embarks on F Eng", "army London boards fleet "
                                  "English Channel", "A Lon embark onto F Eng", "a lon EMBARKS f eng"])
def test_embarking(text):
    assert read(text) == Embark(ref("lon", A), ref("eng", F))


@pytest.mark.parametrize("text, sea, to", [
    ("A/F Ang disembarks A Ire", "ang", "ire"),
    ("A/F Ang disembarks Ire", "ang", "ire"),
    ("A/F(TYS) disembarks A(Tun)", "tys", "tun"),
    ("A/F Eng disembarks A Eng-Bre", "eng", "bre"),  # the text's own spelling
    ("AF Eng lands in Brest", "eng", "bre"),
    ("A/F Tys unloads to Tunis", "tys", "tun"),
])
def test_disembarking(text, sea, to):
    assert read(text) == Disembark(ref(sea, AF), Location(to))


def test_an_a_f_moving_onto_a_coast_is_read_as_its_army_landing_with_a_note():
    result = READER.parse("A/F Eng - Bre", PhaseKind.MOVEMENT)
    assert result.orders[0].order == Disembark(ref("eng", AF), Location("bre"))
    assert "disembarking" in result.orders[0].notes[0]
    assert read("A/F Eng - Ang") == Move(ref("eng", AF), Location("ang"))


def test_the_fleet_supports_its_own_army_landing():
    order = read("A/F Eng S A Eng - Bre")
    assert order == SupportMove(ref("eng", AF), ref("eng", A), Location("bre"))
    assert describe(order, VARIANT) == "Army aboard fleet English Channel supports its own army disembarking -> Brest"


def test_confirmations_spell_each_order_out():
    assert describe(read("A Lon embarks F Eng"), VARIANT) == \
        "Army London embarks on Fleet English Channel, forming an army aboard fleet (A/F)"
    assert describe(read("A/F Ang disembarks A Ire"), VARIANT) == \
        "Army aboard fleet Anglican Sea: its army disembarks -> Ireland"
    assert describe(read("A/F Eng - Ang"), VARIANT) == "Army aboard fleet English Channel -> Anglican Sea"
    assert describe(read("A/F Eng R Lon", PhaseKind.RETREAT), VARIANT) == \
        "Army aboard fleet English Channel retreats -> London (as a fleet: its army is disbanded)"


def test_embarking_is_refused_outside_movement_with_the_reason():
    result = READER.parse("A Lon embarks F Eng", PhaseKind.RETREAT)
    assert "embarking in a retreat phase" in result.errors[0].problem


def test_retreat_of_an_a_f_and_an_army_onto_a_fleet():
    assert read("A/F Eng - Nth", PhaseKind.RETREAT) == Retreat(ref("eng", AF), Location("nth"))
    assert read("A Bre R Bob", PhaseKind.RETREAT) == Retreat(ref("bre", A), Location("bob"))


@pytest.mark.parametrize("order", [Embark(ref("lon", A), ref("eng", F)), Disembark(ref("bob", AF), Location("gas")),
                                   Move(ref("eng", AF), Location("ang"))])
def test_canonical_notation_and_json_round_trip(order):
    text = notation.order_text(order)
    assert notation.parse_order(VARIANT, text) == order
    assert order_from_json(json.loads(json.dumps(order_to_json(order)))) == order
    assert notation.parse_order(VARIANT, "A/F BOB DISEMBARK A GAS") == Disembark(ref("bob", AF), Location("gas"))


def test_judge_adjudicate_takes_a_f_orders():
    request = {"variant": "abstraction2", "phase": "AUG1914M",
               "units": {"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["A BRE"]},
               "centres": {"ENGLAND": ["LON"], "FRANCE": ["BRE"]},
               "orders": {"ENGLAND": ["A LON EMBARK F ENG", "A/F ENG - ANG", "A/F ANG DISEMBARK IRE"]}}
    done = subprocess.run([sys.executable, "-m", "judge.cli", "adjudicate"], input=json.dumps(request),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    response = json.loads(done.stdout)
    assert {r["order"]: r["result"] for r in response["results"]["ENGLAND"]} == {
        "A LON EMBARK F ENG": "succeeds", "A/F ENG - ANG": "succeeds", "A/F ANG DISEMBARK IRE": "succeeds"}
    assert sorted(response["next"]["units"]["ENGLAND"]) == ["A IRE", "F ANG"]
