"""`judge` imports only what its command needs: `judge --help` no area at all, a command's --help
its own command-line module. Checked on the modules a fresh interpreter holds afterwards, not on
a time (bench/cli_start.py times it)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli import COMMANDS, build_parser
from judge.games.service import GameService
from test_games_helpers import seven_player_game

DATA = json.loads((Path(__file__).parent / "data" / "cli_start.json").read_text())

# Runs `judge` (its `main`, as the installed script does) and prints the modules then imported.
PROBE = """
import json, sys
from judge.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""


def imported_by(argv: list[str]) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=60)
    line = done.stdout.rsplit("\nMODULES ", 1)
    assert len(line) == 2, done.stdout + done.stderr
    return set(json.loads(line[1]))


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """A data directory with a game under way, as the games layer leaves it: `judge status` and
    `judge list` answer there from the index alone (judge.index_look)."""
    data = tmp_path_factory.mktemp("games") / "var"
    seven_player_game(GameService(data), "alpha")
    return data


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: " ".join(c["argv"]) or "(nothing)")
def test_a_command_line_imports_only_what_its_command_needs(case, tmp_path, request):
    absent = DATA[case["absent"]] if isinstance(case["absent"], str) else case["absent"]
    games = str(request.getfixturevalue("games")) if "{games}" in case["argv"] else ""
    modules = imported_by([word.replace("{data}", str(tmp_path / "var")).replace("{games}", games)
                           for word in case["argv"]])
    assert "judge.cli" in modules
    heavy = sorted(m for m in modules if any(m == a or m.startswith(a + ".") for a in absent))
    assert heavy == []


def test_each_summary_in_the_table_is_the_commands_own():
    """`judge --help` lists the table's lines without importing the areas: each is the line its
    module's parser has (every module imported here)."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    own = {choice.dest: choice.help for choice in sub._choices_actions}
    assert own == {name: summary for name, (_, summary) in COMMANDS.items()}


def test_help_lists_every_command_and_a_command_still_runs(tmp_path):
    listed = subprocess.run([sys.executable, "-m", "judge", "--help"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0
    assert all(f"    {name}" in listed.stdout for name in COMMANDS)
    wrong = subprocess.run([sys.executable, "-m", "judge", "stauts"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "invalid choice: 'stauts'" in wrong.stderr and "'status'" in wrong.stderr
    games = subprocess.run([sys.executable, "-m", "judge", "list", "--data", str(tmp_path / "var")],
                           capture_output=True, text=True, timeout=60)
    assert games.returncode == 0 and games.stdout == "no games\n", games.stderr


def test_sqlite_utils_comes_without_numpy_and_numpy_still_comes_to_whoever_imports_it():
    probe = ("import sys, judge, sqlite_utils; print('numpy' in sys.modules, sqlite_utils.db.np);"
             " import numpy; print(numpy.arange(3).sum())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "None", "3"], done.stderr
