"""Each step of the dispatcher's chain (judge/mail/commands/mail_steps.py) on its own: a real
dispatcher over files in tmp_path, a stored mail, and the step's answer and what it learnt."""
from __future__ import annotations

import pytest

from judge.mail.commands import mail_steps as steps
from judge.mail.intake.archive import Archive, StoredMessage
from judge.mail.screening.robot_mail import classify
from mailjudge import MailJudge, mail


@pytest.fixture
def judge(tmp_path):
    j = MailJudge(tmp_path)
    yield j
    j.close()


def in_hand(judge: MailJudge, raw: bytes, mail_from: str | None = "ann@dip.test") -> steps.InMail:
    """The mail stored as intake stores it, and in hand as the dispatcher holds it."""
    archive: Archive = judge.processor.archive
    archive.store(raw, mail_from=mail_from, rcpt_tos=["judge@dip.test"], via="smtp")
    message = archive.claim_next()
    assert message is not None
    return steps.InMail(message, classify(message.raw, message.mail_from), judge.service.judge)


def through(judge: MailJudge, mail_in: steps.InMail, last: steps.Step) -> steps.Stop | None:
    """Every step up to `last`, as the chain runs them; the first Stop, else None."""
    for step in steps.STEPS:
        stop = step(judge.dispatch, mail_in)
        if stop is not None or step is last:
            return stop
    raise AssertionError(f"{last.__name__} is not in the chain")


def test_the_chain_in_order():
    assert [s.__name__ for s in steps.STEPS] == [
        "repeat_if_finished", "take_from_another_host", "leave_robots_unanswered", "find_sender",
        "skip_a_copy_applied_before", "sign_on", "read_the_body", "forward_to_the_games_host",
        "carry_out_and_answer"]


def test_a_mail_finished_before_gets_the_same_outcome_unrecorded(judge):
    judge.send("ann@dip.test", "help")
    state, outcome = judge.processor.archive.state_of(1)
    assert state == "processed" and outcome
    message = judge.processor.archive.get(1)
    again = steps.InMail(message, classify(message.raw, message.mail_from), judge.service.judge)
    stop = steps.repeat_if_finished(judge.dispatch, again)
    assert stop is not None and not stop.record and stop.outcome == outcome


def test_a_robot_is_left_unanswered(judge):
    raw = mail("ann@dip.test", "help", headers={"Auto-Submitted": "auto-replied"})
    stop = through(judge, in_hand(judge, raw), steps.leave_robots_unanswered)
    assert stop is not None and stop.record and "Auto-Submitted" in stop.outcome


def test_a_person_goes_on_and_the_sender_is_found(judge):
    held = in_hand(judge, mail("Ann <ann@dip.test>", "help"))
    assert through(judge, held, steps.find_sender) is None
    assert held.sender == "ann@dip.test"


def test_a_mail_with_no_address_to_answer_ends_there(judge):
    raw = b"Subject: help\r\nMessage-ID: <x1@players.test>\r\n\r\nhelp\r\n"
    stop = through(judge, in_hand(judge, raw, mail_from=None), steps.find_sender)
    assert stop is not None and stop.outcome == "not answered: no address to answer"


def test_a_copy_applied_before_is_not_applied_again(judge):
    # no Message-ID: the copy is known by its sender and text, whatever headers it gained on the way
    raw = b"From: ann@dip.test\r\nTo: judge@dip.test\r\nSubject: orders\r\n\r\nregister ann ann-pw\r\n"
    judge.processor.archive.store(raw, mail_from="ann@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    judge.processor.process_next()
    copy = raw.replace(b"Subject: orders", b"Subject: [list] orders", 1)   # a list tagged the subject
    stop = through(judge, in_hand(judge, copy), steps.skip_a_copy_applied_before)
    assert stop is not None and "not applied again" in stop.outcome


def test_the_body_is_read_once_into_commands(judge):
    held = in_hand(judge, mail("ann@dip.test", "Hi judge,\nhelp\nlist\nThanks"))
    assert through(judge, held, steps.read_the_body) is None
    assert held.session is not None and held.parsed is not None
    assert len(held.parsed.items) == 2 and [i.text for i in held.parsed.ignored] == ["Hi judge,", "Thanks"]


def test_the_last_step_always_ends_the_mail(judge):
    held = in_hand(judge, mail("ann@dip.test", "help"))
    stop = through(judge, held, steps.carry_out_and_answer)
    assert stop is not None and stop.record and stop.outcome.startswith("answered ann@dip.test")


def test_the_raw_mail_is_parsed_once(judge, monkeypatch):
    calls = []
    parsed = StoredMessage.parsed
    monkeypatch.setattr(StoredMessage, "parsed", lambda self: calls.append(1) or parsed(self))
    judge.send("ann@dip.test", "help\nlist")
    assert calls == [1]
