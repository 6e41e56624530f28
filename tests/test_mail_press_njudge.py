"""Press as njudge had it, by mail on one in-process judge (a game of its own per test): observers'
press (SET OBSERVERS, njudge's SET OBSERVER) and their reading all of it (SET WATCHPRESS, njudge's
WATCH ALL PRESS), faked recipients (SET FAKE; njudge's PRESS ... FAKE ...: the master sees the truth),
no press from a power late with its orders (SET LATEPRESS) or one whose orders are not in (SET
MUSTORDER), and diaries (DIARY RECORD ... ENDDIARY, LIST, READ, DELETE), shown to all at the end unless
SET DIARIES NEVER. njudge's fake-press syntax is read by the cases of tests/data/language/fake_press.json."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from judge.games.model import Settings
from judge.language.commands import CommandError, CommandReader, Press
from judge.mail.outbound.courier import Courier
from mailjudge import POWERS, MailJudge, Sent

FAKES = json.loads((Path(__file__).parent / "data" / "language" / "fake_press.json").read_text())["cases"]
_games = itertools.count(1)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    j = MailJudge(tmp_path_factory.mktemp("press_njudge"))
    j.dispatch.courier = Courier(j.service, j.config)     # notices go out after each mail, as in serve
    j.service.create_account("gm", "gm@dip.test", "gm-pw")
    yield j
    j.close()


def game(judge: MailJudge, **settings) -> str:
    """A new game under way, mastered by gm; each power's player is `<power initial><game>` (password pw)."""
    name = f"n{next(_games)}"
    judge.service.create_game(name, master="gm", settings=Settings(pictures=False, **settings))
    for p in POWERS:
        account = f"{p[0].lower()}{name}"
        judge.service.create_account(account, f"{account}@dip.test", "pw")
        judge.service.join(name, account, [p])
    judge.service.create_account(f"o{name}", f"o{name}@dip.test", "pw")      # an observer, once it OBSERVEs
    judge.send("gm@dip.test", "HELP")          # the start's mail goes out with the next mail's courier
    return name


def said(text: str) -> str:
    return " ".join(text.split())


def mail_as(judge: MailJudge, who: str, name: str, body: str) -> tuple[str, list[Sent]]:
    """`who`: a power's initial, M for the master, O for the observer. The reply's words, and the rest sent."""
    sender = "gm" if who == "M" else f"{who.lower()}{name}"
    first = f"OBSERVE {name} pw" if who == "O" else f"SIGNON {who}{name} {'gm-pw' if who == 'M' else 'pw'}"
    sent = judge.send(f"{sender}@dip.test", f"{first}\n{body}")
    [reply] = [s for s in sent if s.to == [f"{sender}@dip.test"] and s.subject.startswith("Re: ")]
    return said(reply.body), [s for s in sent if s is not reply]


def readers(sent: list[Sent], words: str) -> dict[str, str]:
    """Who got a mail holding `words`, by address's account, and that mail's words."""
    return {s.to[0].split("@")[0]: said(s.body) for s in sent if words in s.body}


@pytest.fixture(scope="module")
def reader():
    return CommandReader()      # its tables built once


@pytest.mark.parametrize("case", FAKES, ids=[c["line"] for c in FAKES])
def test_njudges_fake_press_is_read_as_written(reader, case):
    read = reader.parse(case["line"])
    if "error" in case:
        assert isinstance(read, CommandError) and case["error"] in read.problem, read
        return
    assert isinstance(read, Press), read
    assert (None if read.broadcast else list(read.recipients)) == case["to"]
    assert (list(read.fake_to) if read.fake else None) == case["fake"]
    assert read.grey == case.get("grey", False)


def test_observers_send_no_press_unless_the_master_allows_it_and_always_read_broadcasts(judge):
    g = game(judge)
    text, sent = mail_as(judge, "O", g, "BROADCAST\nHello from the gallery\nENDPRESS")
    assert f"{g} has no press from observers: only the game master can be written to (PRESS TO MASTER);" \
           " the master may allow it with SET OBSERVERS WHITE; the press was not sent" in text, text
    assert readers(sent, "gallery") == {}
    text, sent = mail_as(judge, "O", g, "PRESS TO MASTER\nMay I speak?\nENDPRESS")
    assert "press sent to the master" in text and list(readers(sent, "May I speak?")) == ["gm"]
    text, sent = mail_as(judge, "F", g, "BROADCAST\nFrance greets all\nENDPRESS")
    assert f"o{g}" in readers(sent, "France greets all"), "observers read the broadcasts"
    text, sent = mail_as(judge, "F", g, "PRESS TO G\nJust for Berlin\nENDPRESS")
    assert sorted(readers(sent, "Just for Berlin")) == ["gm", f"g{g}"]

    text, _ = mail_as(judge, "M", g, "SET OBSERVER ANY PRESS")        # njudge's words, read as this judge's
    assert f"OBSERVERS of {g}: any (was none)" in text, text
    text, sent = mail_as(judge, "O", g, "BROADCAST\nHello from the gallery\nENDPRESS")
    assert "press sent to everyone" in text, text
    got = readers(sent, "gallery")
    assert set(got) == {"gm", f"o{g}", *(f"{p[0].lower()}{g}" for p in POWERS)}, got
    assert f"a broadcast to every power from o{g} (an observer)" in got[f"e{g}"], got


