"""Whether judge.sqlite is at this judge's schema, known without importing the modules that define it.

`judge serve` must not take mail into a judge.sqlite an older judge left (judge.ops.upgrade migrates
it first), but the modules whose `Schema`s say what "current" is bring in most of the mail stack
and the games layer: on a restart they cost more than the rest of the start. So when a start has
checked judge.sqlite against them (and migrated it if needed), it leaves a stamp in the data
directory: the schema versions judge.sqlite then had, and the SHA-256 of the source files of every
migration (named within the judge's package, and read in this judge's own). A later start believes
judge.sqlite current only while both are still so: a new judge (any edit to a file holding
migrations) or an older judge.sqlite put back (a restore) is checked the whole way again. Anything
unreadable in the stamp is as no stamp.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

STAMP = "schema-stamp.json"


def vouched(data_dir: Path) -> bool:
    """The stamp says judge.sqlite is at this judge's schema (see the module's note)."""
    try:
        stamp = json.loads((data_dir / STAMP).read_text(encoding="utf-8"))
        return bool(stamp["sources"]) and stamp["digest"] == _digest(stamp["sources"]) \
            and stamp["versions"] == versions(data_dir / "judge.sqlite")
    except (OSError, ValueError, KeyError, TypeError, sqlite3.Error):
        return False


def leave(data_dir: Path, migrations: Iterable[Callable[..., object]]) -> None:
    """Stamp judge.sqlite as it is now, checked current against `migrations` (every step and
    every `current` of its components' schemas)."""
    sources = sorted({_named(Path(step.__code__.co_filename)) for step in migrations})
    stamp = {"versions": versions(data_dir / "judge.sqlite"), "sources": sources, "digest": _digest(sources)}
    partial = data_dir / (STAMP + ".new")
    partial.write_text(json.dumps(stamp, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(partial, data_dir / STAMP)


def versions(judge_file: Path) -> dict[str, int]:
    """Component -> migration steps applied (judge.storage.db's `schema_versions`), read only."""
    if not judge_file.is_file():
        raise FileNotFoundError(judge_file)
    conn = sqlite3.connect(f"{judge_file.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        return dict(conn.execute("SELECT component, version FROM schema_versions").fetchall())
    finally:
        conn.close()


# The judge's own files are named from its package's directory, and read there: a judge installed
# elsewhere (a new one) reads its own files, not those of the judge that left the stamp.
JUDGE = Path(__file__).resolve().parent


def _named(source: Path) -> str:
    source = source.resolve()
    return source.relative_to(JUDGE).as_posix() if source.is_relative_to(JUDGE) else str(source)


def _digest(sources: list[str]) -> str:
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.encode() + b"\0" + (JUDGE / source).read_bytes() + b"\0")
    return digest.hexdigest()
