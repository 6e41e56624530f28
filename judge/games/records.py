"""A player's record across games, as njudge's dedication and webDiplomacy's reliability: phases
with orders on time, late (in the grace period) or missed, civil disorders, games finished and
abandoned.

Each game file keeps its own facts (`records`: one row per power and phase that needed orders,
and per player at the game's end), written in the same transaction as the phase they are about,
so a crash never counts a phase twice or not at all; a rollback's replaced phases drop out with
them. The judge file's `player_records` is a cache of each game's totals per account, rebuilt
from the game file whenever the games index is (GameService._reindex), as `game_index` is.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .gamefile import GameFile

KINDS = ("on_time", "late", "missed", "civil_disorder", "abandoned", "finished")


def note(gf: GameFile, seq: int, power: str, account: str | None, kind: str) -> None:
    if account is not None:
        # Raw SQL: per power per phase; sqlite-utils' insert(ignore=True) looks up the row it did not
        # insert with five more statements.
        gf.db.execute("INSERT OR IGNORE INTO records (seq, power, account, kind) VALUES (?, ?, ?, ?)",
                      [seq, power, account, kind])


def totals(gf: GameFile) -> dict[str, dict[str, int]]:
    """account -> kind -> count, over the phases that still count (rollbacks left out)."""
    out: dict[str, dict[str, int]] = {}
    for account, kind, n in gf.read(     # a join and an aggregate: SQL
            "SELECT r.account, r.kind, count(*) FROM records r JOIN phases p ON p.seq = r.seq"
            " WHERE p.rolled_back = 0 GROUP BY r.account, r.kind"):
        out.setdefault(account, dict.fromkeys(KINDS, 0))[kind] = n
    return out


@dataclass(frozen=True)
class Record:
    games: int
    on_time: int
    late: int
    missed: int
    civil_disorder: int
    abandoned: int
    finished: int

    @property
    def phases(self) -> int:
        return self.on_time + self.late + self.missed

    @property
    def reliability(self) -> float | None:
        """Per cent of the phases that needed its orders in which it sent them (None: no phase yet)."""
        return None if not self.phases else 100.0 * (self.on_time + self.late) / self.phases

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "phases": self.phases, "reliability": self.reliability}


def summed(rows: Iterable[tuple[int, ...]]) -> Record:
    """Rows of (games, on_time, late, missed, civil_disorder, abandoned, finished) summed."""
    total = [0] * 7
    for row in rows:
        total = [a + (b or 0) for a, b in zip(total, row, strict=True)]
    return Record(*total)
