"""judge/daemon.py and `judge serve`: the whole mail edge, as a real process and in-process."""
import os
import re
import shutil
import signal
import smtplib
import sqlite3
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.config import load_config
from judge.daemon import MailContext
from judge.mail.outbound import outbox
from judge.mail.intake.archive import Archive
from judge.mail.outbound.compose import build_message

from servers.net import wait_until
from servers.running import DaemonThread
from servers.sink import Sink
from test_mail_loops import DSN

JUDGE = Path(sys.executable).with_name("judge")


def inbound(db_path):
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT id, mail_from, state, outcome FROM inbound ORDER BY id").fetchall()


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks is not installed (bin/setup installs it as root)")
@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_judge_serve_with_no_configuration_takes_mail_and_stops_cleanly(tmp_path, stop_signal):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env["JUDGE_SMTP_PORT"] = "0"             # everything else from the embedded defaults; a free port
    process = subprocess.Popen([str(JUDGE), "serve"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not lines or not lines[-1].startswith("Stop with"):
            line = process.stdout.readline()
            assert line, f"judge serve exited: {process.wait()} {process.stderr.read()}"
            lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        port = int(re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", text).group(1))
        assert "judge@localhost" in text and str(tmp_path / "var") in text
        assert ".eml files in var/outbox/ (no relay set)" in text
        assert "swaks --server 127.0.0.1:" in text

        sent = subprocess.run(["swaks", "--server", f"127.0.0.1:{port}", "--from", "austria@example.org",
                               "--to", "judge@localhost", "--header", "Subject: orders", "--body", "A Vie-Gal"],
                              capture_output=True, text=True, timeout=60)
        assert sent.returncode == 0 and "250 2.0.0 OK stored as #1" in sent.stdout, sent.stdout
        db = tmp_path / "var" / "judge.sqlite"
        # (the 250 came after intake's spool commit: the archive has it once the spool is drained)
        wait_until(lambda: [r[2] for r in inbound(db)] == ["processed"], what="the message to be processed")
        assert inbound(db) == [(1, "austria@example.org", "processed",
                                "answered austria@example.org: 0 item(s) done, 1 error(s)")]
        # the dispatcher's answer (orders need a sign-on) is written as an .eml file by the outbox
        outbox_dir = tmp_path / "var" / "outbox"
        emls = wait_until(lambda: list(outbox_dir.glob("*.eml")), what="the reply as an .eml file")
        reply = message_from_bytes(emls[0].read_bytes(), policy=policy.default)
        assert reply["To"] == "austria@example.org" and "sign on first" in reply.get_body().get_content()
        process.send_signal(stop_signal)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "judge serve: stopped." in out
    assert "Traceback" not in err


def test_a_bad_configuration_is_refused_with_a_reason(tmp_path):
    bad = tmp_path / "judge.toml"
    bad.write_text("[smtp]\nport = 'twenty'\n")
    result = subprocess.run([str(JUDGE), "serve", "--config", str(bad)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "smtp.port" in result.stderr


def config_for(tmp_path, sink=None, **extra):
    overrides = {"data_dir": tmp_path / "var", "smtp.port": 0, "master_address": "gm@example.org",
                 "outbox.poll_seconds": 0.05, **extra}
    if sink is not None:
        overrides.update({"relay.host": "127.0.0.1", "relay.port": sink.port})
    return load_config(env={}, overrides=overrides)


def test_a_bounce_marks_the_address_failing_and_tells_the_master(tmp_path):
    with Sink() as sink:
        config = config_for(tmp_path, sink)
        with DaemonThread(config) as judge, smtplib.SMTP("127.0.0.1", judge.port) as smtp:
            assert f"the SMTP relay 127.0.0.1:{sink.port}" in judge.banner
            smtp.sendmail("", ["judge@localhost"], DSN)        # null envelope sender, as bounces come
            wait_until(lambda: sink.received, what="the notice to the master")
        [(_, _, state, outcome)] = inbound(config.db_path)
        assert state == "processed" and "marked failing austria@example.net" in outcome
        archive = Archive(config.db_path)
        assert archive.is_failing("austria@example.net") and not archive.is_failing("germany@example.net")
        archive.close()
        [notice] = sink.received
        assert notice.rcpt_tos == ["gm@example.org"] and notice.mail_from == "judge@localhost"
        parsed = message_from_bytes(notice.raw, policy=policy.default)
        assert parsed["Auto-Submitted"] == "auto-generated"
        assert "austria@example.net" in parsed["Subject"]
        body = parsed.get_content()
        assert "Recipient address rejected" in body and "<judge.abc@localhost>" in body


def test_a_dispatcher_replies_through_the_outbox_threaded_and_once(tmp_path):
    seen = []

    def dispatch(message, verdict, context: MailContext) -> str:
        seen.append((message.id, verdict.reply_allowed))
        if not verdict.reply_allowed:
            return f"no reply: {verdict.reason}"
        original = message.parsed()
        reply = build_message(key=f"reply:{message.id}", sender=context.config.address,
                              to=[message.mail_from], subject="Re: " + original["Subject"],
                              body="Received.\n", domain=context.config.domain, in_reply_to=original)
        outbox.enqueue(context.db, reply["Message-ID"], [message.mail_from], bytes(reply),
                       envelope_from=context.config.address)
        return "replied"

    ticks = []
    with Sink() as sink:
        config = config_for(tmp_path, sink, tick_seconds=0.05)
        with DaemonThread(config, dispatch=dispatch, tick=ticks.append) as judge, \
                smtplib.SMTP("127.0.0.1", judge.port) as smtp:
            assert "scheduler not configured" not in judge.banner and "dispatch  not configured" not in judge.banner
            mail = (b"From: italy@example.org\r\nTo: judge@localhost\r\nSubject: orders\r\n"
                    b"Message-ID: <it-1@example.org>\r\n\r\nA Ven H\r\n")
            smtp.sendmail("italy@example.org", ["judge@localhost"], mail)
            smtp.sendmail("italy@example.org", ["judge@localhost"], mail)          # redelivered
            smtp.sendmail("list@example.org", ["judge@localhost"],
                          b"From: list@example.org\r\nPrecedence: list\r\nSubject: digest\r\n\r\n...\r\n")
            wait_until(lambda: len(seen) == 2 and sink.received, what="the reply")
            wait_until(lambda: ticks, what="a tick")
        assert seen == [(1, True), (3, False)]               # the redelivery (#2) was never dispatched
        assert [r[2:] for r in inbound(config.db_path)] == [
            ("processed", "replied"), ("duplicate", "redelivery of #1; not processed again"),
            ("processed", "no reply: Precedence: list")]
        [reply] = sink.received
        parsed = message_from_bytes(reply.raw, policy=policy.default)
        assert reply.rcpt_tos == ["italy@example.org"]
        assert parsed["In-Reply-To"] == "<it-1@example.org>" and parsed["Auto-Submitted"] == "auto-replied"


def test_a_message_claimed_before_a_crash_is_processed_after_the_restart(tmp_path):
    config = config_for(tmp_path)
    archive = Archive(config.db_path)
    stored = archive.store(b"Subject: x\r\n\r\nA Par H\r\n", mail_from="f@example.org", rcpt_tos=["j"], via="smtp")
    archive.claim_next()                      # the old judge took it and died
    archive.close()
    with DaemonThread(config):
        wait_until(lambda: inbound(config.db_path)[0][2] == "processed", what="the left-over message")
    assert inbound(config.db_path)[0][0] == stored.id


def test_without_a_relay_the_master_notice_is_an_eml_file(tmp_path):
    config = config_for(tmp_path)
    with DaemonThread(config) as judge, smtplib.SMTP("127.0.0.1", judge.port) as smtp:
        smtp.sendmail("", ["judge@localhost"], DSN)
        files = wait_until(lambda: list((tmp_path / "var" / "outbox").glob("*.eml")), what="the .eml file")
    [eml] = files
    assert b"To: gm@example.org" in eml.read_bytes()


@pytest.mark.skipif(__import__("servers.dovecot", fromlist=["x"]).dovecot_binary() is None,
                    reason="dovecot is not installed (bin/setup installs it with apt as root)")
def test_imap_intake_runs_inside_the_daemon(tmp_path):
    from imapclient import IMAPClient
    from servers.dovecot import remove, start_dovecot
    server = start_dovecot()
    try:
        config = config_for(tmp_path, **{"imap.host": server.host, "imap.port": server.port,
                                         "imap.user": "judge", "imap.password": server.password})
        player = IMAPClient(server.host, port=server.port, ssl=False)
        player.login("judge", server.password)
        # In the mailbox before the judge starts: its first look finds it. Appended while the judge
        # connects, it could land between its NOOP and its IDLE, which dovecot announces only at its
        # next periodic check (30 s or more); tests/test_mail_imap.py covers mail arriving in IDLE.
        player.append("INBOX", b"From: turkey@example.org\r\nSubject: orders\r\n\r\nF Ank-Bla\r\n")
        with DaemonThread(config) as judge:
            assert f"judge@{server.host}:{server.port} INBOX" in judge.banner
            wait_until(lambda: inbound(config.db_path) and inbound(config.db_path)[0][2] == "processed",
                       what="the IMAP message to be processed")
            player.select_folder("INBOX")
            assert all(b"\\Seen" in f for f in player.get_flags(player.search(["ALL"])).values())
            player.logout()
    finally:
        remove(server)
