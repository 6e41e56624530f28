"""The code stays lint-clean: `ruff check` (pycodestyle, pyflakes, bugbear, simplify, rebound loop
variables and noqa markers that suppress nothing, as `[tool.ruff]` in pyproject.toml selects them)
finds nothing in judge/, tests/ or bench/."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAULTS = json.loads((ROOT / "tests" / "data" / "lint" / "ruff_faults.json").read_text())["cases"]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "judge", "tests", "bench"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f["code"])
def test_ruff_would_find_a_fault(tmp_path, fault):
    """The check above can fail: a fault of each rule family, in a file of the same settings, is found."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text(fault["source"])
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "bad.py"],
                          cwd=tmp_path, capture_output=True, text=True)
    found = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("bad.py:")]
    assert done.returncode == 1 and found == [fault["code"]]
