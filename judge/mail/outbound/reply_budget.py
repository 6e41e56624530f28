"""How much of one mail is read, and how much the judge writes back: bounds against amplification.

600 KB of `HELP` lines once made a 146 MB reply to a forged address, and 80,000 order lines held
the only processing thread for 41 s. Now a mail is read up to `limits.lines_read` lines and
`limits.commands_run` commands (the reply says what was not read), a reply is cut at
`limits.reply_bytes`, and an address no account has gets at most `limits.stranger_bytes` of
replies an hour (beyond that the judge is silent, and says why in the message's outcome).
"""
from __future__ import annotations

import time
from collections.abc import Iterable

import sqlite_utils

from ...config import LimitsConfig
from ...language import CommandItem, OrderBlock, OrderError
from . import outbox


def first_lines(text: str, limit: int) -> tuple[str, int]:
    """The first `limit` lines, and how many were left unread."""
    lines = text.split("\n", limit)
    if len(lines) <= limit:
        return text, 0
    rest = lines.pop()
    return "\n".join(lines), rest.count("\n") + 1


Item = CommandItem | OrderBlock | OrderError      # what a mail's lines read as (judge.language.Message.items)


def bounded_commands(items: Iterable[Item], limit: int) -> tuple[list[Item], int]:
    """Every item, except the commands after the first `limit`; and how many commands were dropped."""
    kept: list[Item] = []
    commands, dropped = 0, 0
    for item in items:
        if isinstance(item, CommandItem):
            commands += 1
            if commands > limit:
                dropped += 1
                continue
        kept.append(item)
    return kept, dropped


def not_read_entry(limits: LimitsConfig, lines_unread: int, commands_dropped: int) -> dict[str, object] | None:
    """The reply's word on what was not read, as one of its error entries; None when all was read."""
    parts = []
    if lines_unread:
        parts.append(f"only the first {limits.lines_read} lines were read; the other {lines_unread} were not")
    if commands_dropped:
        parts.append(f"only the first {limits.commands_run} commands were carried out; "
                     f"the other {commands_dropped} were not")
    if not parts:
        return None
    return {"kind": "error", "line": limits.lines_read if lines_unread else "-", "text": "(the rest of the mail)",
            "problem": "; ".join(parts), "expected": "send the rest in another mail", "suggestions": []}


def cut_reply(body: str, limit: int) -> str:
    """The reply's text within `limit` bytes, cut at a line, saying that it was cut."""
    data = body.encode("utf-8")
    if len(data) <= limit:
        return body
    room = max(0, limit - 200)        # the note below fits in what is left
    kept = data[:room].decode("utf-8", "ignore").rpartition("\n")[0]
    return (kept + f"\n\n[The rest of this reply ({len(data) - len(kept.encode('utf-8'))} bytes) was cut:"
            " it was longer than the judge sends in one mail.]\n")


def stranger_over_budget(db: sqlite_utils.Database, limits: LimitsConfig, address: str, size: int,
                         now: float | None = None) -> str | None:
    """Why a reply of `size` bytes to `address` (no account's address) must not be sent; None if it may."""
    now = time.time() if now is None else now
    used = outbox.sent_to_recently(db, address, now - 3600)
    if used + size > limits.stranger_bytes:
        return (f"the hourly reply budget for {address}, an address no account has, is spent "
                f"({used} of {limits.stranger_bytes} bytes in the last hour)")
    return None
