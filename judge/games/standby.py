"""Replacements that find people: a power open for takeover (abandoned or resigned) is offered by
mail to the accounts on the standby list (STANDBY) for its variant, the most reliable first, one
at a time for the game's `offer_hours` each, or to all of them at once (`offer_hours` 0). An offer
is only an invitation: the first standby to JOIN the game for that power takes it as any
replacement does (players.take_over); a player who comes back first keeps it, and the offers still
out are withdrawn (their rows dropped, so a later JOIN finds no power open and is told so).

The judge file keeps the list (`standbys`); each game file keeps its offers (`offers`), written in
the same transaction as the offer's notice, whose key names the offer: a restart neither loses an
offer nor mails one twice. The scheduler's tick (GameService.run_due) calls `offer_open_powers`."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlite_utils

from . import access
from .answers import NoticeKind
from .clock import iso, parse_time
from .gamefile import GameFile
from .model import GameError, GameStatus, PowerStatus
from .records import Record
from ..storage.db import transaction

ANY = "ANY"


def read_variants(text: str | None) -> str:
    """The stored spelling of what a standby takes: ANY, or variant ids, lower case, comma-separated."""
    words = sorted({w.strip().lower() for w in (text or "").replace(" ", ",").split(",") if w.strip()})
    return ANY if not words or "any" in words else ",".join(words)


def takes(variants: str, variant: str) -> bool:
    return variants == ANY or variant.lower() in variants.split(",")


def set_standby(judge: sqlite_utils.Database, account: str, variants: str | None, now: datetime) -> None:
    """Put the account on the list for `variants` (read_variants' spelling), or take it off (None)."""
    with transaction(judge):
        judge.execute("DELETE FROM standbys WHERE account = ?", [account])
        if variants is not None:
            judge.execute("INSERT INTO standbys (account, variants, since) VALUES (?, ?, ?)",
                          [account, variants, iso(now)])


def standby_of(judge: sqlite_utils.Database, account: str) -> str | None:
    row = judge.execute("SELECT variants FROM standbys WHERE account = ?", [account]).fetchone()
    return None if row is None else str(row[0])


def ranked_standbys(judge: sqlite_utils.Database, variant: str) -> list[str]:
    """The standbys who take `variant`, most reliable first (per cent of phases with orders sent,
    judge.games.records; an account with no phase yet after those with one), then by time on the list."""
    rows = judge.execute(     # an aggregate over every game's records: SQL
        "SELECT s.account, s.variants, sum(r.on_time + r.late), sum(r.on_time + r.late + r.missed)"
        " FROM standbys s LEFT JOIN player_records r ON r.account = s.account"
        " GROUP BY s.account ORDER BY s.since, s.account").fetchall()
    ranked = [(-(sent / phases) if phases else 1.0, i, account)
              for i, (account, variants, sent, phases) in enumerate(rows) if takes(variants, variant)]
    return [account for *_, account in sorted(ranked)]


def games_with_open_powers(judge: sqlite_utils.Database) -> list[str]:
    """Games whose index shows a power open for takeover (game_powers, a cache of the files); none
    at all when nobody is on the list, the usual case, so a tick costs one query."""
    if judge.execute("SELECT 1 FROM standbys LIMIT 1").fetchone() is None:
        return []
    return [r[0] for r in judge.execute(
        "SELECT DISTINCT p.name FROM game_powers p JOIN game_index g ON g.name = p.name"
        " WHERE p.status IN (?, ?) AND g.status = ? ORDER BY p.name",
        [PowerStatus.ABANDONED.value, PowerStatus.RESIGNED.value, GameStatus.ACTIVE.value])]


def open_powers(gf: GameFile) -> list[str]:
    """The powers a replacement may take now."""
    if gf.status is not GameStatus.ACTIVE:
        return []
    return sorted(p for p, pr in gf.powers().items()
                  if not pr.neutral and pr.status in (PowerStatus.ABANDONED, PowerStatus.RESIGNED))


def may_take(gf: GameFile, account: str, record: Record) -> bool:
    """Whether a JOIN by the account would be let in: never offer what it could not take (the deny
    list, a private game it is not invited to, the game's minimum record)."""
    try:
        access.check_may_join(gf, account, None)
        access.check_record(gf, record)
    except GameError:
        return False
    return True


def withdraw(gf: GameFile, power: str) -> None:
    """The power has a player again (taken over, or its own came back): its offers end now, so that
    if it is ever open again every standby is asked afresh."""
    gf.db.execute("DELETE FROM offers WHERE power = ?", [power])


def offer_open_powers(gf: GameFile, standbys: Sequence[str], now: datetime) -> list[tuple[str, str]]:
    """Offer each open power to the next standby (`standbys`: those for this game's variant, most
    reliable first), if none holds a live offer for it. Offers of powers no longer open are dropped.
    Returns the (power, account) offers made."""
    open_ = open_powers(gf)
    if open_:
        gf.db.execute(f"DELETE FROM offers WHERE power NOT IN ({','.join('?' * len(open_))})", open_)
    else:
        gf.db.execute("DELETE FROM offers")
        return []
    seated = {pr.account for pr in gf.powers().values() if pr.account} | set(gf.masters())
    hours = gf.settings.offer_hours
    made: list[tuple[str, str]] = []
    for power in open_:
        asked = {a: (None if e is None else parse_time(e)) for a, e in gf.db.execute(
            "SELECT account, expires_at FROM offers WHERE power = ?", [power])}
        live = any(e is None or e > now for e in asked.values())
        fresh = [a for a in standbys if a not in seated and a not in asked]
        if hours <= 0:
            chosen = fresh                              # ALL: everyone not yet asked, at once
        elif live or not fresh:
            chosen = []
        else:
            chosen = fresh[:1]
        expires = None if hours <= 0 else now + timedelta(hours=hours)
        for account in chosen:
            gf.db.table("offers").insert({"power": power, "account": account, "sent_at": iso(now),
                                          "expires_at": None if expires is None else iso(expires)})
            gf.notice(f"offer:{power}:{iso(now)}", NoticeKind.OFFER, account,
                      {"power": power, "phase": gf.phase_now().phase, "hours": hours,
                       "expires": gf.times(expires, account)}, now)
            made.append((power, account))
    return made
