"""Replacements that find people: a power open for takeover (abandoned or resigned) is offered by
mail to the accounts on the standby list (STANDBY) for its variant, the most reliable first, one
at a time for the game's `offer_hours` each, or to all of them at once (`offer_hours` 0). An offer
is only an invitation: the first standby to JOIN the game for that power takes it as any
replacement does (players.take_over); a player who comes back first keeps it, and the offers still
out are withdrawn (their rows dropped, so a later JOIN finds no power open and is told so).

The judge file keeps the list (`standbys`); each game file keeps its offers (`offers`), written in
the same transaction as the offer's notice, whose key names the offer: a restart neither loses an
offer nor mails one twice. The scheduler's tick (GameService.run_due; the daemon's is
judge.mail.serve_hooks.Tick) calls `offer_open_powers`.

A master may SEEK a player for a power still played (`seeking`): it is open for takeover like an
abandoned one until someone takes it or the master stops. Every standby whose offer ends (run out,
the power taken or its player back, a takeover the master rejected) is told once: the notice's key
names the offer."""
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
SOUGHT = "sought"       # game_powers' mark (an index, not a PowerStatus) of a power its master SEEKs a player for


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
        " WHERE p.status IN (?, ?, ?) AND g.status = ? ORDER BY p.name",
        [PowerStatus.ABANDONED.value, PowerStatus.RESIGNED.value, SOUGHT, GameStatus.ACTIVE.value])]


def sought(gf: GameFile) -> set[str]:
    """The powers the master SEEKs a player for while their own still plays them."""
    return {r[0] for r in gf.read("SELECT power FROM seeking")}


def open_powers(gf: GameFile) -> list[str]:
    """The powers a replacement may take now: abandoned, resigned, or sought by the master."""
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return []
    seeking = sought(gf)
    return sorted(p for p, pr in gf.powers().items()
                  if not pr.neutral and (pr.status in (PowerStatus.ABANDONED, PowerStatus.RESIGNED)
                                         or (p in seeking and pr.status is not PowerStatus.ELIMINATED)))


def seek(gf: GameFile, power: str, on: bool, now: datetime) -> None:
    """The master's SEEK: offer a power still played to the standbys (its player plays on until
    someone takes it); `on` False stops, and the offers out are withdrawn."""
    pr = gf.powers().get(power)
    if gf.status is not GameStatus.ACTIVE:
        raise GameError(f"{gf.name} is {gf.status.value}: no power is offered now")
    if pr is None or pr.neutral or pr.status is PowerStatus.ELIMINATED:
        raise GameError(f"nobody plays {power} in {gf.name}")
    if on:
        gf.db.execute("INSERT OR IGNORE INTO seeking (power, since) VALUES (?, ?)", [power, iso(now)])
    else:
        withdraw(gf, power, now, "closed")


def may_take(gf: GameFile, account: str, record: Record) -> bool:
    """Whether a JOIN by the account would be let in: never offer what it could not take (the deny
    list, a private game it is not invited to, the game's minimum record)."""
    try:
        access.check_may_join(gf, account, None)
        access.check_record(gf, record)
    except GameError:
        return False
    return True


def withdraw(gf: GameFile, power: str, now: datetime, why: str, taker: str | None = None) -> None:
    """The power is open no more (`why`: "taken", its own player "returned", or "closed"): its offers
    and requests end now, so that if it is ever open again every standby is asked afresh. Each
    standby holding a live offer or waiting for the master's approval, but the taker, is told."""
    told: dict[str, str] = {}
    for account, sent_at, expires in gf.db.execute(
            "SELECT account, sent_at, expires_at FROM offers WHERE power = ?", [power]).fetchall():
        if expires is None or parse_time(expires) > now:
            told[account] = sent_at
    for account, at in gf.db.execute("SELECT account, at FROM takeover_requests WHERE power = ?", [power]).fetchall():
        told.setdefault(account, at)
    for account, since in told.items():
        if account != taker:
            offer_ended(gf, power, account, since, why, now)
    for table in ("offers", "takeover_requests", "seeking"):
        gf.db.execute(f"DELETE FROM {table} WHERE power = ?", [power])


def offer_ended(gf: GameFile, power: str, account: str, since: str, why: str, now: datetime) -> None:
    """Tell a standby its offer (made at `since`) is over, and why: "expired", "taken", "returned",
    "closed" or "rejected". Once per offer: the key names it, whichever way it ended first."""
    row = gf.current()
    gf.notice(f"offer-ended:{power}:{since}", NoticeKind.OFFER_ENDED, account,
              {"power": power, "why": why, "phase": row.phase if row else None}, now)


def offer_open_powers(gf: GameFile, standbys: Sequence[str], now: datetime) -> list[tuple[str, str]]:
    """Offer each open power to the next standby (`standbys`: those for this game's variant, most
    reliable first), if none holds a live offer for it. Offers of powers no longer open are dropped.
    Returns the (power, account) offers made."""
    open_ = open_powers(gf)
    for power, account, sent_at, expires in gf.db.execute(
            "SELECT power, account, sent_at, expires_at FROM offers ORDER BY power").fetchall():
        if power not in open_:
            withdraw(gf, power, now, "closed")
        elif expires is not None and parse_time(expires) <= now and not _waiting(gf, power, account):
            offer_ended(gf, power, account, sent_at, "expired", now)
    if not open_:
        return []
    seated = {pr.account for pr in gf.powers().values() if pr.account} | set(gf.masters())
    seeking = sought(gf) - {p for p, pr in gf.powers().items() if pr.status in (PowerStatus.ABANDONED,
                                                                                 PowerStatus.RESIGNED)}
    hours = gf.settings.offer_hours
    made: list[tuple[str, str]] = []
    for power in open_:
        asked = {a: (None if e is None else parse_time(e)) for a, e in gf.db.execute(
            "SELECT account, expires_at FROM offers WHERE power = ?", [power])}
        live = any(e is None or e > now for e in asked.values()) or _waiting(gf, power)
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
            # the offers this standby had of this power before: a power withdrawn and offered again
            # within one second is a new offer (and a retry after a crash counts the same, so it is
            # still written once)
            before = gf.db.execute("SELECT count(*) FROM notices WHERE id LIKE ? AND recipient = ?",
                                   [f"{gf.name}:offer:{power}:%", account]).fetchone()[0]
            gf.notice(f"offer:{power}:{iso(now)}:{before}", NoticeKind.OFFER, account,
                      {"power": power, "phase": gf.phase_now().phase, "hours": hours, "sought": power in seeking,
                       "expires": gf.times(expires, account)}, now)
            made.append((power, account))
    return made


def _waiting(gf: GameFile, power: str, account: str | None = None) -> bool:
    """Whether a takeover of `power` (by `account`, or anyone) waits for the master's APPROVE: the
    offer is held meanwhile, and nobody else is asked."""
    return gf.db.execute("SELECT 1 FROM takeover_requests WHERE power = ? AND account = coalesce(?, account)",
                         [power, account]).fetchone() is not None
