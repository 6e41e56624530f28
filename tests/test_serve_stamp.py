"""`judge serve` on a restart believes judge.sqlite current by the stamp the start before left
(judge.schema_stamp), without importing what defines the schemas (the games layer, most of the mail
stack, judge.ops); anything that stamp no longer matches (judge.sqlite's versions, a source file of a
migration, the stamp itself) is checked the whole way again, and migrated. Checked on the modules a
fresh interpreter holds when the daemon would start, with the daemon itself left out (no SMTP)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge import schema_stamp
from judge.config import load_config
from judge.serve_cli import checked_current

# `judge serve` as its command line runs it, but the daemon replaced by a report of what was imported
# by then and of judge.sqlite's schema versions.
PROBE = """
import json, sys
import judge.daemon
from judge.schema_stamp import versions
def serve(config, **hooks):
    print("\\nSTARTED " + json.dumps({"modules": sorted(sys.modules),
                                       "versions": versions(config.data_dir / "judge.sqlite")}))
    return 0
judge.daemon.serve = serve
from judge.cli import main
sys.exit(main(sys.argv[1:]))
"""
CHECKING = ["judge.ops", "judge.games", "judge.mail.federation", "judge.mail.screening", "judge.engine",
            "judge.language"]


def started(data: Path) -> tuple[set[str], dict[str, int]]:
    done = subprocess.run([sys.executable, "-c", PROBE, "serve", "--data", str(data), "--smtp-port", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.rsplit("\nSTARTED ", 1)[1])
    return set(report["modules"]), report["versions"]


def checking(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == c or m.startswith(c + ".") for c in CHECKING))


def test_a_restart_is_vouched_for_by_the_stamp_and_anything_else_is_checked_again(tmp_path):
    data = tmp_path / "var"
    first, made = started(data)                     # a new directory: judge.sqlite made, then stamped
    assert "judge.ops.upgrade" in first and (data / schema_stamp.STAMP).exists()
    again, same = started(data)
    assert checking(again) == [] and same == made

    (data / schema_stamp.STAMP).write_text("{not json")
    checked, versions = started(data)
    assert "judge.ops.upgrade" in checked and versions == made
    assert schema_stamp.vouched(data)


@pytest.fixture
def stamped(tmp_path) -> Path:
    data = tmp_path / "var"
    assert checked_current(load_config(None, env={}, overrides={"data_dir": str(data)}))
    assert schema_stamp.vouched(data)
    return data


def test_a_changed_source_of_a_migration_is_no_longer_vouched_for(stamped):
    stamp = json.loads((stamped / schema_stamp.STAMP).read_text())
    assert "games/store.py" in stamp["sources"]
    mine = stamped / "migrations.py"      # a stand-in for a migration's module, which a new judge edits
    mine.write_text("def step(db):\n    pass\n")
    namespace: dict = {}
    exec(compile(mine.read_text(), str(mine), "exec"), namespace)
    schema_stamp.leave(stamped, [namespace["step"]])
    assert schema_stamp.vouched(stamped)
    mine.write_text("def step(db):\n    db.execute('CREATE TABLE t (x)')\n")
    assert not schema_stamp.vouched(stamped)


def test_judge_sqlite_at_other_versions_than_stamped_is_not_vouched_for(stamped):
    stamp = json.loads((stamped / schema_stamp.STAMP).read_text())   # as if judge.sqlite had been put back
    stamp["versions"]["games"] -= 1                                   # from before the stamp
    (stamped / schema_stamp.STAMP).write_text(json.dumps(stamp))
    assert not schema_stamp.vouched(stamped)


def test_no_judge_sqlite_or_an_empty_stamp_is_not_vouched_for(stamped):
    (stamped / "judge.sqlite").rename(stamped / "elsewhere.sqlite")
    assert not schema_stamp.vouched(stamped)
    (stamped / "elsewhere.sqlite").rename(stamped / "judge.sqlite")
    assert schema_stamp.vouched(stamped)
    (stamped / schema_stamp.STAMP).write_text(json.dumps({"versions": {}, "sources": [], "digest": ""}))
    assert not schema_stamp.vouched(stamped)
