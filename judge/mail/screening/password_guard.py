"""The one gate every password check goes through, so that a password cannot be guessed by mail.

Wrong passwords are counted per account and per source, and each count has its own backoff: after
`FREE` wrong ones within `WINDOW`, a password is checked again only `FIRST_WAIT` after the last
wrong one, then twice as long after each further one (up to `MAX_WAIT`). A password given while
a backoff runs is not checked at all (not even a right one), so guessing gains nothing.

Sources, because an attacker controls some of them cheaply: the envelope sender (free to change
with each mail), the From/Reply-To address (as free), and the IP address of the computer that sent
the mail (costly to change): the client that connected to the judge, or the one a trusted relay
named (judge.mail.intake.xforward). A relay's own address (the keeper's Postfix at 127.0.0.1) is
every mail's and is never counted: one guesser would shut everyone out. Rotating addresses is
stopped by the computer's and the account's counts; rotating computers too (a botnet) by the
account's count alone.

The account's backoff could be used to keep its owner from signing on by password, so mail from one
of the account's own addresses (`wait(own=True)`) is held back by that address's count alone, kept
per computer when the computer is known: a guesser writing from other addresses, or forging the
owner's from another computer, cannot refuse the owner; the owner is told of the guessing instead
(`should_tell_owner`). The computer's own count does not hold the owner back either: a large mail
provider's servers send for thousands of players. When no computer is known (LMTP or a relay that
names none) a forger of the owner's address can still hold it back; the owner gets those answers.
And the secret reply address (judge.mail.screening.tokens) never passes through here: answering the
judge's mail keeps working whatever happens to passwords.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlite_utils

from ...storage.db import transaction
from ..intake.xforward import client_address
from .dispatch_store import prepare

FREE = {"account": 5, "peer": 3, "envelope": 3, "from": 3}
FIRST_WAIT = 15 * 60.0
MAX_WAIT = 24 * 3600.0
WINDOW = 24 * 3600.0
TELL_EVERY = 3600.0     # the owner hears of wrong passwords at most once an hour


@dataclass(frozen=True)
class Source:
    """Where a mail came from, as far as the judge can tell."""
    sender: str                 # the address the reply goes to (Reply-To, else From)
    envelope: str | None = None   # MAIL FROM
    peer: str | None = None       # the sending computer's IP address, when known (never a relay's)

    @classmethod
    def of(cls, sender: str, mail_from: str | None, via: str | None, peer: str | None) -> Source:
        """From what intake stored: `peer` in its form (judge.mail.intake.xforward)."""
        return cls(sender.lower(), (mail_from or "").strip("<> ").lower(), client_address(via, peer))

    def subjects(self) -> list[str]:
        """What a wrong password from a stranger's address is counted against (besides the account)."""
        found = [f"from:{self.sender}"]
        if self.envelope is not None:
            found.append(f"envelope:{self.envelope}")
        if self.peer:
            found.append(f"peer:{self.peer}")
        return found

    def own_subject(self) -> str:
        """What holds back a password from one of the account's own addresses: that address, from this
        computer when known (a forger elsewhere counts against his own computer, not the owner's)."""
        return f"from:{self.sender} at {self.peer}" if self.peer else f"from:{self.sender}"

    def words(self) -> str:
        """The source for the owner and the master to read."""
        parts = [self.sender]
        if self.envelope and self.envelope != self.sender:
            parts.append(f"envelope sender {self.envelope}")
        if self.peer:
            parts.append(f"from the computer at {self.peer}")
        return ", ".join(parts)


class PasswordGuard:
    def __init__(self, db: sqlite_utils.Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        prepare(db)

    def _failures(self, subject: str, now: float) -> tuple[int, float]:
        row = self.db.execute("SELECT count(*), max(at) FROM guard_failures WHERE subject = ? AND at > ?",
                              [subject, now - WINDOW]).fetchone()
        return int(row[0]), float(row[1] or 0.0)

    def _wait(self, subject: str, now: float) -> float:
        count, last = self._failures(subject, now)
        free = FREE[subject.split(":", 1)[0]]
        if count < free:
            return 0.0
        return max(0.0, last + min(FIRST_WAIT * 2.0 ** (count - free), MAX_WAIT) - now)

    def wait(self, account: str, source: Source, *, own: bool = False) -> float:
        """Seconds until a password for this account from this source is checked again (0: now).
        `own`: the mail is from one of the account's addresses: then only that address's count (per
        computer, when known) holds it back, never the account's nor the computer's, which strangers
        fill (see the module's docstring)."""
        now = self.clock()
        subjects = [source.own_subject()] if own else [f"account:{account.lower()}", *source.subjects()]
        return max(self._wait(s, now) for s in subjects)

    def account_held(self, account: str) -> bool:
        """Strangers' wrong passwords hold this account's back now (its owner, writing from an own address,
        is not held by them, but should hear of them)."""
        return self._wait(f"account:{account.lower()}", self.clock()) > 0

    def failed(self, account: str, source: Source) -> int:
        """Record a wrong password; returns how many the account had within the window."""
        now = self.clock()
        subjects = [f"account:{account.lower()}", *source.subjects()]
        if source.peer:
            subjects.append(source.own_subject())
        with transaction(self.db):     # the two statements commit together
            self.db.conn.execute("DELETE FROM guard_failures WHERE at <= ?", [now - WINDOW])
            self.db.conn.executemany("INSERT INTO guard_failures (subject, at) VALUES (?, ?)",
                                     [(s, now) for s in subjects])
        return self._failures(subjects[0], now)[0]

    def should_tell_owner(self, account: str) -> bool:
        """True (and remembered) when the owner was not told of wrong passwords within the last hour."""
        now = self.clock()
        with transaction(self.db):
            told = self.db.conn.execute(
                "INSERT INTO guard_told (account, at) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET "
                "at = excluded.at WHERE guard_told.at <= ?", [account.lower(), now, now - TELL_EVERY]).rowcount
        return told == 1
