"""The Vassal map's owed orders by mail, in-process (tests/mailjudge.py): France makes Belgium its
vassal and takes Munich, retreats its army from Munich in the Spring and in Winter 1902 owes a removal while
Belgium's build is its player's to order too. Probed here: the master's STATUS, a reminder and a late
notice (France's, listing Belgium's build still owed), France's PREVIEW (Belgium's orders under
Belgium's name), and the spellings of a line naming a vassal (tests/data/variants/vassal_lines.json)."""
from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from judge.engine import load_variant
from judge.games.clock import parse_time
from judge.mail.words.confirm import not_yours
from judge.mail.outbound.courier import Courier

from mailjudge import MailJudge, deliver
from test_mail_variants import InProcess, address, password

GAME = "gowing"
LINES = json.loads((Path(__file__).parent / "data" / "variants" / "vassal_lines.json").read_text(encoding="utf-8"))


def flat(text: str) -> str:
    return " ".join(text.split())


def test_vassal_orders_owed_reminded_previewed_and_named(tmp_path):
    variant = load_variant("vassal")
    judge = MailJudge(tmp_path)
    judge.dispatch.courier = Courier(judge.service, judge.config)
    service, table = judge.service, InProcess(judge)
    try:
        table.send("gm@dip.test", f"REGISTER gm gm-Secret9\nCREATE {GAME} gm-Secret9 vassal PICTURES OFF")
        for power in (p.id for p in variant.powers if p.id not in variant.dummies):
            table.send(address(power), f"REGISTER {power.lower()} {password(power)}\n"
                                       f"JOIN {GAME} {password(power)} {power}")

        def send(power: str, *lines: str) -> str:
            signon = f"SIGNON {variant.power(power).letter}{GAME} {password(power)}"
            return flat(table.send(address(power), "\n".join([signon, *lines])))

        def master(*lines: str) -> str:
            return flat(table.send("gm@dip.test", "\n".join([f"SIGNON M{GAME} gm-Secret9", *lines])))

        send("GERMANY", "A Mun - Ruh", "A Ber - Sil")
        send("FRANCE", "A Par - Pic", "A Mar - Bur", "F Bre - Eng")
        master("PROCESS")
        send("FRANCE", "A Pic - Bel", "F Eng S A Pic - Bel", "A Bur - Mun")
        master("PROCESS")
        send("GERMANY", "Remove F Kie")
        send("FRANCE", "Build A Par")
        master("PROCESS")
        assert service.status(GAME).position["vassals"] == {"BELGIUM": "FRANCE"}
        send("GERMANY", "A Ruh - Mun", "A Sil S A Ruh - Mun")
        send("FRANCE", "A Bel - Pic")
        master("PROCESS")
        assert service.status(GAME).phase == "S1902R"
        send("FRANCE", "A Mun - Tyr")
        master("PROCESS")
        master("PROCESS")                    # Fall 1902: every unit holds
        status = service.status(GAME)     # France owes a removal, Belgium a build its player orders
        assert status.phase == "W1902A", status.phase
        assert status.powers["FRANCE"].owes and status.powers["BELGIUM"].owes

        told = master(f"LIST {GAME}")
        assert "Belgium" in told and "owes orders (by France's player)" in told, told

        # a reminder, then the late notice: France's own removal is missing, and Belgium's build is
        # listed as still owed, to France's player and to the master
        deadline = parse_time(service.status(GAME).deadline["utc"])
        judge.clock.set(deadline - timedelta(hours=3))
        assert service.wake(GAME) == "reminded"
        mails = deliver(judge)
        [reminder] = [m for m in mails if address("FRANCE") in m.to]
        assert "Still owed: the builds or removals of Belgium, France's vassal, which France's player orders" \
            in flat(reminder.body), reminder.body
        assert "\n\n\n" not in reminder.body.replace("\r", ""), reminder.body
        [germany] = [m for m in mails if address("GERMANY") in m.to]      # (its build owed): not France's vassal
        assert "Belgium" not in germany.body, germany.body
        [to_master] = [m for m in mails if "gm@dip.test" in m.to]
        assert "Still owed: the builds or removals of Belgium, France's vassal" in flat(to_master.body)
        judge.clock.set(deadline + timedelta(minutes=1))
        assert service.wake(GAME) == "late"
        mails = deliver(judge)
        [late] = [m for m in mails if address("FRANCE") in m.to]
        assert "no orders from France. You are late" in flat(late.body), late.body
        assert "Still owed: the builds or removals of Belgium" in flat(late.body), late.body
        [to_master] = [m for m in mails if "gm@dip.test" in m.to]
        assert "Late: France and Germany. Still owed: the builds or removals of Belgium" in flat(to_master.body)

        # France's PREVIEW shows the build it gave for Belgium under Belgium's name
        reply = send("FRANCE", "Belgium: Build F Bel", "PREVIEW")
        assert "Orders for Belgium in gowing: Build F Bel" in reply, reply
        assert "Belgium (France's vassal, ordered by France's player): Build fleet Belgium" in reply, reply

        for case in LINES["cases"]:
            reply = send("FRANCE", *case["lines"])
            for words in case["reply"]:
                assert words in reply, (case["name"], reply)
            for words in case.get("not", []):
                assert words not in reply, (case["name"], reply)
            assert "Traceback" not in reply and "Error:" not in reply, reply
        assert service.status(GAME).phase == "W1902A"
    finally:
        judge.close()


def test_a_line_for_another_powers_vassal_says_whose_it_is():
    """A line naming a small country that is another power's vassal, or nobody's, or another great
    power: the reply says which (judge.mail.words.confirm.not_yours), on the Vassal map and not
    elsewhere."""
    vassal, standard = load_variant("vassal"), load_variant("standard")
    assert not_yours(vassal, "g", "HOLLAND", "GERMANY") == \
        "Holland is Germany's vassal in g: only Germany's player orders it"
    assert not_yours(vassal, "g", "SPAIN", None) == \
        "Spain is played by nobody in g and is no power's vassal: the judge gives its orders"
    assert not_yours(vassal, "g", "GERMANY", None) == not_yours(standard, "g", "GERMANY", None) == \
        "you do not play Germany in g"
