"""`judge doctor` against a healthy judge and against broken ones: a real daemon has run, a real SMTP
sink is (or is not) the relay, and the command runs as a subprocess the way a monitor calls it."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import pytest

from judge.config import load_config
from judge.mail.outbound import outbox
from judge.mail.outbound.compose import build_message
from judge.ops.upgrade import upgrade
from judge.storage.db import open_db

from servers.judge_process import judge_env, run_judge
from servers.net import free_port, wait_until
from servers.running import DaemonThread
from servers.sink import Sink, SinkHandler
from test_games_helpers import seven_player_game, service


def write_config(path, data_dir, relay_port: int | None):
    text = f'data_dir = "{data_dir}"\naddress = "judge@example.org"\n[smtp]\nport = 0\n'
    if relay_port is not None:
        text += f'[relay]\nhost = "127.0.0.1"\nport = {relay_port}\n'
    path.write_text(text)
    return path


def queue_mail(db_path, key: str, *, created: float | None = None) -> str:
    message = build_message(key=key, sender="judge@example.org", to=["france@example.net"], subject=key,
                            body="Results.\n", domain="example.org")
    db = open_db(db_path)
    try:
        outbox.prepare(db)
        outbox.enqueue(db, message["Message-ID"], ["france@example.net"], bytes(message),
                       envelope_from="judge@example.org", now=created)
    finally:
        db.conn.close()
    return message["Message-ID"].strip("<>")


def outbox_state(db_path, message_id):
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT state FROM outbox WHERE message_id = ?", [message_id]).fetchone()[0]


def doctor(config, *args):
    done = run_judge("doctor", "--config", str(config), *args, env=judge_env())
    return done.returncode, done.stdout + done.stderr


def healthy_judge(tmp_path, sink):
    """A judge that ran: games made, mail taken and one message sent through the relay."""
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    config = write_config(tmp_path / "judge.toml", tmp_path / "var", sink.port)
    upgrade(tmp_path / "var")                  # what `judge serve` does before it starts the daemon
    with DaemonThread(load_config(config, env={}, overrides={"outbox.poll_seconds": 0.05})):
        sent = queue_mail(tmp_path / "var" / "judge.sqlite", "healthy")
        wait_until(lambda: outbox_state(tmp_path / "var" / "judge.sqlite", sent) == "sent", what="the mail sent")
    return config


def test_a_healthy_judge_passes(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        status, out = doctor(config)
        assert status == 0, out
        assert "FAIL" not in out
        assert f"ok   relay    the relay 127.0.0.1:{sink.port} answers" in out
        assert "was sent" in out and "nothing waits to be sent" in out
        assert "1 game file(s) pass quick_check and are at this judge's schema" in out
        status, out = doctor(config, "--json")
        checks = json.loads(out)
        assert status == 0
        assert {c["topic"] for c in checks} >= {"config", "data", "schema", "relay", "outbox", "inbound"}


def test_an_outbox_grown_past_the_keepers_limit_is_warned_of(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        status, out = doctor(config)
        assert "ok   outbox   the outbox holds 0.0 MiB of mail (sent mail is kept 30 days)" in out
        config.write_text(config.read_text() + "[outbox]\nwarn_mib = 0.0001\nkeep_sent_days = 90\n")
        status, out = doctor(config)
        assert status == 0, out          # a warning, not a failure
        assert "warn outbox   the outbox holds 0 MiB of mail (sent mail is kept 90 days), more than" \
               " outbox.warn_mib = 0.0001: lower outbox.keep_sent_days" in out


def test_a_relay_that_does_not_answer_fails(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
    status, out = doctor(config)            # the sink is gone: nothing listens on its port
    assert status == 1
    assert "FAIL relay" in out and "cannot be reached" in out
    status, out = doctor(config, "--offline")
    assert status == 0, out


def test_mail_that_failed_or_waits_too_long_fails(tmp_path):
    with Sink(SinkHandler(refusal="550 5.1.1 No such user")) as sink:
        config = healthy_judge(tmp_path, sink)
        db_path = tmp_path / "var" / "judge.sqlite"
        settings = load_config(config, env={}, overrides={"outbox.poll_seconds": 0.05})
        # The second message is refused for good by the relay.
        refused = queue_mail(db_path, "refused")
        sink.handler.refuse_next = 1
        with DaemonThread(settings):
            wait_until(lambda: outbox_state(db_path, refused) == "failed", what="the refusal")
        status, out = doctor(config)
        assert status == 1 and "FAIL outbox   the last outbound mail <" in out and "550 5.1.1 No such user" in out

        # A message queued two hours ago and never sent (the judge is stopped).
        queue_mail(db_path, "stuck", created=time.time() - 7200)
        status, out = doctor(config, "--max-age", "3600")
        assert status == 1 and "1 message(s) wait to be sent, the oldest for 2.0 h" in out


def test_unprocessed_inbound_mail_fails(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        from judge.mail.intake.archive import Archive
        archive = Archive(tmp_path / "var" / "judge.sqlite", clock=lambda: time.time() - 7200)
        archive.store(b"Subject: orders\r\n\r\nA PAR H\r\n", mail_from="f@example.net", rcpt_tos=["judge@example.org"],
                      via="smtp")
        archive.close()
        status, out = doctor(config)
    assert status == 1 and "FAIL inbound  1 received message(s) are not processed" in out


def test_mail_left_in_intakes_spool_for_over_a_minute_warns(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        from judge.mail.intake.archive import Arrival
        from judge.mail.intake.spool import Spool
        from judge.mail.intake.spool_drain import SpoolReader
        spool = Spool(tmp_path / "var" / "spool", clock=lambda: time.time() - 180)
        spool.add_many([Arrival(b"Subject: orders\r\n\r\nA PAR H\r\n", "f@example.net", ("judge@example.org",),
                                "smtp")])
        status, out = doctor(config)
        assert "warn spool" in out and "1 acknowledged message(s) wait in spool/, the oldest for 3 min" in out
        from judge.mail.intake.archive import Archive
        archive = Archive(tmp_path / "var" / "judge.sqlite")
        archive.drain_spool(SpoolReader(tmp_path / "var" / "spool", writing=lambda: spool.synced))
        archive.close()
        spool.close()
        status, out = doctor(config)
    assert "ok   spool" in out and "no acknowledged message waits in spool/" in out


def test_a_broken_data_directory_or_configuration_fails(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        data = tmp_path / "var"

        # A game file written by a newer judge.
        game = data / "games" / "alpha.sqlite"
        with sqlite3.connect(game) as conn:
            conn.execute("UPDATE schema_versions SET version = 99 WHERE component = 'game'")
        status, out = doctor(config)
        assert status == 1 and "games/alpha.sqlite: game schema 99 is newer than this judge knows" in out

        # No data directory at all.
        shutil.move(data, tmp_path / "moved")
        status, out = doctor(config)
        assert status == 1 and "is not a directory" in out

        # A judge.sqlite that is not a database.
        data.mkdir()
        (data / "judge.sqlite").write_bytes(b"this is not SQLite" * 100)
        status, out = doctor(config)
        assert status == 1 and "FAIL data" in out

    bad = tmp_path / "bad.toml"
    bad.write_text('[relay]\nhots = "smtp.example.org"\n')
    status, out = doctor(bad)
    assert status == 1 and "FAIL config" in out and "unknown setting relay.hots" in out


def test_a_relay_port_with_nothing_behind_it_is_named(tmp_path):
    port = free_port()
    config = write_config(tmp_path / "judge.toml", tmp_path / "var", port)
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    status, out = doctor(config)
    assert status == 1 and f"127.0.0.1:{port} cannot be reached" in out


def doctor_as(user: pwd.struct_passwd, *args: str) -> tuple[int, str]:
    """`judge doctor` run as `user`, in a child of this process: the judge's code is already loaded,
    so the user need not reach the source tree or its venv (a clone under a 0700 directory)."""
    import judge.cli
    import judge.ops.doctor  # loaded before the child drops root
    judge.cli.build_parser()    # (and every subcommand's module, which `main` imports by name)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                     # the child: `user` from here on, then gone
        status = 2
        try:
            os.close(read)
            sys.stdout = sys.stderr = os.fdopen(write, "w")    # (not pytest's capture)
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            status = judge.cli.main(["doctor", *args])
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 2
        except BaseException:                        # told to the parent, not raised in a fork
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "r") as out:
        text = out.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), text


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run the doctor as another user (nobody)")
def test_files_the_judges_user_cannot_write_fail():
    # Not pytest's 0700 tmp: the user nobody must reach this directory.
    directory = Path(tempfile.mkdtemp(prefix="judge-doctor-"))
    try:
        directory.chmod(0o755)
        svc, _ = service(directory)
        seven_player_game(svc)
        data = directory / "var"
        nobody = pwd.getpwnam("nobody")
        for path in [data, *data.rglob("*")]:
            os.chown(path, nobody.pw_uid, nobody.pw_gid)
        os.chown(data / "games" / "alpha.sqlite", 0, 0)       # as `judge create` run as root leaves it
        (data / "games" / "alpha.sqlite").chmod(0o644)
        status, out = doctor_as(nobody, "--data", str(data), "--offline")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    assert status == 1, out
    assert "not writable by this user" in out and "alpha.sqlite" in out
    assert f"chown -R judge:judge {data}" in out


def test_a_component_the_doctor_does_not_know_is_named_but_not_a_failure(tmp_path):
    with Sink() as sink:
        config = healthy_judge(tmp_path, sink)
        with sqlite3.connect(tmp_path / "var" / "judge.sqlite") as conn:
            conn.execute("INSERT INTO schema_versions (component, version) VALUES ('future', 1)")
        status, out = doctor(config)
    assert status == 0, out
    assert "warn schema   judge.sqlite: component future (schema 1) is not one this judge checks" in out
