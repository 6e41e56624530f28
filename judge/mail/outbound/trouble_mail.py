"""Telling people about a game that cannot run (judge.games.trouble): the keeper (master_address)
with what SQLite or the engine said, the game's masters in plain words, and for a damaged file its
players too (they would otherwise wait for a deadline that never comes).

Each trouble is told once: the mails are queued and the trouble marked told in one transaction of
the judge file, under keys that make a second queueing of the same trouble do nothing.
"""
from __future__ import annotations

import hashlib
import logging

import sqlite_utils

from ...config import Config
from ...games import trouble
from ...games.accounts import Accounts
from ...storage.db import synchronous, transaction
from ..words.reports import Reports
from . import outgoing

log = logging.getLogger("judge.trouble")


def tell(config: Config, db: sqlite_utils.Database, reports: Reports | None = None) -> int:
    """Mail every trouble not told yet. `db`: a connection to the judge file (the outbox's). Returns
    how many troubles were told."""
    trouble.prepare(db)
    waiting = trouble.untold(db)
    if not waiting:
        return 0
    reports = reports or Reports()
    for t in waiting:
        with synchronous(db, "FULL"), transaction(db):    # durable before the sender sees it
            _tell_one(config, db, reports, t)
            trouble.mark_told(db, t)
    return len(waiting)


def _tell_one(config: Config, db: sqlite_utils.Database, reports: Reports,
              t: trouble.Trouble) -> None:
    key = f"trouble:{t.name}:{t.kind}:" + hashlib.sha256(f"{t.phase}\0{t.error}".encode()).hexdigest()[:16]
    if config.master_address:
        rendered = reports.render("keeper_game_trouble.j2", game=t.name, kind=t.kind, phase=t.phase,
                                  error=t.error, since=t.since)
        outgoing.send(db, config, rendered, key=f"{key}:keeper", to=[config.master_address])
    else:
        log.warning("game %s is %s and no master_address is configured to tell", t.name, t.kind)
    accounts = _masters(db, t.name)
    if t.kind == trouble.DAMAGED:
        accounts += [a for a in _players(db, t.name) if a not in accounts]
    addresses = sorted({a for account in accounts for a in _first_address(db, account)})
    if addresses:
        rendered = reports.render("trouble_players.j2", game=t.name, kind=t.kind, phase=t.phase,
                                  keeper=bool(config.master_address))
        # a mail each: no player learns another's address
        for address in addresses:
            outgoing.send(db, config, rendered, key=f"{key}:{address}", to=[address])
    log.warning("game %s is %s: told %s", t.name, t.kind,
                ", ".join(["the keeper"] * bool(config.master_address) + addresses) or "nobody")


def _masters(db: sqlite_utils.Database, name: str) -> list[str]:
    row = db.execute("SELECT master FROM game_index WHERE name = ?", [name]).fetchone()
    return [row[0]] if row and row[0] else []


def _players(db: sqlite_utils.Database, name: str) -> list[str]:
    return [r[0] for r in db.execute("SELECT DISTINCT account FROM game_powers WHERE name = ? AND account IS NOT NULL"
                                     " ORDER BY account", [name])]


def _first_address(db: sqlite_utils.Database, account: str) -> tuple[str, ...]:
    try:
        return Accounts(db).get(account).addresses[:1]
    except KeyError:
        return ()
