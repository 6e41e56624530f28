"""Upgrades: a data directory written by an older judge (tests/data/upgrade/v1, made by commit c63e4f1
with tests/data/upgrade/make_v1.py: games index schema 1, game files schema 1) is migrated when
`judge serve` starts, and its games play on."""
from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
import smtplib
import sqlite3
from pathlib import Path

from judge.games.clock import iso
from judge.ops.backup import schema_versions
from judge.ops.upgrade import JUDGE_FILE_COMPONENTS, known_versions

from servers.judge_process import JudgeServe, run_judge
from servers.net import wait_until
from test_games_helpers import POWERS, orders, service

FIXTURE = Path(__file__).resolve().parent / "data" / "upgrade" / "v1"


def svc_settings(data: Path, game: str) -> dict:
    with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
        return json.loads(conn.execute("SELECT settings FROM game").fetchone()[0])


def old_data(tmp_path) -> Path:
    data = tmp_path / "var"
    shutil.copytree(FIXTURE, data)
    return data


def test_judge_serve_migrates_an_older_data_directory_and_the_games_play_on(tmp_path):
    data = old_data(tmp_path)
    assert schema_versions(data / "judge.sqlite") == {"games": 1, "mail": 2, "outbox": 1}
    assert schema_versions(data / "games" / "alpha.sqlite") == {"game": 1}

    before = run_judge("doctor", "--data", str(data), "--offline")
    assert before.returncode == 0, before.stdout
    assert f"judge.sqlite: games schema 1 is older than this judge's {known_versions()['games']}" in before.stdout

    with JudgeServe(["--data", str(data), "--smtp-port", "0"]) as judge:
        smtplib.SMTP("127.0.0.1", judge.port, timeout=60).sendmail(
            "p-germany@example.org", ["judge@example.org"],
            b"Subject: orders\r\nMessage-ID: <after-upgrade@example.org>\r\n\r\nA MUN H\r\n")
        with sqlite3.connect(data / "judge.sqlite") as conn:
            wait_until(lambda: conn.execute("SELECT count(*) FROM inbound").fetchone()[0] == 2,
                       what="the new mail after the old one")
    assert judge.process.returncode == 0, judge.errors
    now = known_versions()
    old = {"games": 1, "mail": 2, "outbox": 1}          # the fixture's judge.sqlite, as checked above
    judge_changes = ", ".join(f"{c} {old.get(c, 0)} -> {now[c]}" for c in sorted(JUDGE_FILE_COMPONENTS)
                              if old.get(c, 0) != now[c])
    upgraded = [line for line in judge.banner.splitlines() if line.startswith("judge serve: upgraded")]
    assert upgraded == [f"judge serve: upgraded judge.sqlite: {judge_changes}",
                        f"judge serve: upgraded games/alpha.sqlite: game 1 -> {now['game']}",
                        f"judge serve: upgraded games/beta.sqlite: game 1 -> {now['game']}"]
    assert schema_versions(data / "games" / "alpha.sqlite") == {"game": now["game"]}
    # The old settings key is read as the rule it always was.
    assert svc_settings(data, "alpha")["draw_rule"] == "all survivors"

    after = run_judge("doctor", "--data", str(data), "--offline")
    assert after.returncode == 0 and "schema" in after.stdout and "older" not in after.stdout, after.stdout

    # The current games layer on the migrated files, at today's date like the daemon's clock.
    svc, clock = service(tmp_path, start=iso(datetime.now(UTC)))
    assert svc.games_of("p-france") == [("alpha", "FRANCE")]      # game_powers, new in games schema 2
    again = svc.submit_orders("alpha", "FRANCE", orders("A PAR - PIC"), account="p-france", source="inbound:1")
    assert again.repeated                          # the old message's orders are not applied twice
    if svc.status("alpha").phase == "S1901M":
        # A judge serve without a scheduler left the long-past deadline alone: the master plays it.
        svc.process("alpha")
    status = svc.status("alpha")
    assert status.phase == "F1901M"
    assert {"A BUR", "A SPA", "F MAO"} <= set(status.position["units"]["FRANCE"])   # the pre-upgrade orders
    svc.submit_orders("alpha", "FRANCE", orders("F MAO - POR", "A SPA H", "A BUR H"), account="p-france",
                      source="upgrade-test:1")
    svc.process("alpha")
    status = svc.status("alpha")
    assert status.phase == "W1901A" and "F POR" in status.position["units"]["FRANCE"]

    for power in POWERS:                                  # the forming game fills and starts
        if power != "ITALY":
            svc.join("beta", f"p-{power.lower()}", [power])
    assert svc.status("beta").status == "active"


def test_a_file_from_a_newer_judge_is_refused_with_the_reason(tmp_path):
    data = old_data(tmp_path)
    newer = known_versions()["game"] + 1
    with sqlite3.connect(data / "games" / "beta.sqlite") as conn:
        conn.execute("UPDATE schema_versions SET version = ? WHERE component = 'game'", [newer])
    done = run_judge("serve", "--data", str(data), "--smtp-port", "0")
    assert done.returncode == 2
    assert f"games/beta.sqlite: game schema {newer} is newer than this judge knows ({known_versions()['game']})" \
        in done.stderr
    assert "Traceback" not in done.stderr
    assert schema_versions(data / "judge.sqlite")["games"] == 1       # nothing was half-migrated


def test_on_a_restart_the_game_files_are_swept_after_the_banner_and_one_from_a_newer_judge_is_held(tmp_path):
    """judge.sqlite is current after the first start: the next start takes mail at once, and the game
    files changed since are checked by the worker. One this judge cannot open holds its own game only."""
    data = old_data(tmp_path)
    with JudgeServe(["--data", str(data), "--smtp-port", "0"]) as judge:
        pass
    assert judge.process.returncode == 0, judge.errors
    with sqlite3.connect(data / "games" / "beta.sqlite") as conn:
        conn.execute("UPDATE schema_versions SET version = ? WHERE component = 'game'", [known_versions()["game"] + 1])
    with JudgeServe(["--data", str(data), "--smtp-port", "0"]) as judge:
        assert "upgraded" not in judge.banner
        with sqlite3.connect(data / "judge.sqlite") as conn:
            wait_until(lambda: conn.execute("SELECT name, kind FROM game_trouble").fetchall() == [("beta", "held")],
                       what="the game from a newer judge held")
            error = conn.execute("SELECT error FROM game_trouble").fetchone()[0]
            assert f"schema version {known_versions()['game'] + 1} is newer" in error
        smtplib.SMTP("127.0.0.1", judge.port, timeout=60).sendmail(
            "p-germany@example.org", ["judge@example.org"],
            b"Subject: orders\r\nMessage-ID: <after-restart@example.org>\r\n\r\nA MUN H\r\n")
        with sqlite3.connect(data / "judge.sqlite") as conn:
            wait_until(lambda: conn.execute("SELECT count(*) FROM inbound WHERE state = 'processed'").fetchone()[0]
                       == 2, what="the mail after the restart handled")
    assert judge.process.returncode == 0, judge.errors
    assert schema_versions(data / "games" / "alpha.sqlite") == {"game": known_versions()["game"]}
