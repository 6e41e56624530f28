"""The code stays lint-clean: `ruff check` (pycodestyle and pyflakes, as `[tool.ruff]` in
pyproject.toml sets them) finds nothing in judge/, tests/ or bench/."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "judge", "tests", "bench"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_find_a_fault(tmp_path):
    """The check above can fail: an unused import in a file of the same settings is found."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text("import os\n")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "bad.py"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1 and "F401" in done.stdout
