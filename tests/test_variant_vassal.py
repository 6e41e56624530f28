"""The Vassal map (judge.engine.vassals: DPjudge's VASSAL_DUMMIES): the engine's cases
(tests/data/variants/vassals.json), what the importer reads of the rule, a power winning with its
vassals' centres, and a game by mail in-process (tests/mailjudge.py): the twelve small countries
built by the judge in the opening Winter, Belgium made France's vassal, and France's player ordering
Belgium's army in its own orders (the line naming the unit, or starting with Belgium's name)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.adjudicate_cli import adjudicate_request
from judge.engine import load_variant
from judge.engine.notation import position_from_json
from judge.engine.rules import FIFTH
from judge.games.ending import check_win
from judge.games.fog import sight
from judge.games.model import Settings
from judge.games.small import EACH, setup
from judge.language import OrderReader
from judge.mail.outbound.courier import Courier
from judge.variants.importer import import_map

from mailjudge import MailJudge, deliver
from test_mail_variants import InProcess, address, password

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "variants" / "vassals.json").read_text(encoding="utf-8"))["cases"]
GAME = "gvassal"


def _named(name: str):
    variant = load_variant(name)
    return variant, OrderReader(variant)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_vassals(case):
    """The phase that follows, the centres some powers own then, who is whose vassal, and the units
    dislodged or left."""
    response = adjudicate_request(json.loads(json.dumps(case["request"])), _named)
    assert "error" not in response, response
    played = response.get("phases", [response])
    got = {r["order"]: [r["result"], r.get("why")] for phase in played for rs in phase["results"].values() for r in rs}
    assert {order: got.get(order) for order in case.get("results", {})} == case.get("results", {})
    after = response["next"]
    assert after["phase"] == case["next_phase"]
    for power, centres in case["centres"].items():
        assert sorted(after["centres"][power]) == centres, power
    assert after.get("vassals", {}) == case["vassals"]
    for power, units in case.get("dislodged", {}).items():
        assert sorted(d["unit"] for d in after.get("dislodged", {}).get(power, [])) == units
    for power, units in case.get("units", {}).items():
        assert sorted(after["units"][power]) == units


def test_the_vassal_rule_brings_the_dummies_civil_disorder_and_builds():
    """DPjudge's VASSAL_DUMMIES brings CD_DUMMIES and CD_BUILDS with it; BUILD_ANY, minorpower's, is
    taken off again by vassal.map; Payola's PAY_DUMMIES is left out."""
    data, _, needs = import_map(DATA / "dpjudge-maps" / "vassal.map")
    assert data["hooks"] == ["win_by_count_only", "vassal_dummies", "cd_dummies", "cd_builds"]
    assert not [n for n in needs if "VASSAL" in n or "PAY_DUMMIES" in n]


def test_a_power_wins_with_its_vassals_centres():
    """Eighteen centres win: France's fourteen and its three vassals' four (DPjudge's TEAM_VICTORY)."""
    variant = load_variant("vassal")
    france = ["bre", "mar", "par", "lon", "lvp", "edi", "kie", "ber", "vie", "bud", "tri", "ven", "rom", "nap"]
    position = {"variant": "vassal", "phase": "W1905A",
                "centres": {"FRANCE": france, "BELGIUM": ["bel", "hol"], "SPAIN": ["spa"], "PORTUGAL": ["por"]}}
    seats = setup(EACH, variant)
    free = position_from_json(variant, position)
    assert check_win(variant, free, Settings(), seats, FIFTH, {}) is None
    ruled = position_from_json(variant, {**position, "vassals": {"BELGIUM": "FRANCE", "SPAIN": "FRANCE",
                                                                 "PORTUGAL": "FRANCE"}})
    ending = check_win(variant, ruled, Settings(), seats, FIFTH, {})
    assert ending is not None and ending.winners == ("FRANCE",)
    assert ending.counts["FRANCE"] == 18 and ending.counts["BELGIUM"] == 0


