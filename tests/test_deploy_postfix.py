"""The whole real mail path: a player's mail goes into a private Postfix built from deploy/postfix/,
Postfix hands it over LMTP to a `judge serve` subprocess run with deploy/examples/judge.toml, and the
judge's mail goes out through the same Postfix to an SMTP sink standing in for the players' servers.
Postfix runs only as root: CI runs this as root; elsewhere it is skipped and says why."""
from __future__ import annotations

import json
import smtplib
import sqlite3
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.mail.outbound import outbox
from judge.mail.outbound.compose import build_message
from judge.storage.db import open_db

from servers.judge_process import JudgeServe
from servers.net import free_port, wait_until
from servers.postfix import OUTSIDE, remove, start_postfix, why_not
from servers.sink import Sink

# One worker runs this module under pytest-xdist (bin/test: --dist loadgroup): its Postfix, a module
# fixture, is costly to start, and each worker that ran some of its tests would start another.
pytestmark = [pytest.mark.skipif(why_not() is not None, reason=why_not() or ""),
              pytest.mark.xdist_group("deploy_postfix")]

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "examples" / "judge.toml"


class MailPath:
    def __init__(self, data: Path, postfix, sink: Sink, judge: JudgeServe):
        self.data, self.postfix, self.sink, self.judge = data, postfix, sink, judge

    @property
    def db(self) -> Path:
        return self.data / "judge.sqlite"

    def send(self, sender: str, to: list[str], subject: str, body: str, message_id: str) -> None:
        """A player's mail client submitting to the mail server."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, ", ".join(to), subject, message_id
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.postfix.port, timeout=60, source_address=OUTSIDE) as smtp:
            smtp.send_message(msg)

    def archived(self, message_id: str):
        with sqlite3.connect(self.db) as conn:
            return conn.execute("SELECT via, mail_from, rcpt_tos, raw FROM inbound WHERE message_id = ?",
                                [message_id]).fetchone()

    def at_sink(self, recipient: str):
        return [r for r in self.sink.received if recipient in r.rcpt_tos]

    def at_sink_with(self, message_id: str):
        """The copies of one message the sink got (the judge may also have replied to earlier mail)."""
        return [r for r in self.sink.received
                if message_from_bytes(r.raw, policy=policy.default)["Message-ID"] == message_id]

    def diagnose(self) -> str:
        return f"--- postfix log\n{self.postfix.log()[-3000:]}\n--- queue\n{self.postfix.queue()}"


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deploy-postfix")
    judge_port = free_port()
    with Sink() as sink:
        postfix = start_postfix(judge_lmtp=f"127.0.0.1:{judge_port}",
                                outbound_transport={"example.net": f"smtp:[127.0.0.1]:{sink.port}"})
        try:
            # The shipped example, with this test's data directory and ports.
            with JudgeServe(["--config", str(EXAMPLE), "--data", str(tmp / "var"), "--smtp-port", str(judge_port),
                             "--relay", f"127.0.0.1:{postfix.port}"]) as judge:
                yield MailPath(tmp / "var", postfix, sink, judge)
            assert judge.process.returncode == 0, judge.errors
        finally:
            remove(postfix)


def test_the_banner_shows_lmtp_behind_postfix(path):
    assert f"LMTP      127.0.0.1:{path.judge.port}" in path.judge.banner
    assert "mail to judge@example.org" in path.judge.banner
    assert f"the SMTP relay 127.0.0.1:{path.postfix.port}" in path.judge.banner


def test_a_players_mail_goes_through_postfix_into_the_judges_archive(path):
    path.send("france@example.net", ["judge+alpha@example.org"], "orders", "A PAR-BUR\nF BRE-MAO\n",
              "<orders-1@example.net>")
    path.send("england@example.net", ["judge@example.org"], "signon", "SIGNON Ealpha secret\n",
              "<signon-1@example.net>")
    path.send("italy@example.net", ["diplomacy@example.org"], "help", "HELP\n", "<alias-1@example.net>")
    wait_until(lambda: all(path.archived(m) for m in ("orders-1@example.net", "signon-1@example.net",
                                                      "alias-1@example.net")),
               what="three messages in the judge's archive:\n" + path.diagnose())

    via, mail_from, rcpts, raw = path.archived("orders-1@example.net")
    assert via == "lmtp" and mail_from == "france@example.net"
    assert json.loads(rcpts) == ["judge+alpha@example.org"]      # the game's address reaches the judge
    parsed = message_from_bytes(raw, policy=policy.default)
    assert "by mail.example.org (Postfix)" in str(parsed["Received"])
    assert "A PAR-BUR" in parsed.get_content()
    assert json.loads(path.archived("signon-1@example.net")[2]) == ["judge@example.org"]
    assert json.loads(path.archived("alias-1@example.net")[2]) == ["judge@example.org"]   # virtual alias


def test_a_mail_to_two_game_addresses_is_one_message_with_both(path):
    path.send("russia@example.net", ["judge+alpha@example.org", "judge+beta@example.org"], "orders",
              "A MOS-UKR\n", "<two-games@example.net>")
    wait_until(lambda: path.archived("two-games@example.net"), what="the message:\n" + path.diagnose())
    with sqlite3.connect(path.db) as conn:
        rows = conn.execute("SELECT rcpt_tos, state FROM inbound WHERE message_id = 'two-games@example.net'").fetchall()
    # One LMTP transaction with both recipients: not two copies, the second taken for a duplicate.
    [(rcpts, state)] = rows
    assert sorted(json.loads(rcpts)) == ["judge+alpha@example.org", "judge+beta@example.org"]
    assert state != "duplicate"


def test_addresses_nobody_has_are_refused_at_rcpt(path):
    with smtplib.SMTP("127.0.0.1", path.postfix.port, timeout=60, source_address=OUTSIDE) as smtp:
        smtp.ehlo("player.example.net")
        smtp.mail("spam@example.net")
        code, text = smtp.rcpt("nobody@example.org")
        assert code == 550 and b"User unknown" in text
        code, text = smtp.rcpt("someone@elsewhere.example")        # not an open relay
        assert code == 554 and b"Relay access denied" in text


def test_the_judges_mail_leaves_through_postfix(path):
    message = build_message(key="results:alpha:S1901M", sender="judge@example.org", to=["france@example.net"],
                            subject="alpha: Spring 1901 results", body="A PAR - BUR succeeds.\n",
                            domain="example.org")
    db = open_db(path.db)
    try:
        assert outbox.enqueue(db, message["Message-ID"], ["france@example.net"], bytes(message),
                              envelope_from="judge@example.org")
        mid = message["Message-ID"].strip("<>")
        wait_until(lambda: path.at_sink_with(message["Message-ID"]), what="the results at the player's server:\n"
                   + path.diagnose())
        state = wait_until(lambda: (s := outbox.status(db, mid)) and s["state"] == "sent" and s,
                           what="the outbox to record the message as sent")
    finally:
        db.conn.close()
    assert state["delivered_via"] == f"relay 127.0.0.1:{path.postfix.port}"
    [delivered] = path.at_sink_with(message["Message-ID"])
    assert delivered.rcpt_tos == ["france@example.net"] and delivered.mail_from == "judge@example.org"
    parsed = message_from_bytes(delivered.raw, policy=policy.default)
    assert parsed["Message-ID"] == message["Message-ID"]
    assert "by mail.example.org (Postfix)" in str(parsed["Received"])


def test_postmaster_mail_reaches_the_keeper(path):
    path.send("someone@example.net", ["postmaster@example.org"], "your server", "Hello.\n", "<pm-1@example.net>")
    wait_until(lambda: path.at_sink("keeper@example.net"), what="postmaster@ at the keeper:\n" + path.diagnose())


def test_help_through_postfix_gets_a_reply_through_postfix(path):
    assert "dispatch  not configured" not in path.judge.banner, "judge serve runs without a dispatcher"
    path.send("newcomer@example.net", ["judge@example.org"], "help", "HELP\n", "<help-1@example.net>")
    [reply] = wait_until(lambda: path.at_sink("newcomer@example.net"), what="the reply:\n" + path.diagnose())
    parsed = message_from_bytes(reply.raw, policy=policy.default)
    assert parsed["In-Reply-To"] == "<help-1@example.net>"
    assert parsed["Auto-Submitted"] == "auto-replied"
    assert "by mail.example.org (Postfix)" in str(parsed["Received"])
