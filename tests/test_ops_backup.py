"""`judge backup` and `judge restore`: a running judge (a `judge serve` subprocess taking mail, games
written through GameService at the same time) is backed up, restored elsewhere, and the game plays on."""
from __future__ import annotations

import json
import re
import smtplib
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from judge.games.clock import iso, parse_time
from judge.ops.backup import verify
from judge.ops.upgrade import known_versions

from servers.judge_process import JudgeServe, run_judge
from servers.net import wait_until
from test_games_helpers import seven_player_game, service, submit


def write_config(path, data_dir):
    path.write_text(f'data_dir = "{data_dir}"\naddress = "judge@example.org"\n[smtp]\nport = 0\n'
                    "rate_limit = 1000\n")
    return path


def mail(port: int, number: int) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "france@example.net", "judge@example.org", f"orders {number}"
    msg["Message-ID"] = f"<backup-test-{number}@example.net>"
    msg.set_content("SIGNON Falpha secret\nA PAR-BUR\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        smtp.send_message(msg)


def inbound_ids(db_path) -> list[str]:
    with sqlite3.connect(db_path) as conn:
        return [r[0] for r in conn.execute("SELECT message_id FROM inbound ORDER BY id")]


def test_backup_of_a_running_judge_restores_elsewhere_and_the_game_plays_on(tmp_path):
    # GameService on live-parent/var, at today's date: a judge serve with a scheduler finds nothing due.
    svc, clock = service(tmp_path / "live-parent", start=iso(datetime.now(UTC)))
    data = tmp_path / "live-parent" / "var"
    seven_player_game(svc)
    submit(svc, "alpha", "FRANCE", "A PAR - BUR", "A MAR - SPA", "F BRE - MAO")
    config = write_config(tmp_path / "judge.toml", data)

    with JudgeServe(["--config", str(config)]) as judge:
        for n in range(3):
            mail(judge.port, n)
        wait_until(lambda: len(inbound_ids(data / "judge.sqlite")) == 3, what="three messages archived")

        # Mail and orders keep arriving while the backup runs.
        stop = threading.Event()
        sent: list[int] = []

        def keep_writing():
            n = 100
            while not stop.is_set():
                mail(judge.port, n)
                sent.append(n)
                submit(svc, "alpha", "GERMANY", "A MUN H", "A BER H", "F KIE H")
                n += 1

        writer = threading.Thread(target=keep_writing)
        writer.start()
        try:
            wait_until(lambda: len(sent) >= 2, what="the writer to get going")
            done = run_judge("backup", "--config", str(config), str(tmp_path / "backup"))
        finally:
            stop.set()
            writer.join(60)
        assert done.returncode == 0, done.stderr
        assert "file(s)" in done.stdout
        mail(judge.port, 999)                 # after the backup: not in it
        wait_until(lambda: "backup-test-999@example.net" in inbound_ids(data / "judge.sqlite"), what="mail 999")
    assert judge.process.returncode == 0, judge.errors

    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text())
    names = [f["name"] for f in manifest["files"]]
    # the running judge's spool segment (and any older one not yet drained) is copied with the SQLite files
    assert names[:2] == ["judge.sqlite", "games/alpha.sqlite"] and len(names) > 2
    assert all(re.fullmatch(r"spool/\d{12}\.log", name) for name in names[2:]), names
    now = known_versions()
    assert {c: manifest["files"][0]["schema"][c] for c in ("mail", "outbox", "games")} == \
        {c: now[c] for c in ("mail", "outbox", "games")}
    assert manifest["files"][1]["schema"] == {"game": now["game"]}
    assert all(f["schema"] == {} for f in manifest["files"][2:])
    assert not (tmp_path / "backup.partial").exists()
    assert {f.name for f in verify(tmp_path / "backup")} == set(names)

    # Restore into a new place: the archive holds what had arrived by the backup, and not mail 999.
    restored = tmp_path / "elsewhere" / "var"
    done = run_judge("restore", str(tmp_path / "backup"), "--data", str(restored))
    assert done.returncode == 0, done.stderr
    ids = inbound_ids(restored / "judge.sqlite")
    assert ids[:3] == [f"backup-test-{n}@example.net" for n in range(3)]
    assert "backup-test-999@example.net" not in ids

    # The restored judge plays on: the orders given before the backup are there, the phase processes.
    again, clock2 = service(tmp_path / "elsewhere", start=clock().isoformat())
    status = again.status("alpha")
    assert status.phase == "S1901M" and status.status == "active"
    assert not status.powers["FRANCE"].owes
    assert [g.name for g in again.list_games()] == ["alpha"]
    clock2.set(parse_time(status.deadline["utc"]) - timedelta(hours=1))
    again.process("alpha")             # the master's `process`: the others are in civil disorder
    after = again.status("alpha")
    assert after.phase == "F1901M"
    units = after.position["units"]["FRANCE"]
    assert "A BUR" in units and "F MAO" in units

    # And `judge serve` runs on the restored directory.
    with JudgeServe(["--data", str(restored), "--smtp-port", "0"]) as judge:
        mail(judge.port, 1000)
        wait_until(lambda: "backup-test-1000@example.net" in inbound_ids(restored / "judge.sqlite"),
                   what="mail to the restored judge")


