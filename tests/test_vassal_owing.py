"""The Vassal map's owed orders by mail, in-process (tests/mailjudge.py): France makes Belgium its
vassal and takes Munich, retreats its army from Munich in the Spring and in Winter 1902 owes a removal while
Belgium's build is its player's to order too. Probed here: the master's STATUS, a reminder and a late
notice (France's, listing Belgium's build still owed; and France's when Belgium's build is all that is
missing), France's PREVIEW (Belgium's orders under Belgium's name), and the spellings of a line naming
a vassal (tests/data/variants/vassal_lines.json)."""
from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

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


class Winter1902:
    """The game in Winter 1902: France owes a removal, Belgium (its vassal) a build France's player
    orders, Germany a build; `send` signs on as a power, `master` as the game master."""

    def __init__(self, tmp_path: Path) -> None:
        self.variant = load_variant("vassal")
        self.judge = MailJudge(tmp_path)
        self.judge.dispatch.courier = Courier(self.judge.service, self.judge.config)
        self.service, self.table = self.judge.service, InProcess(self.judge)

    def play(self) -> None:
        self.table.send("gm@dip.test", f"REGISTER gm gm-Secret9\nCREATE {GAME} gm-Secret9 vassal PICTURES OFF")
        for power in (p.id for p in self.variant.powers if p.id not in self.variant.dummies):
            self.table.send(address(power), f"REGISTER {power.lower()} {password(power)}\n"
                                            f"JOIN {GAME} {password(power)} {power}")
        self.send("GERMANY", "A Mun - Ruh", "A Ber - Sil")
        self.send("FRANCE", "A Par - Pic", "A Mar - Bur", "F Bre - Eng")
        self.master("PROCESS")
        self.send("FRANCE", "A Pic - Bel", "F Eng S A Pic - Bel", "A Bur - Mun")
        self.master("PROCESS")
        self.send("GERMANY", "Remove F Kie")
        self.send("FRANCE", "Build A Par")
        self.master("PROCESS")
        assert self.service.status(GAME).position["vassals"] == {"BELGIUM": "FRANCE"}
        self.send("GERMANY", "A Ruh - Mun", "A Sil S A Ruh - Mun")
        self.send("FRANCE", "A Bel - Pic")
        self.master("PROCESS")
        assert self.service.status(GAME).phase == "S1902R"
        self.send("FRANCE", "A Mun - Tyr")
        self.master("PROCESS")
        self.master("PROCESS")                    # Fall 1902: every unit holds
        status = self.service.status(GAME)     # France owes a removal, Belgium a build its player orders
        assert status.phase == "W1902A", status.phase
        assert status.powers["FRANCE"].owes and status.powers["BELGIUM"].owes

    def send(self, power: str, *lines: str) -> str:
        signon = f"SIGNON {self.variant.power(power).letter}{GAME} {password(power)}"
        return flat(self.table.send(address(power), "\n".join([signon, *lines])))

    def master(self, *lines: str) -> str:
        return flat(self.table.send("gm@dip.test", "\n".join([f"SIGNON M{GAME} gm-Secret9", *lines])))


@pytest.fixture
def winter(tmp_path):
    game = Winter1902(tmp_path)
    try:
        game.play()
        yield game
    finally:
        game.judge.close()


def test_vassal_orders_owed_reminded_previewed_and_named(winter):
    judge, service, send, master = winter.judge, winter.service, winter.send, winter.master
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



def test_an_overlord_whose_vassal_alone_owes_is_reminded_and_told_at_the_deadline(winter):
    """France sends its own removal and Germany its build: only Belgium's build, France's player's to
    order, is missing. France's player still gets the reminder and the late notice, naming Belgium's
    build (not calling France late), and so does the master; Germany, in, gets neither."""
    judge, service, send = winter.judge, winter.service, winter.send
    assert "France is in" in send("FRANCE", "Remove A Tyr")
    assert "Germany is in" in send("GERMANY", "Waive")
    deliver(judge)
    deadline = parse_time(service.status(GAME).deadline["utc"])
    judge.clock.set(deadline - timedelta(hours=3))
    assert service.wake(GAME) == "reminded"
    mails = deliver(judge)
    assert not [m for m in mails if address("GERMANY") in m.to]
    [reminder] = [m for m in mails if address("FRANCE") in m.to]
    body = flat(reminder.body)
    assert "the judge has no orders yet for Belgium, your vassal, for Winter 1902" in body, body
    assert "Still owed: the builds or removals of Belgium, France's vassal, which France's player orders" in body
    assert 'Send them by answering this mail, each after its name and a colon ("Belgium: ...")' in body, body
    assert "Powers still owing orders" not in body and "\n\n\n" not in reminder.body.replace("\r", "")
    [to_master] = [m for m in mails if "gm@dip.test" in m.to]
    assert "still no orders for Winter 1902 Adjustment for Belgium" in flat(to_master.body), to_master.body

    judge.clock.set(deadline + timedelta(minutes=1))
    assert service.wake(GAME) == "late"
    mails = deliver(judge)
    assert not [m for m in mails if address("GERMANY") in m.to]
    [late] = [m for m in mails if address("FRANCE") in m.to]
    body = flat(late.body)
    assert late.subject.endswith("late for Winter 1902 Adjustment: Belgium"), late.subject
    assert "has passed and the judge has no orders for Belgium, your vassal" in body, body
    assert "You are late" not in body and "Late:" not in body and "\n\n\n" not in late.body.replace("\r", "")
    assert "Still owed: the builds or removals of Belgium" in body, body
    [to_master] = [m for m in mails if "gm@dip.test" in m.to]
    assert "has passed without orders from Belgium" in flat(to_master.body), to_master.body
    assert service.status(GAME).powers["FRANCE"].status != "late"

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
