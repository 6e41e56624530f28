"""Takeovers the master approves (`approve_takeovers`, SET APPROVE TAKEOVERS ON): a JOIN or TAKE of a
power open for takeover is held (`takeover_requests`) and each master mailed to APPROVE or REJECT
it. APPROVE hands the power over as any takeover does (players.take_over: the taker gets the
hand-over mail, the other standbys are told it is taken); REJECT tells the taker politely and ends
its offer, so the tick asks the next standby. While a request waits, no other standby is asked
(judge.games.standby); a player who comes back first keeps the power and the request ends."""
from __future__ import annotations

from datetime import datetime

from . import players, standby
from .answers import NoticeKind
from .clock import iso
from .gamefile import GameFile
from .model import GameError


def needs_approval(gf: GameFile, account: str) -> bool:
    """A takeover waits for a master when the game says so and has a master other than the taker."""
    return gf.settings.approve_takeovers and any(m != account for m in gf.masters())


def request(gf: GameFile, power: str, account: str, now: datetime) -> None:
    """Hold the account's takeover of `power` and ask the masters (once per request: its key)."""
    if power not in standby.open_powers(gf):
        raise GameError(f"{power} is not open for takeover in {gf.name}")
    gf.db.execute("INSERT OR IGNORE INTO takeover_requests (power, account, at) VALUES (?, ?, ?)",
                  [power, account, iso(now)])
    at = gf.db.execute("SELECT at FROM takeover_requests WHERE power = ? AND account = ?",
                       [power, account]).fetchone()[0]
    for master in gf.masters():
        gf.notice(f"takeover:{power}:{account}:{at}", NoticeKind.TAKEOVER_REQUEST, master,
                  {"power": power, "account": account, "phase": gf.phase_now().phase}, now)


def waiting(gf: GameFile, account: str) -> list[str]:
    """The powers the account's takeovers wait for, oldest first (APPROVE decides the first)."""
    return [r[0] for r in gf.db.execute("SELECT power FROM takeover_requests WHERE account = ? ORDER BY at",
                                        [account])]


def decide(gf: GameFile, account: str, approve: bool, now: datetime) -> str:
    """A master's APPROVE (the power passes) or REJECT (the taker told, its offer over) of the
    account's waiting takeover. Returns the power."""
    row = gf.db.execute("SELECT power, at FROM takeover_requests WHERE account = ? ORDER BY at",
                        [account]).fetchone()
    if row is None:
        raise GameError(f"no takeover by {account} waits for your approval in {gf.name}")
    power, at = row
    if approve:
        players.take_over(gf, power, account, now)
        return str(power)
    gf.db.execute("DELETE FROM takeover_requests WHERE power = ? AND account = ?", [power, account])
    offer = gf.db.execute("SELECT sent_at FROM offers WHERE power = ? AND account = ?", [power, account]).fetchone()
    standby.offer_ended(gf, power, account, offer[0] if offer else at, "rejected", now)
    gf.db.execute("UPDATE offers SET expires_at = ? WHERE power = ? AND account = ?", [iso(now), power, account])
    return str(power)
