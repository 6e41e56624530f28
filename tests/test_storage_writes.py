"""Every write goes through storage.db.transaction (BEGIN IMMEDIATE, or a savepoint inside one): a game
played through the games layer -- accounts, forming, orders, press, votes, absences, master tools,
processing, a rollback -- and the files it creates, traced statement by statement on every
connection. No write runs outside a transaction, and sqlite-utils never opens one of its own (its
table API writes in a savepoint of the caller's transaction, or else in a plain deferred BEGIN)."""
from __future__ import annotations

import sqlite3

import pytest

from test_games_helpers import service, seven_player_game, submit

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


@pytest.fixture
def traced(monkeypatch):
    """(statement, in a transaction already) for every statement on every connection opened."""
    seen: list[tuple[str, bool]] = []
    connect = sqlite3.connect

    def tracing(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: seen.append((sql.strip(), conn.in_transaction)))
        return conn
    monkeypatch.setattr(sqlite3, "connect", tracing)
    return seen


def test_every_write_of_a_game_runs_in_the_judges_transaction(traced, tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "alpha")
    svc.set_access("alpha", allow=["p-france"])
    svc.promote("alpha", "p-england")
    submit(svc, "alpha", "FRANCE", "A PAR - BUR", "A MAR H", "F BRE - MAO")
    svc.send_press("alpha", "FRANCE", ["ENGLAND"], "hello", account="p-france")
    svc.vote_draw("alpha", "p-germany")
    svc.add_absence("alpha", "p-italy", "2026-03-10T00:00:00Z", "2026-03-12T00:00:00Z")
    svc.observe("alpha", "gm")
    svc.process("alpha")
    svc.rollback("alpha", "S1901M")
    writes = [(sql, inside) for sql, inside in traced if sql.split(None, 1)[0].upper() in WRITES]
    assert len(writes) > 50, "the game wrote almost nothing: the trace missed its connections"
    assert [sql for sql, inside in writes if not inside] == []
    assert [sql for sql, _ in traced if sql.upper().rstrip(";") in ("BEGIN", "BEGIN DEFERRED")] == []
    assert any(sql.startswith("SAVEPOINT sqlite_utils_") for sql, _ in traced)   # the table API did write
