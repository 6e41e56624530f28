"""The packages kept strictly typed: mypy --strict finds nothing in them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each path is checked in full. The modules they import but that are not listed here are read for
# their types only (--follow-imports=silent): they are not strict yet.
STRICT = [
    "judge/engine",
    "judge/language",
    "judge/storage",
    "judge/games",
    "judge/mail",
    "judge/ops",
    # the command line and the daemon round them: judge/ but for its pictures and the variant importer
    "judge/__init__.py", "judge/cli.py", "judge/config.py", "judge/daemon.py", "judge/serve_cli.py",
    "judge/adjudicate_cli.py", "judge/adjudicate_shape.py", "judge/sample_cli.py", "judge/order_reading.py",
]


def test_strict_packages_pass_mypy_strict(pytestconfig, tmp_path):
    """One mypy run over every strict path, so the check stays one process however long the list grows.
    Its cache is kept in pytest's cache directory: a later run checks again only the modules changed
    since (and what depends on them), as mypy does by default; a clean clone starts cold, and so does a
    run without pytest's cache (-p no:cacheprovider)."""
    cache = getattr(pytestconfig, "cache", None)
    directory = cache.mkdir("mypy") if cache is not None else tmp_path / "mypy"
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                           "--cache-dir", str(directory), *STRICT],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
