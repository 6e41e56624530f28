"""What one order mail costs (issue 27): every SQL statement the daemon's Processor and the real Dispatch
run on any connection while handling it (sqlite3's trace callback, as bench/dispatch_io.py counts
them), and every adjudication the games layer asks of the engine (check_orders, and process_phase,
wherever the games modules call them: counted there, so that the count holds with the compiled engine,
whose modules call each other directly). A 4-order mail to the player's secret reply address
runs at most 60 statements and at most 2 adjudications; the scheduler waking a game that has not
changed since it was last checked adjudicates nothing. Counted, never timed."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from judge.games import export, gamefile, hidden_builds, processing
from mailjudge import MailJudge, mail

MOST_STATEMENTS = 60
MOST_ADJUDICATIONS = 2

ORDERS = ["A War - Ukr\nA Mos - StP\nF Sev - Bla\nF StP/sc - Bot",      # Russia's four units
          "A War H\nA Mos S A War\nF Sev H\nF StP/sc H",
          "A War - Gal\nA Mos - Sev\nF Sev - Rum\nF StP/sc - Fin"]


class Counted:
    """Statements on every connection opened from now on, and the engine's adjudications."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[str] = []
        self.adjudications = 0
        connect = sqlite3.connect

        def traced_connect(database, *args, **kwargs):
            conn = connect(database, *args, **kwargs)
            conn.set_trace_callback(self.statements.append)
            return conn

        def counting(engine_call):
            def counted(*args, **kwargs):
                self.adjudications += 1
                return engine_call(*args, **kwargs)
            return counted
        monkeypatch.setattr(sqlite3, "connect", traced_connect)
        for module, name in ((gamefile, "check_orders"), (hidden_builds, "check_orders"),
                             (processing, "process_phase"), (export, "process_phase")):
            monkeypatch.setattr(module, name, counting(getattr(module, name)))

    def mark(self) -> tuple[int, int]:
        return len(self.statements), self.adjudications


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    counter = Counted(monkeypatch)
    judge = MailJudge(tmp_path)
    judge.seven_players()
    signed = judge.reply_to("russia@dip.test", "signon Ralpha russia-pw")
    yield counter, judge, str(signed.mail["Reply-To"])
    judge.close()


def test_an_order_mail_runs_few_statements_and_adjudicates_at_most_twice(counted) -> None:
    counter, judge, secret = counted
    for body in ORDERS:
        before = judge.last_outbox_row()
        judge.processor.archive.store(mail("russia@dip.test", body, to=secret), mail_from="russia@dip.test",
                                      rcpt_tos=[secret], via="smtp")
        statements, adjudications = counter.mark()
        judge.processor.process_next()      # the daemon's whole work on it: claim, dispatch, record
        ran = counter.statements[statements:]
        ran_adjudications = counter.adjudications - adjudications
        (reply,) = judge.outbox(after=before)
        assert "Russia is in" in reply.text, reply.text      # its four orders stood, each valid
        assert len(ran) <= MOST_STATEMENTS, "\n".join(ran)
        assert ran_adjudications <= MOST_ADJUDICATIONS


def test_waking_a_game_that_did_not_change_adjudicates_nothing(counted) -> None:
    counter, judge, secret = counted
    judge.reply_to("russia@dip.test", ORDERS[0], to=secret)
    _, before = counter.mark()
    for _ in range(3):          # the scheduler's look at the game (reminders due, everyone in?)
        assert judge.service.wake("alpha") == "nothing"
    assert counter.adjudications == before
    judge.reply_to("russia@dip.test", ORDERS[1], to=secret)    # a change: checked again, once
    _, changed = counter.mark()
    assert 1 <= changed - before <= MOST_ADJUDICATIONS
    judge.service.wake("alpha")
    assert counter.adjudications == changed
