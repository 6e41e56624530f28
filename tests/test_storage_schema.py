"""Every component's schema made the two ways a file gets it -- directly (`Schema.current`, what a new
file gets) and step by step from the first migration (what a file of an older judge goes through) --
is the same, table by table and index by index; so is a data directory the first release wrote
(tests/data/upgrade/v1) once upgraded. This catches drift between the current schema and the steps.
And a file outside what this judge upgrades (newer, or older than the floor) is refused, untouched."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from judge.games import store
from judge.mail.federation import account_sync
from judge.mail.intake import archive
from judge.mail.screening import dispatch_store
from judge.mail.outbound import outbox
from judge.ops.upgrade import upgrade
from judge.storage.db import Schema, migrate, open_db, schema_version

SCHEMAS = [archive.SCHEMA, outbox.SCHEMA, dispatch_store.SCHEMA, account_sync.SCHEMA,
           store.JUDGE_SCHEMA, store.GAME_SCHEMA]
FIXTURE = Path(__file__).resolve().parent / "data" / "upgrade" / "v1"


def normalised(sql: str | None) -> str | None:
    """SQL as SQLite keeps it, without what does not change its meaning: comments, identifier quotes
    ([x], "x", `x`), runs of white space, spaces beside brackets and commas, a closing semicolon."""
    if sql is None:
        return None
    sql = re.sub(r"--[^\n]*", " ", sql)
    sql = re.sub(r'[\[\]"`]', "", sql)
    sql = re.sub(r"\s+", " ", sql).strip().rstrip(";").strip()
    return re.sub(r" ?([(),]) ?", r"\1", sql)


def shape(db) -> dict:
    """Each table, index and view: its normalised SQL, and for tables what SQLite reports of them
    (columns, foreign keys, indexes with their columns and collations)."""
    found = {}
    for kind, name, table, sql in db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name != 'schema_versions'"):
        found[(kind, name)] = (table, normalised(sql))
        if kind != "table":
            continue
        found[("columns", name)] = db.execute(f"PRAGMA table_xinfo([{name}])").fetchall()
        found[("foreign keys", name)] = sorted(db.execute(f"PRAGMA foreign_key_list([{name}])").fetchall())
        for _, index, unique, origin, partial in db.execute(f"PRAGMA index_list([{name}])").fetchall():
            found[("index of", name, index)] = (unique, origin, partial,
                                                db.execute(f"PRAGMA index_xinfo([{index}])").fetchall())
    return found


def made_new(path: Path, schema: Schema):
    db = open_db(path)
    migrate(db, schema)
    return db


def made_old(path: Path, schema: Schema):
    """A file as the judge at the floor left it (every step from the first), then upgraded."""
    db = open_db(path)
    migrate(db, schema.as_of(schema.floor))
    assert schema_version(db, schema.component) == schema.floor
    migrate(db, schema)
    return db


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.component)
def test_a_new_file_has_the_schema_an_old_file_is_migrated_to(schema, tmp_path):
    new, old = made_new(tmp_path / "new.sqlite", schema), made_old(tmp_path / "old.sqlite", schema)
    assert schema_version(new, schema.component) == schema_version(old, schema.component) == schema.version
    assert shape(new), "the component made no tables"
    assert shape(new) == shape(old)


def test_a_data_directory_of_the_first_release_upgrades_to_what_a_new_one_holds(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(FIXTURE, old)
    upgrade(old)
    upgrade(new)
    for path in (old / "judge.sqlite", new / "judge.sqlite"):
        assert path.exists()
    assert shape(open_db(old / "judge.sqlite")) == shape(open_db(new / "judge.sqlite"))
    game = store.open_game(new, "fresh", create=True)
    assert shape(open_db(old / "games" / "alpha.sqlite")) == shape(game)


@pytest.mark.parametrize("found", [3, 4, 9])
def test_a_file_newer_than_the_judge_or_older_than_its_floor_is_refused_untouched(found, tmp_path):
    def step(n):
        return lambda db: db[f"t{n}"].create({"x": int})
    schema = Schema("sample", [step(n) for n in range(8)], floor=5)
    db = open_db(tmp_path / "sample.sqlite")
    migrate(db, schema.as_of(min(found, 7)))     # (7 then set to 9: this process never saw it at 8)
    if found > 8:
        db["schema_versions"].update("sample", {"version": found})
    tables = db.table_names()
    with pytest.raises(RuntimeError) as refused:
        migrate(db, schema)
    words = "newer than this judge knows (8)" if found > 8 else "older than the oldest this judge upgrades (5)"
    assert f"sample schema version {found} is {words}" in str(refused.value)
    assert db.table_names() == tables and schema_version(db, "sample") == found


def test_a_file_at_the_floor_or_above_is_upgraded_step_by_step_and_a_new_one_made_at_once(tmp_path):
    made = []

    def step(n):
        def run(db):
            made.append(n)
            db[f"t{n}"].create({"x": int})
        return run
    schema = Schema("sample", [step(n) for n in range(8)], floor=5,
                    current=lambda db: [db[f"t{n}"].create({"x": int}) for n in range(8)])
    old = open_db(tmp_path / "old.sqlite")
    migrate(old, schema.as_of(5))
    made.clear()
    assert migrate(old, schema) == 8 and made == [5, 6, 7]
    new = open_db(tmp_path / "new.sqlite")
    assert migrate(new, schema) == 8 and made == [5, 6, 7]       # no step ran: the current schema at once
    assert schema_version(new, "sample") == 8 and shape(new) == shape(old)


def test_a_new_file_gets_its_current_schema_and_version_in_one_transaction(tmp_path):
    def current(db):
        db["first"].create({"x": int})
        raise OSError("the disk filled up half-way")
    schema = Schema("sample", [lambda db: db["first"].create({"x": int})], current=current)
    db = open_db(tmp_path / "sample.sqlite")
    with pytest.raises(OSError):
        migrate(db, schema)
    assert "first" not in db.table_names() and schema_version(db, "sample") == 0
    assert migrate(db, Schema("sample", schema.steps, current=schema.steps[0])) == 1
    assert "first" in db.table_names() and schema_version(db, "sample") == 1