def test_backup_and_restore_refuse_what_would_lose_data(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    data = tmp_path / "var"

    taken = run_judge("backup", "--data", str(data), str(tmp_path / "b1"))
    assert taken.returncode == 0, taken.stderr
    again = run_judge("backup", "--data", str(data), str(tmp_path / "b1"))
    assert again.returncode == 1 and "not empty" in again.stderr

    nothing = run_judge("backup", "--data", str(tmp_path / "nowhere"), str(tmp_path / "b2"))
    assert nothing.returncode == 1 and "no judge.sqlite" in nothing.stderr

    onto = run_judge("restore", str(tmp_path / "b1"), "--data", str(data))
    assert onto.returncode == 1 and "restore only into an empty data directory" in onto.stderr

    with open(tmp_path / "b1" / "games" / "alpha.sqlite", "r+b") as f:   # damaged after the backup
        f.seek(200)
        f.write(b"\xff" * 16)
    damaged = run_judge("restore", str(tmp_path / "b1"), "--data", str(tmp_path / "fresh"))
    assert damaged.returncode == 1 and "alpha.sqlite is not the file that was backed up" in damaged.stderr
    assert not (tmp_path / "fresh" / "judge.sqlite").exists()

    not_a_backup = run_judge("restore", str(tmp_path), "--data", str(tmp_path / "fresh"))
    assert not_a_backup.returncode == 1 and "no manifest.json" in not_a_backup.stderr


def test_mail_acknowledged_but_still_in_intakes_spool_is_in_the_backup(tmp_path):
    """A message in intake's spool (its 250 given, not yet drained into judge.sqlite) is backed up with
    the judge file and, restored, reaches the archive once when the restored judge drains."""
    from judge.mail.intake.archive import Archive, Arrival
    from judge.mail.intake.spool import Spool
    from judge.mail.intake.spool_drain import SpoolReader
    svc, _ = service(tmp_path)
    seven_player_game(svc)
    data = tmp_path / "var"
    spool = Spool(data / "spool")
    spool.add_many([Arrival(b"Message-ID: <spooled@example.net>\r\nSubject: orders\r\n\r\nA PAR-BUR\r\n",
                            "france@example.net", ("judge@example.org",), "smtp")])
    taken = run_judge("backup", "--data", str(data), str(tmp_path / "b"))     # (the spool's writer still open)
    spool.close()
    assert taken.returncode == 0, taken.stderr
    assert "spool/000000000001.log" in [f.name for f in verify(tmp_path / "b")]
    # the copy holds the record and not the segment's zeros after it
    assert (tmp_path / "b" / "spool" / "000000000001.log").stat().st_size < 1000
    restored = run_judge("restore", str(tmp_path / "b"), "--data", str(tmp_path / "elsewhere"))
    assert restored.returncode == 0, restored.stderr
    archive = Archive(tmp_path / "elsewhere" / "judge.sqlite")
    reader = SpoolReader(tmp_path / "elsewhere" / "spool")
    assert [m.message_id for m in archive.drain_spool(reader)] == ["spooled@example.net"]
    assert archive.drain_spool(reader) == [] and not list((tmp_path / "elsewhere" / "spool").iterdir())
    assert inbound_ids(tmp_path / "elsewhere" / "judge.sqlite").count("spooled@example.net") == 1
