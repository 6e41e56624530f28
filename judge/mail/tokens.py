"""Secret reply addresses: `judge+<token>@domain`, one per player and game.

Every mail the judge sends a player carries the player's reply address as Reply-To. Mail that
comes back to it is from that player for that game, so orders in it need no password: the
token is the secret. Tokens live in judge.sqlite (judge.mail.dispatch_store); they are random,
never derived from anything a stranger could know, and one (account, game) keeps one token.
"""
from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass

import sqlite_utils

from .dispatch_store import prepare

_TOKEN = re.compile(r"[a-z0-9]{20}")


@dataclass(frozen=True)
class ReplyToken:
    token: str
    account: str
    game: str | None


class ReplyTokens:
    def __init__(self, db: sqlite_utils.Database, judge_address: str) -> None:
        self.db = db
        prepare(db)
        self.local, _, self.domain = judge_address.rpartition("@")

    def token_for(self, account: str, game: str | None) -> str:
        """The player's token for this game, made on first use."""
        key = game or ""
        row = self.db.execute("SELECT token FROM reply_tokens WHERE account = ? AND game = ?", [account, key]).fetchone()
        if row:
            return row[0]
        token = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(20))
        sql = ("INSERT INTO reply_tokens (token, account, game, created_at) VALUES (?, ?, ?, ?) "
               "ON CONFLICT(account, game) DO NOTHING")
        if self.db.conn.in_transaction:
            self.db.conn.execute(sql, [token, account, key, time.time()])
        else:
            with self.db.conn:
                self.db.conn.execute(sql, [token, account, key, time.time()])
        return self.db.execute("SELECT token FROM reply_tokens WHERE account = ? AND game = ?",
                               [account, key]).fetchone()[0]

    def address_for(self, account: str, game: str | None) -> str:
        return f"{self.local}+{self.token_for(account, game)}@{self.domain}"

    def find(self, addresses: Iterable[str]) -> ReplyToken | None:
        """The token in the first of these addresses that is one of the judge's reply addresses."""
        for address in addresses:
            local, _, domain = address.strip().strip("<>").rpartition("@")
            base, plus, token = local.partition("+")
            if not plus or base.lower() != self.local.lower() or domain.lower() != self.domain.lower():
                continue
            token = token.lower()
            if not _TOKEN.fullmatch(token):
                continue
            row = self.db.execute("SELECT account, game FROM reply_tokens WHERE token = ?", [token]).fetchone()
            if row:
                return ReplyToken(token, row[0], row[1] or None)
        return None
