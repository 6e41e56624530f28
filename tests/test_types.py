"""The adjudicator, the order reader and GameService's API are strictly typed: mypy --strict finds nothing in them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_engine_and_language_pass_mypy_strict(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
                           "judge/engine", "judge/language"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_game_service_and_its_answers_pass_mypy_strict(tmp_path):
    """GameService's API and the values it answers with are strictly typed. The modules they call
    are read for their types but not checked here (--follow-imports=silent): they are not strict yet."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), "judge/games/service.py", "judge/games/answers.py"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 2 source files" in done.stdout