def test_observers_may_be_held_to_signed_press_and_may_read_all_press(judge):
    g = game(judge, press="grey")
    mail_as(judge, "M", g, "SET OBSERVERS WHITE\nSET WATCH ALLPRESS")
    text, sent = mail_as(judge, "O", g, "PRESS GREY TO E\nGuess who\nENDPRESS")
    assert "takes signed press only from observers: messages are signed; the press was not sent" in text, text
    text, sent = mail_as(judge, "O", g, "PRESS TO E\nIt is me\nENDPRESS")
    assert "press sent to England" in text and "press from o" in readers(sent, "It is me")[f"e{g}"]
    text, sent = mail_as(judge, "F", g, "PRESS GREY TO G\nA secret pact\nENDPRESS")
    got = readers(sent, "A secret pact")
    assert set(got) == {"gm", f"g{g}", f"o{g}"}, got
    assert "As an observer of this game you read all its press" in got[f"o{g}"]
    assert "press from anonymous to Germany" in got[f"o{g}"] and "France" not in got[f"o{g}"].split("-----")[0]


def test_fake_press_shows_other_recipients_and_the_master_the_truth(judge):
    g = game(judge, press="grey")
    text, sent = mail_as(judge, "I", g, "PRESS TO ALL BUT G FAKE BROADCAST\nGermany here: you are all wimps\n"
                                       "ENDPRESS")
    assert "has no fake press: its readers are shown the true recipients (the master may allow fakes with SET" \
           " FAKE ON); the press was not sent" in text, text
    text, _ = mail_as(judge, "M", g, "SET PARTIAL MAY BE FAKED")
    assert "read `SET PARTIAL MAY BE FAKED` as `SET FAKE ON`" in text and f"FAKE of {g}: on" in text, text
    text, sent = mail_as(judge, "I", g, "PRESS GREY TO ALL BUT G FAKE BROADCAST\nGermany here: you are all wimps"
                                       "\nENDPRESS")
    assert "grey press sent to Austria, England, France, Russia, Turkey, the master (not Germany), shown to its" \
           " readers as a broadcast" in text, text
    got = readers(sent, "wimps")
    assert f"g{g}" not in got and "a broadcast to every power from anonymous" in got[f"e{g}"], got
    assert "press from Italy to Austria, England, France, Russia, Turkey and the game master" in got["gm"]
    assert "It was faked: its readers are shown it as a broadcast to every power" in got["gm"], got["gm"]

    text, sent = mail_as(judge, "I", g, "PRESS GREY TO R FAKE TO A\nAustria here: let us go for Germany\nENDPRESS")
    got = readers(sent, "let us go for Germany")
    assert set(got) == {"gm", f"r{g}"} and "press from anonymous to Austria." in got[f"r{g}"], got
    assert "It was faked: its readers are shown it as press to Austria" in got["gm"], got["gm"]
    text, _ = mail_as(judge, "I", g, "PRESS TO M FAKE BROADCAST\nHi\nENDPRESS")
    assert "press to the game master is never faked: write it without FAKE" in text, text

    mail_as(judge, "M", g, "SET PARTIAL FAKES BROADCAST")         # every press between players: a broadcast
    text, sent = mail_as(judge, "I", g, "PRESS TO R\nAn open secret\nENDPRESS")
    assert "a broadcast to every power from Italy" in readers(sent, "An open secret")[f"r{g}"]


def test_a_late_power_sends_no_press_once_the_game_says_so_until_its_orders_are_in(judge):
    g = game(judge)
    text, _ = mail_as(judge, "M", g, "SET NO LATE PRESS")
    assert "read `SET NO LATE PRESS` as `SET LATEPRESS OFF`" in text and f"LATEPRESS of {g}: off" in text, text
    text, _ = mail_as(judge, "F", g, "PRESS TO E\nBefore the deadline\nENDPRESS")
    assert "press sent to England" in text, "not late yet"
    judge.clock.advance(hours=49)           # past the deadline, in grace: France owes its orders
    judge.service.wake(g)
    text, _ = mail_as(judge, "F", g, "PRESS TO E\nSorry, late\nENDPRESS")
    assert f"France is late with its orders for S1901M, and {g} takes no press from a late power: send your" \
           " orders first, then the press (the game master can still be written to); the press was not sent" \
           in text, text
    text, _ = mail_as(judge, "F", g, "PRESS TO M\nI am late, sorry\nENDPRESS")
    assert "press sent to the master" in text, text
    text, _ = mail_as(judge, "F", g, "A PAR H\nA MAR H\nF BRE H\nPRESS TO E\nSorry, late\nENDPRESS")
    assert "press sent to England" in text, text


