"""Games the judge cannot run for now, kept in judge.sqlite so that one game's trouble never stops another's.

Two kinds:
- `damaged`: the game's file is not sound SQLite (bytes flipped, truncated, not a database). The game
  is left alone: not scheduled, not written, its players answered plainly. It stays damaged until its
  file changes (a backup restored): the next start-up sweep checks the file again and clears the mark.
- `held`: the engine raised while playing the game's current phase. The game is not woken again in
  this process (no retry loop); the next start of the judge (a fixed one, say) plays the phase again.

Each trouble is told once (`told`) to the game's master and the keeper by the mail layer, which reads
`untold` here (judge.mail.outbound.trouble_mail). A trouble that comes back the same after a restart
(same kind, phase and error) is not told again.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import sqlite_utils

from ..storage.db import Schema, create_table, migrate, transaction
from .model import GameError

COMPONENT = "trouble"
DAMAGED, HELD = "damaged", "held"

# SQLite's primary result codes for a file that is not sound: SQLITE_CORRUPT, SQLITE_NOTADB.
_DAMAGE_CODES = {11, 26}


def _v1(db: sqlite_utils.Database) -> None:
    # kind: damaged or held; phase: the phase that could not be played (held); error: what SQLite or the
    # engine said, for the keeper (never for a player); told: whether the master and keeper were mailed
    create_table(db, "game_trouble", {"name": str, "kind": str, "phase": str, "error": str, "since": str,
                                      "told": int}, pk="name", nullable={"phase"}, defaults={"told": 0})


SCHEMA = Schema(COMPONENT, [_v1], current=_v1)


class GameDamaged(GameError):
    """The game's file is damaged. str(e) is the sentence its players are told."""

    def __init__(self, name: str) -> None:
        super().__init__(f"game {name} is unavailable: its file is damaged; the keeper has been told")
        self.name = name


@dataclass(frozen=True)
class Trouble:
    name: str
    kind: str
    phase: str | None
    error: str
    since: str
    told: bool


def is_damage(error: BaseException) -> bool:
    """Whether SQLite said the file itself is unsound (not: locked, full, read-only)."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    text = str(error)
    return "malformed" in text or "not a database" in text


def prepare(db: sqlite_utils.Database) -> None:
    migrate(db, SCHEMA)


def mark(db: sqlite_utils.Database, name: str, kind: str, error: str, now: str, phase: str | None = None) -> bool:
    """Record the game's trouble. True if it is news (not the same trouble already recorded)."""
    error = error[:500]
    with transaction(db):
        row = db.execute("SELECT kind, phase, error FROM game_trouble WHERE name = ?", [name]).fetchone()
        if row is not None and tuple(row) == (kind, phase, error):
            return False
        db.execute("INSERT OR REPLACE INTO game_trouble (name, kind, phase, error, since, told)"
                   " VALUES (?, ?, ?, ?, ?, 0)", [name, kind, phase, error, now])
    return True


def clear(db: sqlite_utils.Database, name: str, kind: str | None = None) -> bool:
    """The game runs again (its phase was played, its file is sound). True if it had a trouble."""
    if not db["game_trouble"].exists():
        return False
    with transaction(db):
        cur = db.execute("DELETE FROM game_trouble WHERE name = ? AND (? IS NULL OR kind = ?)", [name, kind, kind])
    return cur.rowcount > 0


def of(db: sqlite_utils.Database, name: str) -> Trouble | None:
    row = db.execute("SELECT name, kind, phase, error, since, told FROM game_trouble WHERE name = ?",
                     [name]).fetchone()
    return Trouble(row[0], row[1], row[2], row[3], row[4], bool(row[5])) if row else None


def damaged(db: sqlite_utils.Database) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM game_trouble WHERE kind = ?", [DAMAGED])}


def everything(db: sqlite_utils.Database) -> list[Trouble]:
    return [Trouble(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in db.execute(
        "SELECT name, kind, phase, error, since, told FROM game_trouble ORDER BY name")]


def untold(db: sqlite_utils.Database) -> list[Trouble]:
    return [t for t in everything(db) if not t.told]


def mark_told(db: sqlite_utils.Database, trouble: Trouble) -> None:
    """Told, unless the trouble changed meanwhile (then the new one is told too)."""
    with transaction(db):
        db.execute("UPDATE game_trouble SET told = 1 WHERE name = ? AND kind = ? AND phase IS ? AND error = ?",
                   [trouble.name, trouble.kind, trouble.phase, trouble.error])
