"""Secret reply addresses: `judge+<game>.<token>@domain`, one per player and game.

Every mail the judge sends a player carries the player's reply address as Reply-To. Mail that
comes back to it is from that player for that game, so orders in it need no password: the
token is the secret. Tokens live in judge.sqlite (judge.mail.screening.dispatch_store); they are random,
never derived from anything a stranger could know, and one (account, game) keeps one token
until it is revoked: SET PASSWORD, SET ADDRESS and SET NEWREPLY revoke all the account's,
EJECT and REPLACE the ousted player's for that game; the next mail carries a new one.

The address names the game before the token (`judge+spring26.k3v...@`; '.' cannot be in a game
name, store.check_game_name) so that the mail server in front of several judges can route a reply
to the host that owns the game (deploy/README.md, "Past one machine"). Only the token is secret, and
a token whose game part is not the game it was issued for is refused like an unknown one. A token
for no game in particular keeps the old form, `judge+<token>@`, as do addresses issued before the
game was put in them: both still count on the host that issued them.

A token counts only as an envelope recipient (`envelope_recipients`): the address the mail was
delivered to, never one merely written in To or Cc (an ally's reply-all names it there).
"""
from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import Message

import sqlite_utils

from ...storage.db import transaction
from .dispatch_store import prepare

_TOKEN = re.compile(r"[a-z0-9]{20}")
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
GAME_SEPARATOR = "."     # between the game and the token: no game name holds it


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
        row = self.db.execute(
            "SELECT token FROM reply_tokens WHERE account = ? AND game = ?", [account, key]
        ).fetchone()
        if row:
            return str(row[0])
        token = _new_token()
        sql = ("INSERT INTO reply_tokens (token, account, game, created_at) VALUES (?, ?, ?, ?) "
               "ON CONFLICT(account, game) DO NOTHING")
        with transaction(self.db):       # or a savepoint in the caller's transaction
            made = self.db.conn.execute(sql + " RETURNING token", [token, account, key, time.time()]).fetchall()
        if made:
            return str(made[0][0])
        # (another connection made one meanwhile: the one kept)
        return str(self.db.execute("SELECT token FROM reply_tokens WHERE account = ? AND game = ?",
                                   [account, key]).fetchone()[0])

    def address_for(self, account: str, game: str | None) -> str:
        token = self.token_for(account, game)
        return f"{self.local}+{game}{GAME_SEPARATOR}{token}@{self.domain}" if game else \
            f"{self.local}+{token}@{self.domain}"

    def _tokens_in(self, addresses: Iterable[str]) -> list[tuple[str | None, str]]:
        """(the game the address names or None, the token) of each address in the judge's form."""
        found = []
        for address in addresses:
            local, _, domain = str(address).strip().strip("<>").rpartition("@")
            base, plus, extension = local.partition("+")
            game, dot, token = extension.lower().rpartition(GAME_SEPARATOR)
            if plus and base.lower() == self.local.lower() and domain.lower() == self.domain.lower() \
                    and _TOKEN.fullmatch(token) and (game or not dot):
                found.append((game or None, token))
        return found

    def find(self, addresses: Iterable[str]) -> ReplyToken | None:
        """The token in the first of these addresses that is one of the judge's reply addresses (and,
        when the address names a game, the game the token was issued for)."""
        for game, token in self._tokens_in(addresses):
            row = self.db.execute("SELECT account, game FROM reply_tokens WHERE token = ?", [token]).fetchone()
            if row and (game is None or game == row[1]):
                return ReplyToken(token, row[0], row[1] or None)
        return None

    def stale(self, addresses: Iterable[str]) -> bool:
        """A reply address in the judge's form that is nobody's (any more): worth saying so."""
        return bool(self._tokens_in(addresses)) and self.find(addresses) is None


def _new_token() -> str:
    """20 letters and digits, each as likely as any: one draw from the system's random source, written
    in base 36 (drawing each letter on its own read the source 20 times or more: in a deadline rush,
    where every reader of a new game gets a token, 5 % of the courier's time)."""
    number = secrets.randbelow(len(_LETTERS) ** 20)
    letters = []
    for _ in range(20):
        number, digit = divmod(number, len(_LETTERS))
        letters.append(_LETTERS[digit])
    return "".join(letters)


def revoke(db: sqlite_utils.Database, account: str, game: str | None = None) -> int:
    """Forget the account's tokens (for one game, or all of them): mail to them no longer signs on."""
    prepare(db)
    sql, args = "DELETE FROM reply_tokens WHERE account = ?", [account]
    if game is not None:
        sql, args = sql + " AND game = ?", [account, game]
    with transaction(db):
        return db.conn.execute(sql, args).rowcount


def envelope_recipients(rcpt_tos: Iterable[str], via: str, mail: Message) -> list[str]:
    """Where the mail was delivered. By SMTP/LMTP: the envelope. By IMAP there is no envelope: the
    delivering server records it in the topmost Delivered-To (or X-Original-To) header, above any a
    sender wrote, so only that first one counts."""
    if via != "imap":
        return [str(a) for a in rcpt_tos]
    for header in ("Delivered-To", "X-Original-To"):
        values = mail.get_all(header) or []
        if values:
            return [str(values[0]).strip()]
    return []
