"""Fog of war in the games layer and its notices: a dislodgement, its retreat and the winter's builds,
each power's results notice rendered as its mail says it, and the rule's own pieces (what a unit
and a centre see, who reads what). The mail test (test_mail_fog.py) plays through `judge serve`."""
import random
from contextlib import suppress
from dataclasses import replace
from xml.etree import ElementTree

import pytest

from judge.engine import load_variant, starting_position
from judge.engine.notation import position_from_json
from judge.games import fog
from judge.games.model import GameError, Settings
from judge.mail.words.notices import render_notice
from judge.mail.words.reason_words import detail_words
from judge.mail.words.reports import Reports
from judge.pictures import picture_of_phase

from fogsight import STANDARD, mentions, unseen
from test_games_helpers import POWERS, a_game_state, accounts, seven_player_game, service, submit
from test_variants_play import random_orders

# Austria takes Venice in the fall; Italy retreats to Piedmont (next to French Marseilles) and
# Austria builds in Vienna. Germany, beside Tyrolia, sees the army leave it but not where it went.
PLAY = [
    ("S1901M", {"AUSTRIA": ["A VIE - TYR", "F TRI H", "A BUD H"], "ITALY": ["A VEN H", "A ROM - APU", "F NAP - ION"],
                "FRANCE": ["A MAR H", "A PAR H", "F BRE H"], "GERMANY": ["A MUN H", "A BER H", "F KIE H"]}),
    ("F1901M", {"AUSTRIA": ["A TYR - VEN", "F TRI S A TYR - VEN", "A BUD H"], "ITALY": ["A VEN H"],
                "FRANCE": ["A MAR H"], "GERMANY": ["A MUN H"]}),
    ("F1901R", {"ITALY": ["A VEN R PIE"]}),
    ("W1901A", {"AUSTRIA": ["BUILD A VIE"]}),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    svc, _ = service(tmp_path_factory.mktemp("fog"))
    seven_player_game(svc, "fog", settings=Settings(fog=True))
    positions = {"S1901M": starting_position(STANDARD)}
    for phase, orders in PLAY:
        assert svc.status("fog").phase == phase
        for power, lines in orders.items():
            submit(svc, "fog", power, *lines)
        svc.process("fog")
        positions[svc.status("fog").phase] = position_from_json(STANDARD, svc.status("fog").position)
    notices = [n for n in svc.pending_notices("fog") if n.kind == "results"]
    return svc, positions, notices


def report(svc, notices, phase: str, account: str | None) -> str:
    notice = next(n for n in notices if n.payload["phase"] == phase and n.recipient == account)
    return " ".join(render_notice(Reports(), svc, notice).body.split())


PHASES = [("S1901M", "F1901M"), ("F1901M", "F1901R"), ("F1901R", "W1901A"), ("W1901A", "S1902M")]


@pytest.mark.parametrize("power", POWERS)
@pytest.mark.parametrize("phase,after", PHASES)
def test_no_power_reads_of_a_province_it_does_not_see(played, power, phase, after):
    svc, positions, notices = played
    hidden = unseen(positions[phase], positions[after], {power})
    assert mentions(report(svc, notices, phase, f"p-{power.lower()}"), hidden) == []


def test_the_dislodgement_as_each_side_saw_it(played):
    svc, _, notices = played
    italy = report(svc, notices, "F1901M", "p-italy")
    assert "The Italian army in Venice was dislodged by the attack from Tyrolia and may retreat to" in italy
    austria = report(svc, notices, "F1901M", "p-austria")
    assert (
        "Fleet Trieste supports Army Tyrolia -> Venice" in austria and "Italian army in Venice was dislodged" in austria
    )
    germany = report(svc, notices, "F1901M", "p-germany")
    assert "Venice" not in germany and "dislodged" not in germany
    master = report(svc, notices, "F1901M", "gm")
    assert "Venice" in master and "Fog of war" not in master


def test_the_retreat_and_the_builds_as_each_saw_them(played):
    svc, _, notices = played
    assert "Army Venice retreats -> Piedmont retreated" in report(svc, notices, "F1901R", "p-italy")
    france = report(svc, notices, "F1901R", "p-france")
    # the retreat from Venice is out of France's sight; the army where it ended, next to Marseilles, is not
    played_part = france.split("results of")[1].split("Where the units stand")[0]
    assert "Venice" not in france and "Italy" not in played_part and "Italy: army in Piedmont" in france
    assert "Build army Vienna built" in report(svc, notices, "W1901A", "gm")
    assert "Build army Vienna built" in report(svc, notices, "W1901A", "p-austria")
    germany = report(svc, notices, "W1901A", "p-germany")
    assert "Vienna" not in germany and "Austria 4" not in germany and "Germany 3 3" in germany


@pytest.mark.parametrize("powers", [{"FRANCE"}, {"ITALY"}, {"AUSTRIA", "GERMANY"}, set()])
@pytest.mark.parametrize("phase,after", PHASES[:3])
def test_each_picture_names_only_what_its_powers_see(played, powers, phase, after):
    svc, positions, _ = played
    svg = picture_of_phase(svc, "fog", phase, powers=frozenset(powers), svg=True)
    texts = [t.text or "" for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    hidden = unseen(positions[phase], positions[after], powers)
    assert mentions("\n".join(texts), hidden) == []
    assert {p.upper() for p in set(STANDARD.board.provinces) - hidden} <= set(texts)


def test_a_unit_sees_next_door_and_a_centre_its_own_province():
    start = starting_position(STANDARD)
    seen = fog.sight(STANDARD, start, {"ITALY"})
    assert {"ven", "rom", "nap", "tyr", "pie", "tus", "apu", "adr", "tys", "ion", "tri"} <= seen
    assert "mun" not in seen and "vie" not in seen
    bare = start.with_(units=tuple(u for u in start.units if u.power != "ITALY"))
    assert fog.sight(STANDARD, bare, {"ITALY"}) == {"ven", "rom", "nap"}


def test_who_reads_what():
    status = a_game_state({"FRANCE": "ann", "ITALY": "ann", "GERMANY": "bob"}, settings={"fog": True})
    assert fog.view_for(status, "ann") == {"FRANCE", "ITALY"}
    assert fog.view_for(status, "gm") is None                 # the master sees all
    assert fog.view_for(status, "watcher") == frozenset()    # observers and strangers: no board
    assert fog.view_for(status, None) == frozenset()         # the public copy
    assert fog.view_for(replace(status, status="finished"), "watcher") is None     # revealed at the end
    assert fog.view_for(replace(status, settings={"fog": False}), "watcher") is None


@pytest.mark.parametrize("fogged", [True, False])
def test_a_support_of_a_unit_out_of_sight_tells_nothing_of_it(tmp_path, fogged):
    """Tuscany is out of France's sight and empty: a fog game must not say so, to France or in its
    results (BLIND never tells a void order); without fog the judge says it plainly."""
    svc, _ = service(tmp_path)
    seven_player_game(svc, "tus", settings=Settings(fog=fogged))
    submit(svc, "tus", "FRANCE", "A MAR S A TUS - PIE", "A PAR H", "F BRE H")
    problems = " ".join(detail_words(STANDARD, p) for p in svc.confirmation("tus", "FRANCE").problems)
    assert ("Tuscany" in problems) is not fogged
    svc.process("tus")
    notice = next(n for n in svc.pending_notices("tus") if n.kind == "results" and n.recipient == "p-france")
    text = " ".join(render_notice(Reports(), svc, notice).body.split())
    assert "Army Marseilles supports Army Tuscany -> Piedmont" in text
    assert ("there is no unit in Tuscany" in text) is not fogged


@pytest.mark.parametrize("variant_id", ["ancmed", "youngstown", "france-austria"])
def test_fog_in_other_variants(tmp_path, variant_id):
    """The setting works with any variant: a year of random legal orders, and no power's results
    name a province it did not see."""
    variant = load_variant(variant_id)
    svc, _ = service(tmp_path)
    accounts(svc, [f"p-{p.lower()}" for p in variant.power_ids] + ["gm"])
    svc.create_game("g", variant=variant_id, master="gm", seed=3, settings={"fog": True})
    for p in variant.power_ids:
        with suppress(GameError):   # a power nobody plays in this variant (absent powers)
            svc.join("g", f"p-{p.lower()}", [p])
    rng = random.Random(5)
    checked = 0
    for _ in range(4):
        status = svc.status("g")
        if status.status != "active":
            break
        before = position_from_json(variant, status.position)
        for p in variant.power_ids:
            orders = random_orders(variant, before, p, rng)
            if orders and p in status.powers and status.powers[p].account:
                svc.submit_orders("g", p, [(str(o), o) for o in orders], account=f"p-{p.lower()}", source=None)
        svc.process("g")
        after = position_from_json(variant, svc.status("g").position)
        for n in svc.pending_notices("g"):
            if n.kind == "results" and n.payload["phase"] == status.phase and n.payload.get("powers"):
                hidden = unseen(before, after, set(n.payload["powers"]), variant)
                body = render_notice(Reports(), svc, n).body
                assert mentions(body, hidden, variant) == [], (n.recipient, body)
                checked += 1
    seated = sum(1 for info in svc.status("g").powers.values() if info.account)
    assert checked >= 2 * seated, checked         # two phases at least, every player's results read
