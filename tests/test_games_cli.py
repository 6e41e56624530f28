"""The keeper's and master's commands, run through `judge` itself on a real data directory."""
from __future__ import annotations

import json
import subprocess
import sys

from judge.cli import main
from test_games_helpers import seven_player_game, service, submit


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_create_list_status_process_history_rollback(tmp_path, capsys):
    data = str(tmp_path / "var")
    code, out = run(capsys, "account", "gm", "GM@Example.org", "--time-zone", "Europe/Paris", "--data", data)
    assert code == 0 and "gm@example.org" in out
    code, out = run(capsys, "create", "omega", "--master", "gm", "--time-zone", "Europe/Paris",
                    "--set", "movement_hours=72", "--set", "reminder_hours=[24, 2]", "--data", data)
    assert code == 0 and "created omega" in out
    code, out = run(capsys, "status", "omega", "--json", "--data", data)
    status = json.loads(out)
    assert status["status"] == "forming" and status["settings"]["movement_hours"] == 72
    assert status["settings"]["reminder_hours"] == [24.0, 2.0] and status["settings"]["time_zone"] == "Europe/Paris"
    # a refusal by code, in the judge's words (judge.mail.words.refusals), not its log line
    assert main(["create", "omega", "--data", data]) == 1
    assert capsys.readouterr().err == "judge create: there is already a game called omega\n"

    svc, clock = service(tmp_path)
    seven_player_game(svc, "sigma")
    submit(svc, "sigma", "FRANCE", "A PAR - BUR")
    code, out = run(capsys, "list", "--data", data)
    assert "omega" in out and "sigma" in out and "S1901M" in out
    code, out = run(capsys, "process", "sigma", "--data", data)
    assert code == 0 and "now F1901M" in out
    code, out = run(capsys, "history", "sigma", "--data", data)
    assert "A PAR - BUR" in out and "moved" in out and "civil disorder: AUSTRIA" in out
    code, out = run(capsys, "rollback", "sigma", "S1901M", "--data", data)
    assert code == 0 and "Spring 1901 Movement" in out
    code, out = run(capsys, "status", "sigma", "--data", data)
    assert "active, Spring 1901 Movement" in out and "p-france" in out
    assert run(capsys, "rollback", "sigma", "F1999M", "--data", data)[0] == 1


def test_the_data_directory_comes_from_JUDGE_DATA(tmp_path):
    env = {"JUDGE_DATA": str(tmp_path / "elsewhere"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "judge.cli", "create", "nu"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "elsewhere" / "games" / "nu.sqlite").exists()
    assert (tmp_path / "elsewhere" / "judge.sqlite").exists()
