"""Excused misses (judge.games.excuses) through the in-process mail judge: the master sets them by
mail; a player with an excuse left who misses a deadline is told personally and the deadline moves
once; with none left the phase is played as a normal miss; the master's early PROCESS spends none;
an anonymous game names no one to the others. SUMMARY shows the excuses spent."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.games.clock import parse_time

from mailjudge import HOLDS, POWERS, MailJudge, deliver, judge_with_master, start
from test_games_helpers import orders


@pytest.fixture
def j(tmp_path):
    yield from judge_with_master(tmp_path)


def all_but(j: MailJudge, missing: str) -> None:
    for p in POWERS:
        if p != missing:
            j.service.submit_orders("alpha", p, orders(HOLDS[p]), account=p.lower())


def deadline(j: MailJudge):
    return parse_time(j.service.status("alpha").deadline["utc"])


def past_grace(j: MailJudge) -> list:
    j.clock.set(deadline(j) + timedelta(hours=2))
    j.service.run_due()
    return deliver(j)


def to(mails: list, who: str) -> list:
    return [m for m in mails if m.to == [f"{who}@dip.test"]]


def test_the_master_sets_excuses_by_mail_and_a_miss_spends_one(j):
    start(j)
    reply = j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET EXCUSES 2\nSET EXCUSELENGTH 36")
    assert "ERROR" not in reply.body
    assert j.service.status("alpha").settings["excuses"] == 2
    assert j.service.status("alpha").settings["excuse_hours"] == 36
    all_but(j, "FRANCE")
    old = deadline(j)
    mails = past_grace(j)
    assert j.service.status("alpha").phase == "S1901M"           # not played
    assert deadline(j) == old + timedelta(hours=2 + 36)
    [mine] = [m for m in to(mails, "france") if "excuse" in m.subject]
    assert "one of your 2 excuses is spent" in mine.text and "You have 1 left." in mine.text
    assert "The deadline is now:" in mine.text
    assert [a.get_filename() for a in mine.mail.iter_attachments()] == ["alpha-deadline.ics"]
    [told] = to(mails, "germany")
    assert "the deadline for Spring 1901 Movement has moved" in told.text and "France was excused" in told.text
    assert [a.get_filename() for a in told.mail.iter_attachments()] == ["alpha-deadline.ics"]
    assert j.service.status("alpha").powers["FRANCE"].excuses_used == 1
    summary = j.reply_to("germany@dip.test", "SUMMARY alpha").text
    assert "excuses spent (of 2 each):" in summary and "France 1" in summary and "Germany 0" in summary
    # the phase is then played at the new deadline, with France's orders
    j.service.submit_orders("alpha", "FRANCE", orders("A PAR - BUR"), account="france")
    past_grace(j)
    assert j.service.status("alpha").phase == "F1901M"
    assert "A BUR" in j.service.status("alpha").position["units"]["FRANCE"]


def test_the_deadline_moves_once_a_phase(j):
    start(j, excuses=3, excuse_hours=12)
    all_but(j, "FRANCE")
    past_grace(j)
    assert j.service.status("alpha").phase == "S1901M"
    past_grace(j)                           # missed again: played, France in civil disorder
    status = j.service.status("alpha")
    assert status.phase == "F1901M" and status.powers["FRANCE"].status == "civil disorder"
    assert status.powers["FRANCE"].excuses_used == 1


def test_with_no_excuse_left_a_miss_is_a_normal_miss(j):
    start(j, excuses=1)
    all_but(j, "FRANCE")
    past_grace(j)                           # the one excuse
    j.service.submit_orders("alpha", "FRANCE", orders("A PAR H"), account="france")
    past_grace(j)
    assert j.service.status("alpha").phase == "F1901M"
    all_but(j, "FRANCE")
    mails = past_grace(j)
    status = j.service.status("alpha")
    assert status.phase != "F1901M" and status.powers["FRANCE"].status == "civil disorder"
    assert status.powers["FRANCE"].excuses_used == 1
    assert not [m for m in mails if "excuse" in m.text]


def test_an_early_process_spends_no_excuse(j):
    start(j, excuses=2)
    all_but(j, "FRANCE")
    j.clock.set(deadline(j) - timedelta(hours=1))
    reply = j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nPROCESS")
    assert "ERROR" not in reply.body
    status = j.service.status("alpha")
    assert status.phase == "F1901M" and status.powers["FRANCE"].excuses_used == 0
    assert not [m for m in deliver(j) if "excuse" in m.text]


def test_a_new_player_in_the_seat_gets_the_excuses_afresh(j):
    start(j, excuses=1)
    all_but(j, "FRANCE")
    past_grace(j)
    assert j.service.status("alpha").powers["FRANCE"].excuses_used == 1
    j.service.create_account("newcomer", "new@dip.test", "new-pw")
    j.service.replace("alpha", "FRANCE", "newcomer")
    assert j.service.status("alpha").powers["FRANCE"].excuses_used == 0


def test_off_by_default(j):
    start(j)
    all_but(j, "FRANCE")
    mails = past_grace(j)
    assert j.service.status("alpha").phase == "F1901M"
    assert not [m for m in mails if "excuse" in m.text]


def test_an_anonymous_game_names_no_one_to_the_others(j):
    start(j, excuses=1, anonymous=True)
    all_but(j, "FRANCE")
    mails = past_grace(j)
    [mine] = to(mails, "france")
    assert "one of your 1 excuse is spent" in mine.text and "not who missed it" in mine.text
    for p in POWERS:
        if p != "FRANCE":
            [told] = to(mails, p.lower())
            assert "a player was excused" in told.text and "France" not in told.text, told.text
    [master] = to(mails, "gm")
    assert "France was excused" in master.text
    summary = j.reply_to("germany@dip.test", "SUMMARY alpha").text
    assert "excuses spent (of 1 each): Germany 0 " in summary and "France 1" not in summary
    assert "excuses spent (of 1 each): France 1 " in j.reply_to("france@dip.test", "SUMMARY alpha").text
    assert "France 1, Germany 0" in j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSUMMARY alpha").text
