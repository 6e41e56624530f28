"""Who reads a game's public news: observers (in judge.sqlite), and which accounts a public
notice must still reach because no personal copy of the same news was written for them."""
from __future__ import annotations

from datetime import datetime

import sqlite_utils

from .clock import iso
from .gamefile import GameFile
from ..storage.db import transaction


def observe(judge: sqlite_utils.Database, game: str, account: str, now: datetime) -> bool:
    """True if the account was added now, False if it already observed the game."""
    with transaction(judge):      # raw SQL: the statement's row count says whether it was added
        return judge.execute("INSERT INTO observers (name, account, since) VALUES (?, ?, ?) "
                             "ON CONFLICT(name, account) DO NOTHING", [game, account, iso(now)]).rowcount == 1


def stop_observing(judge: sqlite_utils.Database, game: str, account: str) -> bool:
    with transaction(judge):      # raw SQL: the statement's row count says whether one was removed
        return judge.execute("DELETE FROM observers WHERE name = ? AND account = ?", [game, account]).rowcount == 1


def observers(judge: sqlite_utils.Database, game: str) -> list[str]:
    return [r["account"] for r in judge["observers"].rows_where("name = ?", [game], order_by="account",
                                                                select="account")]


def public_audience(gf: GameFile, notice_id: str, watching: list[str]) -> list[str]:
    """The accounts a public notice (recipient None) goes to: every player, the master and every
    observer, less those who got their own copy of the same news (`game:key:kind:<account>`)."""
    prefix = notice_id.rpartition(":")[0] + ":"
    personal = {r[0] for r in gf.db.execute(      # a match on an expression of two columns: SQL
        "SELECT recipient FROM notices WHERE recipient IS NOT NULL AND id = ? || recipient", [prefix])}
    everyone = [r for r in gf.recipients() if r] + watching
    seen: set[str] = set()
    out = []
    for account in everyone:
        if account not in personal and account not in seen:
            seen.add(account)
            out.append(account)
    return out
