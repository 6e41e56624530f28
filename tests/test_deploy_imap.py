"""IMAP mode for a keeper with only a provider mailbox: `judge serve` with deploy/examples/imap.toml reads
a real dovecot mailbox and sends through a relay (a sink standing in for the provider's submission
server); `judge doctor` with the same configuration finds the mailbox."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from judge.mail.outbound import outbox
from judge.mail.outbound.compose import build_message
from judge.storage.db import open_db

from servers.dovecot import dovecot_binary, remove, start_dovecot
from servers.judge_process import JudgeServe, judge_env, run_judge
from servers.net import wait_until
from servers.sink import Sink

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "examples" / "imap.toml"

pytestmark = pytest.mark.skipif(dovecot_binary() is None,
                                reason="dovecot is not installed (bin/setup installs it with apt as root)")


def settings(tmp_path, server, sink) -> dict[str, str]:
    """The example's settings for this machine: the test's dovecot and sink, without TLS (loopback)."""
    return judge_env(JUDGE_CONFIG=str(EXAMPLE), JUDGE_DATA_DIR=str(tmp_path / "var"), JUDGE_SMTP_PORT="0",
                     JUDGE_IMAP_HOST=server.host, JUDGE_IMAP_PORT=str(server.port), JUDGE_IMAP_SSL="no",
                     JUDGE_IMAP_USER="judge", JUDGE_IMAP_PASSWORD=server.password,
                     JUDGE_RELAY_HOST="127.0.0.1", JUDGE_RELAY_PORT=str(sink.port), JUDGE_RELAY_STARTTLS="no",
                     JUDGE_RELAY_USER="", JUDGE_OUTBOX_POLL_SECONDS="0.1")


def archived(db: Path):
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT via, message_id, state FROM inbound ORDER BY id").fetchall()


def test_judge_serve_reads_a_provider_mailbox_and_sends_through_the_providers_relay(tmp_path):
    server = start_dovecot()
    try:
        with Sink() as sink:
            env = settings(tmp_path, server, sink)
            with JudgeServe([], env=env) as judge:
                assert f"IMAP      judge@{server.host}:{server.port} INBOX" in judge.banner
                assert f"the SMTP relay 127.0.0.1:{sink.port}" in judge.banner
                # The provider delivers a player's mail into the mailbox.
                server.doveadm("save", "-u", "judge", "-m", "INBOX", input=(
                    b"From: russia@example.net\r\nTo: diplomacy.judge@mail.example.com\r\nSubject: orders\r\n"
                    b"Message-ID: <imap-1@example.net>\r\n\r\nA MOS-UKR\r\n"))
                db = tmp_path / "var" / "judge.sqlite"
                wait_until(lambda: archived(db) == [("imap", "imap-1@example.net", "processed")],
                           what="the mailbox's message in the archive")
                # \Seen is set after the store commits, so it may trail the processing a little.
                wait_until(lambda: server.doveadm("search", "-u", "judge", "mailbox", "INBOX", "SEEN").stdout.strip(),
                           what="the message marked \\Seen after it was stored")

                # The judge's mail goes out through the provider's submission server.
                message = build_message(key="imap-reply", sender="diplomacy.judge@mail.example.com",
                                        to=["russia@example.net"], subject="orders received", body="OK\n",
                                        domain="mail.example.com")
                handle = open_db(db)
                try:
                    outbox.enqueue(handle, message["Message-ID"], ["russia@example.net"], bytes(message),
                                   envelope_from="diplomacy.judge@mail.example.com")
                finally:
                    handle.conn.close()
                # (With a dispatcher the judge also answers the player's mail: pick this message.)
                [sent] = wait_until(lambda: [r for r in sink.received if message["Message-ID"].encode() in r.raw],
                                    what="the judge's mail at the relay")
                assert sent.rcpt_tos == ["russia@example.net"]

                checked = run_judge("doctor", env=env)
                assert checked.returncode == 0, checked.stdout + checked.stderr
                opens = f"ok   imap     the mailbox judge@{server.host}:{server.port} folder INBOX opens"
                assert opens in checked.stdout
            assert judge.process.returncode == 0, judge.errors

        wrong = run_judge("doctor", "--offline", env={**env, "JUDGE_IMAP_PASSWORD": "wrong"})
        assert wrong.returncode == 0                     # --offline: no IMAP check
        wrong = run_judge("doctor", env={**env, "JUDGE_IMAP_PASSWORD": "wrong"})
        assert wrong.returncode == 1 and "FAIL imap" in wrong.stdout
    finally:
        remove(server)