def test_vassal_played_by_mail_france_ordering_belgium(tmp_path):
    """In-process: the opening Winter played by the judge alone (the twelve small countries build,
    the great powers have nothing to build); France takes Belgium in the Fall and Belgium, keeping
    its centre, becomes France's vassal; Belgium's army, built again once France has left, is
    ordered in France's own mail (by the unit's place alone, and by a line naming Belgium), and a
    line for a small country not France's is refused; Belgium's build and retreat are France's to
    order, each Winter or retreat phase waiting for them, and the results say they were France's;
    Belgium's army taking Holland makes Holland France's vassal too, until Germany dislodges it
    (France retreating it to Belgium) and holds Holland."""
    variant = load_variant("vassal")
    judge = MailJudge(tmp_path)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    service, table = judge.service, InProcess(judge)
    players = [p.id for p in variant.powers if p.id not in variant.dummies]
    try:
        reply = " ".join(table.send("gm@dip.test", "REGISTER gm gm-Secret9\nHELP VARIANT Vassal\n"
                                                   f"CREATE {GAME} gm-Secret9 vassal PICTURES OFF").split())
        assert "7 players: Austria, England, France, Germany, Italy, Russia and Turkey." in reply
        assert "order its units in your own orders" in reply.lower() and "(Belgium: A Bel-Hol)" in reply
        assert "Played by nobody (the variant's rules give their orders): Belgium, " in reply
        for power in players:
            reply = table.send(address(power), f"REGISTER {power.lower()} {password(power)}\n"
                                               f"JOIN {GAME} {password(power)} {power}")
            assert f"joined {GAME}" in reply, reply
        status = service.status(GAME)
        assert status.phase == "S1901M"          # the Winter 1900 builds were the judge's
        assert status.position["units"]["BELGIUM"] == ["A BEL"] and status.position["units"]["SPAIN"] == ["A SPA"]

        def play(power: str, *lines: str) -> str:
            """The power's orders (the others' units hold), then the master's PROCESS."""
            signon = f"SIGNON {variant.power(power).letter}{GAME} {password(power)}"
            reply = table.send(address(power), "\n".join([signon, *lines]))
            table.send("gm@dip.test", f"SIGNON M{GAME} gm-Secret9\nPROCESS")
            return reply

        def france(*lines: str) -> str:
            return play("FRANCE", *lines)

        def results_to(power: str, phase: str, mails=None) -> list[str]:
            """The results of `phase` mailed to `power` so far, their spaces folded."""
            mails = [*table.seen, *deliver(judge)] if mails is None else mails
            return [" ".join(m.body.split()) for m in mails if address(power) in m.to and phase in m.body]

        france("A Par - Bur", "F Bre - Eng")
        france("A Bur - Bel", "F Eng S A Bur - Bel")
        status = service.status(GAME)
        assert status.phase == "S1902M" and status.position["vassals"] == {"BELGIUM": "FRANCE"}
        assert "BEL" in status.position["centres"]["BELGIUM"] and "A BEL" in status.position["units"]["FRANCE"]
        france("A Bel - Pic", "F Eng - Nth")
        france("A Pic H", "F Nth H")
        status = service.status(GAME)      # Belgium's build is France's to order: the Winter waits for it
        assert status.phase == "W1902A" and status.position["units"]["BELGIUM"] == []
        reply = " ".join(france("Build A Bel").split())
        assert "Orders for Belgium in gvassal: Build A Bel read as: Build army Belgium" in reply, reply
        assert "Belgium is France's vassal: you order its builds and removals, and the phase waits" in reply, reply
        status = service.status(GAME)
        assert status.phase == "S1903M" and status.position["units"]["BELGIUM"] == ["A BEL"]
        told = results_to("GERMANY", "Winter 1902")[-1]
        assert "Belgium (France's vassal, ordered by France's player): Build army Belgium built" in told, told
        assert "by the judge" not in told, told

        reply = " ".join(france("A Bel - Hol", "F Nth S A Bel - Hol", "A Hol H", "PREVIEW").split())
        # (PREVIEW: France's orders for Belgium played with its own, under Belgium's name)
        assert "Belgium (France's vassal, ordered by France's player): Army Belgium -> Holland" in reply, reply
        assert "Orders for Belgium in gvassal: A Bel - Hol read as: Army Belgium -> Holland" in reply, reply
        assert "Orders for France in gvassal: F Nth S A Bel - Hol" in reply, reply
        assert "Belgium is France's vassal: in a movement phase it is never waited for and its units without" \
               " orders hold" in reply, reply
        assert "ERROR on line 4: A Hol H the unit in Holland is Dutch: you can order only France's units" \
               " and its vassals'" in reply, reply
        status = service.status(GAME)
        assert status.phase == "F1903M" and status.position["units"]["BELGIUM"] == ["A HOL"]

        reply = " ".join(france("Belgium: A Hol H", "France: A Pic H").split())   # a line naming the vassal
        assert "Orders for Belgium in gvassal: A Hol H read as: Army Holland holds" in reply, reply
        status = service.status(GAME)       # Belgium's army in Holland makes Holland France's vassal too
        assert status.phase == "S1904M", status.phase
        assert status.position["vassals"] == {"BELGIUM": "FRANCE", "HOLLAND": "FRANCE"}
        assert "HOL" in status.position["centres"]["HOLLAND"] and "A PIC" in status.position["units"]["FRANCE"]
        results = results_to("GERMANY", "Fall 1903")
        assert results and "Belgium and Holland are vassals of France" in results[-1], results

        play("GERMANY", "A Mun - Ruh")       # Germany takes Holland from France: Belgium's army there
        play("GERMANY", "F Kie - Hol", "A Ruh S F Kie - Hol")     # dislodged: France orders its retreat
        status = service.status(GAME)
        assert status.phase == "F1904R" and status.position["dislodged"]["BELGIUM"][0]["unit"] == "A HOL"
        reply = " ".join(france("A Hol - Bel", "PREVIEW").split())
        assert "Belgium (France's vassal, ordered by France's player): Army Holland retreats -> Belgium" in reply, reply
        assert "Orders for Belgium in gvassal: A Hol - Bel read as: Army Holland retreats -> Belgium" in reply, reply
        status = service.status(GAME)
        assert status.phase == "S1905M" and status.position["units"]["BELGIUM"] == ["A BEL"]
        told = results_to("GERMANY", "Fall 1904 Retreat")[-1]
        assert "Belgium (France's vassal, ordered by France's player): Army Holland retreats -> Belgium" \
               " retreated" in told, told
        assert status.position["vassals"] == {"BELGIUM": "FRANCE", "HOLLAND": "GERMANY"}
        assert "HOL" in status.position["centres"]["HOLLAND"]
        told = results_to("FRANCE", "Fall 1904")[-1]
        assert "Belgium is a vassal of France" in told and "Holland is a vassal of Germany" in told, told

        # Belgium's army dislodged again, and France sends no retreat: the phase waits for France's
        # player, who is never late for it; past the deadline the judge disbands the army
        play("GERMANY", "A Ruh - Bel", "F Hol S A Ruh - Bel")
        status = service.status(GAME)
        assert status.phase == "S1905R" and status.position["dislodged"]["BELGIUM"][0]["retreats"] == ["BUR"]
        assert service.wake(GAME) == "nothing"
        judge.clock.advance(days=7)
        assert service.wake(GAME) == "processed"
        status = service.status(GAME)
        assert status.phase == "F1905M" and status.position["units"]["BELGIUM"] == []
        told = results_to("FRANCE", "Spring 1905 Retreat", deliver(judge))[-1]
        assert "Belgium (France's vassal, ordered by France's player): Army Belgium disbands (by the judge) disbanded" \
            in told, told
        assert "civil disorder" not in told and "open for takeover" not in told, told
    finally:
        judge.close()


def test_under_fog_a_power_sees_with_its_vassals():
    """Fog of war (judge.games.fog): France sees round Belgium's army in Holland once Belgium is its
    vassal, and not before."""
    variant = load_variant("vassal")
    position = {"variant": "vassal", "phase": "S1903M", "units": {"FRANCE": ["A par"], "BELGIUM": ["A hol"]},
                "centres": {"FRANCE": ["par", "bre", "mar"], "BELGIUM": ["bel"]}}
    free = sight(variant, position_from_json(variant, position), ["FRANCE"])
    ruled = sight(variant, position_from_json(variant, {**position, "vassals": {"BELGIUM": "FRANCE"}}), ["FRANCE"])
    assert "kie" not in free and "bel" not in free
    assert {"hol", "kie", "hel", "ruh", "bel"} <= ruled