def test_must_order_takes_press_only_from_a_power_whose_orders_are_in(judge):
    g = game(judge)
    text, _ = mail_as(judge, "M", g, "SET MUST ORDER")
    assert f"MUSTORDER of {g}: on" in text, text
    text, _ = mail_as(judge, "E", g, "F LON H\nPRESS TO F\nHalf my orders\nENDPRESS")
    assert "takes press only from a power whose orders are in, and England's for S1901M are not: send your" \
           " orders first, then the press" in text, text
    text, _ = mail_as(judge, "E", g, "F EDI H\nA LVP H\nPRESS TO F\nAll my orders\nENDPRESS")
    assert "press sent to France" in text, text


def test_a_diary_is_its_writers_alone_until_the_game_ends_then_shown_to_all(judge):
    g = game(judge)
    text, sent = mail_as(judge, "F", g, "DIARY RECORD\nI will stab England in 1903.\nENDDIARY\n"
                                       "DIARY\nOr maybe Germany.\nENDPRESS\nDIARY RECORD\nA third\nENDDIARY")
    assert f"diary entry 1 kept for France in {g}: nobody else reads it until the game ends" in text, text
    assert "diary entry 2 kept" in text and "diary entry 3 kept" in text, text
    assert readers(sent, "stab England") == {}
    text, _ = mail_as(judge, "F", g, "DIARY DELETE 2\nDIARY LIST\nDIARY READ 1\nDIARY READ 2")
    assert "diary entry 2 of France in " + g + " deleted (its number is not used again)" in text, text
    assert "your diary for France in" in text and "entry 1, written 20" in text and "entry 3" in text
    assert "| I will stab England in 1903." in text and f"you have no diary entry 2 in {g}" in text, text
    text, _ = mail_as(judge, "E", g, "DIARY LIST\nDIARY READ 1")
    assert f"you have no diary entries for England in {g}" in text and "stab" not in text, text
    text, _ = mail_as(judge, "M", g, "DIARY LIST")
    assert "stab" not in text and "you play no power" in text, text

    text, sent = mail_as(judge, "M", g, "TERMINATE")
    [shown] = [s for s in sent if s.to == [f"e{g}@dip.test"] and "diaries" in s.subject]
    assert "France (f" + g + "), entry 1" in said(shown.body) and "I will stab England in 1903." in shown.body
    assert "Or maybe Germany" not in shown.body and "A third" in shown.body
    assert {s.to[0].split("@")[0] for s in sent if "diaries" in s.subject} >= {"gm", f"e{g}", f"f{g}"}
    text, _ = mail_as(judge, "E", g, "DIARY LIST")
    assert f"the diaries of {g}, shown to all now that it is over:" in text and "| A third" in text, text


def test_diaries_kept_private_are_never_shown(judge):
    g = game(judge)
    text, _ = mail_as(judge, "M", g, "SET DIARIES PRIVATE")
    assert f"DIARIES of {g}: never (was end)" in text, text
    text, _ = mail_as(judge, "F", g, "DIARY RECORD\nNobody will ever know.\nENDDIARY")
    assert "nobody else reads it, even after the end" in text, text
    text, sent = mail_as(judge, "M", g, "TERMINATE")
    assert readers(sent, "Nobody will ever know") == {}
    text, _ = mail_as(judge, "E", g, "DIARY LIST")
    assert f"{g} keeps its diaries private, even after the end" in text, text


def test_a_diary_without_its_end_is_not_kept_and_a_wrong_word_says_how(judge):
    g = game(judge)
    text, _ = mail_as(judge, "F", g, "DIARY RECORD\nno end")
    assert "diary without ENDDIARY: nothing was kept" in text, text
    text, _ = mail_as(judge, "F", g, "DIARY DELETE 99999999999999999999999\nDIARY READ -1")
    assert text.count("DIARY DELETE needs the entry's number") == 1 and "DIARY READ needs" in text, text
    text, _ = mail_as(judge, "F", g, "DIARY SHOW 1\nDIARY READ")
    assert "DIARY is followed by RECORD, LIST, READ number or DELETE number" in text, text
    assert "DIARY READ needs the entry's number (DIARY LIST shows them)" in text, text


def test_help_press_tells_each_of_them_and_help_diary_finds_it(judge):
    text = said(judge.reply_to("gm@dip.test", "HELP DIARY").body)
    for told in ("SET OBSERVERS WHITE or ANY", "SET WATCHPRESS ON", "PRESS GREY TO ALL BUT G FAKE BROADCAST",
                 "SET FAKE BROADCAST", "SET LATEPRESS OFF", "SET MUSTORDER ON", "DIARY READ 2", "SET DIARIES NEVER"):
        assert told in text, told
    text = said(judge.reply_to("gm@dip.test", "HELP SETTINGS").body)
    for setting in ("SET OBSERVERS white", "SET WATCHPRESS on", "SET FAKE on", "SET LATEPRESS off",
                    "SET MUSTORDER on", "SET DIARIES never"):
        assert setting in text, setting
