"""Bring a data directory up to this judge's schema: every component's migrations, then the games index.

`judge serve` calls `upgrade` at start-up, before it takes mail, so a judge installed over an older
one migrates its files once, in one place, and says what it changed. Each migration step is its own
transaction (judge.storage.db), so a crash part-way leaves every file at a version it knows.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..games import store as games_store
from ..games import trouble
from ..mail.federation import account_sync
from ..mail.intake import archive
from ..mail.screening import dispatch_store
from ..mail.outbound import outbox
from ..storage.db import Schema, migrate, open_db
from .datafiles import schema_versions

# Every component of judge.sqlite, in the order they are migrated, and its schema. A
# component added to the judge gets its line here, so that start-up migrates it and `judge doctor`
# checks it. Plain imports, not "module:attribute" strings, so the layering test sees ops -> mail.
JUDGE_FILE_COMPONENTS: dict[str, Schema] = {
    "mail": archive.SCHEMA,
    "outbox": outbox.SCHEMA,
    "games": games_store.JUDGE_SCHEMA,
    "dispatch": dispatch_store.SCHEMA,
    "shard": account_sync.SCHEMA,
    "trouble": trouble.SCHEMA,
}
# The one component of each games/<name>.sqlite (migrated by the games layer when it opens a file).
GAME_FILE_COMPONENTS: dict[str, Schema] = {"game": games_store.GAME_SCHEMA}
# (Intake's spool, judge.mail.intake.spool, is a log with no schema. An older judge's spool.sqlite is read as it
# is by the first drain, judge.mail.intake.spool_drain, and removed.)


class UpgradeError(Exception):
    pass


def known_versions() -> dict[str, int]:
    """Component -> the number of migration steps this judge has: the schema a current file carries."""
    return {name: schema.version
            for name, schema in {**JUDGE_FILE_COMPONENTS, **GAME_FILE_COMPONENTS}.items()}


def outside_known(versions: dict[str, int]) -> list[str]:
    """What this judge cannot open among a file's component versions: newer than it knows, or older
    than the floor it still upgrades."""
    schemas = {**JUDGE_FILE_COMPONENTS, **GAME_FILE_COMPONENTS}
    problems = []
    for component, version in sorted(versions.items()):
        schema = schemas.get(component)
        if schema is not None and version > schema.version:
            problems.append(f"{component} schema {version} is newer than this judge knows ({schema.version})")
        elif schema is not None and 0 < version < schema.floor:
            problems.append(f"{component} schema {version} is older than the oldest this judge upgrades"
                            f" ({schema.floor})")
    return problems


@dataclass(frozen=True)
class Upgraded:
    name: str                    # judge.sqlite or games/<name>.sqlite
    before: dict[str, int]
    after: dict[str, int]

    def __str__(self) -> str:
        changes = ", ".join(f"{c} {self.before.get(c, 0)} -> {v}" for c, v in sorted(self.after.items())
                            if self.before.get(c, 0) != v)
        return f"{self.name}: {changes}"


def current(data_dir: Path) -> bool:
    """Is judge.sqlite at this judge's schema, every component of it? Then the judge ran this directory
    before and `upgrade` has nothing to do but sweep the game files changed since, which `judge serve`
    leaves to its worker (judge.mail.commands.dispatch.Dispatch.prepare) so that it takes mail at once.
    A game file changed since is checked there; one this judge cannot open is held, the others run."""
    judge_file = Path(data_dir) / "judge.sqlite"
    if not judge_file.exists():
        return False
    try:
        versions = schema_versions(judge_file)
    except sqlite3.DatabaseError:
        return False        # upgrade says what is wrong with it
    return all(versions.get(name) == schema.version for name, schema in JUDGE_FILE_COMPONENTS.items())


def upgrade(data_dir: Path) -> list[Upgraded]:
    """Migrate every component of judge.sqlite and every game file; rebuild the games index. A game
    file unchanged since its index row was written at this judge's schema is current already: it is
    neither read nor opened (judge.games.store.stale_game_files).

    Returns the files whose schema changed. A fresh directory gets its judge.sqlite here.
    """
    from ..games.service import GameService  # the games layer migrates its own files
    from ..games.store import stale_game_files

    data_dir = Path(data_dir)
    judge_file = data_dir / "judge.sqlite"
    before = {"judge.sqlite": schema_versions(judge_file)} if judge_file.exists() else {}
    if before:
        # Game files unchanged since the index saw them at this judge's schema are neither read nor
        # opened (the index vouches for them); every other one is read before anything is migrated.
        db = open_db(judge_file)
        try:
            stale = stale_game_files(data_dir, db)
        finally:
            db.conn.close()
        for path in stale:
            try:
                before[path.relative_to(data_dir).as_posix()] = schema_versions(path)
            except sqlite3.DatabaseError as e:
                if not trouble.is_damage(e):
                    raise
                # one damaged game file must not keep the judge from starting: the sweep below
                # records it (judge.games.trouble) and every other game runs
                continue
    # Nothing is migrated if any file is from a newer judge, or older than the floor: a downgrade, or an
    # upgrade this judge cannot finish, must not half-run.
    refused = [f"{name}: {problem}" for name, versions in before.items() for problem in outside_known(versions)]
    if refused:
        raise UpgradeError("; ".join(refused) + ". This judge cannot open these files: for a newer schema install"
                           " the newer judge again, or restore a backup this judge made; for an older one, open"
                           " the directory with a judge of that time first")
    db = open_db(judge_file)        # (a fresh directory gets its judge.sqlite here)
    try:
        for schema in JUDGE_FILE_COMPONENTS.values():
            migrate(db, schema)
    finally:
        db.conn.close()
    service = GameService(data_dir)
    try:
        service.sync_index(quick=True)      # opens (and so migrates) every changed game file
    finally:
        service.judge.conn.close()
    known = known_versions()
    changed = []
    for name, versions in before.items():
        if name == "judge.sqlite" or versions.get("game") != known["game"]:     # a current game file stays so
            try:
                after = schema_versions(data_dir / name)
            except sqlite3.DatabaseError as e:     # found damaged by the sweep: recorded there
                if not trouble.is_damage(e):
                    raise
                continue
            if after != versions:
                changed.append(Upgraded(name, versions, after))
    return changed
