"""Diaries (njudge's DIARY): a player's own notes on a game, kept in the game file, numbered per
power and player in the order written (a deleted number is not used again), shown to nobody else
while the game runs. When it ends they are shown to everyone, in a notice of their own, unless the
game's setting keeps them private (`diaries_revealed`); after the end DIARY LIST shows them all."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from .answers import DiaryEntry, NoticeKind
from .clock import iso
from .gamefile import GameFile
from .model import GameError, GameStatus, Refusal


def kept(gf: GameFile, source: str | None) -> int | None:
    """The number of the entry a mail read before kept, if it did."""
    done = gf.db.execute("SELECT number FROM diary WHERE source = ?", [source]).fetchone() if source else None
    return None if done is None else int(done[0])


def record(gf: GameFile, power: str, account: str | None, body: str, source: str | None, now: datetime) -> int:
    """The new entry's number (the caller has checked that `account` plays `power`)."""
    last = gf.db.execute("SELECT max(number) FROM diary WHERE power = ? AND account IS ?", [power, account]).fetchone()
    number = int(last[0] or 0) + 1
    row = gf.current()
    gf.db.table("diary").insert({"power": power, "account": account, "number": number, "at": iso(now),
                                 "phase": gf.phase_code(row.position) if row else None, "body": body,
                                 "source": source})
    return number


def entries(gf: GameFile, power: str, account: str | None) -> list[DiaryEntry]:
    """The player's own entries for the power, oldest first."""
    return [_entry(r) for r in gf.db["diary"].rows_where("power = ? AND account IS ? AND deleted = 0",
                                                           [power, account], order_by="number")]


def delete(gf: GameFile, power: str, account: str | None, number: int) -> None:
    done = gf.db.execute("UPDATE diary SET deleted = 1 WHERE power = ? AND account IS ? AND number = ?"
                         " AND deleted = 0", [power, account, number]).rowcount
    if not done:
        raise GameError(why=Refusal.NO_DIARY_ENTRY, game=gf.name, number=number)


def revealed(gf: GameFile) -> list[DiaryEntry]:
    """Every player's entries, once the game is over and its diaries are to be shown."""
    if gf.status is not GameStatus.FINISHED:
        raise GameError(why=Refusal.DIARIES_UNTIL_THE_END, game=gf.name)
    if not gf.settings.diaries_revealed:
        raise GameError(why=Refusal.DIARIES_PRIVATE, game=gf.name)
    return [_entry(r) for r in gf.db["diary"].rows_where("deleted = 0", order_by="power, account, number")]


def reveal_at_end(gf: GameFile, key: str, now: datetime) -> None:
    """The diaries to everyone as the game ends (a game whose setting keeps them private: nothing)."""
    if not gf.settings.diaries_revealed:
        return
    shown = [_json(e) for e in revealed(gf)]
    if shown:
        gf.announce(f"{key}:diaries", NoticeKind.DIARIES, {"entries": shown}, now)


def _entry(r: dict[str, Any]) -> DiaryEntry:
    return DiaryEntry(r["power"], r["account"], int(r["number"]), r["phase"], r["at"], r["body"])


def _json(e: DiaryEntry) -> dict[str, Any]:
    return {"power": e.power, "account": e.account, "number": e.number, "phase": e.phase, "at": e.at,
            "body": e.body}
