"""Players coming and going: who may act for a power, replacements, resignations, absences."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from . import processing, standby
from .answers import AbsenceSet, NoticeKind
from .clock import Absence, iso, move_past_absences
from .gamefile import GameFile
from .master import moved_past_absences, reschedule
from .model import GameError, GameStatus, PowerStatus, Refusal


def check_playing(gf: GameFile, power: str, account: str | None) -> None:
    """`account` (None: the judge itself) may act for `power` now. A paused game takes orders and
    press as a running one does: a pause only stops its clock (nothing is played until RESUME)."""
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(why=Refusal.NOT_TAKING_ORDERS, game=gf.name, status=gf.status.value)
    powers = gf.powers()
    if power not in powers or powers[power].neutral:
        raise GameError(why=Refusal.NOBODY_PLAYS, game=gf.name, power=power)
    pr = powers[power]
    if account is not None and account != pr.account and account not in gf.masters():
        raise GameError(why=Refusal.NOT_THEIRS, game=gf.name, power=power, account=account)
    if pr.status in (PowerStatus.RESIGNED, PowerStatus.ELIMINATED) or pr.account is None:
        raise GameError(why=Refusal.POWER_GONE, power=power, status=pr.status.value)


def take_over(gf: GameFile, power: str, account: str, now: datetime) -> None:
    """A replacement takes an abandoned or resigned power (or one its master SEEKs a player for), and
    gets a full phase for its orders, and the game's excused misses afresh (judge.games.excuses: they
    are the player's, kept on the seat)."""
    pr = gf.powers().get(power)
    sought = pr is not None and power in standby.sought(gf) and pr.status is not PowerStatus.ELIMINATED
    if pr is None or pr.neutral or not (sought or pr.status in (PowerStatus.ABANDONED, PowerStatus.RESIGNED)):
        raise GameError(f"{power} is not open for takeover in {gf.name}")
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(f"{gf.name} is {gf.status.value}")
    gf.set_power(power, account=account, status=PowerStatus.ACTIVE, missed=0, waiting=0, excuses_used=0)
    standby.withdraw(gf, power, now, "taken", taker=account)
    row = gf.phase_now()
    gf.power_event(power, account, "replaced", now, row.phase)
    full = moved_past_absences(gf, now + timedelta(hours=gf.settings.phase_hours(row.position.phase.kind.value)))
    deadline = row.deadline
    if deadline is not None and full > deadline:
        gf.set_deadline(row.seq, full)
        deadline = full
    _announce_replacement(gf, f"{row.seq}:{power}:{iso(now)}", {"power": power, "account": account,
                          "phase": row.phase, "previous": pr.account}, now, deadline,
                          ousted=pr.account if sought and pr.status not in (PowerStatus.ABANDONED,
                                                                            PowerStatus.RESIGNED) else None)
    reschedule(gf, now)


def _announce_replacement(gf: GameFile, key: str, payload: dict[str, Any], now: datetime,
                          deadline: datetime | None, ousted: str | None) -> None:
    """Everyone is told who now plays the power; in a QUIET game (njudge's) only the new player and
    the masters are, the others only that it has a player again. A player the master replaced
    (SEEK) is told too: it plays the power no more."""
    everyone = [*gf.recipients(), *([ousted] if ousted and ousted not in gf.recipients() else [])]
    named = {payload["account"], *gf.masters()} if gf.settings.quiet else set(everyone)
    payload = {**payload, "ousted": ousted}
    gf.announce(key, NoticeKind.REPLACEMENT, payload, now, deadline, recipients=[r for r in everyone if r in named])
    gf.announce(key, NoticeKind.REPLACEMENT, {**payload, "account": None, "previous": None, "quiet": True}, now,
                deadline, recipients=[r for r in everyone if r not in named])


def resign(gf: GameFile, power: str, account: str | None, now: datetime) -> None:
    check_playing(gf, power, account)
    pr = gf.powers()[power]
    gf.set_power(power, status=PowerStatus.RESIGNED, waiting=0)
    gf.power_event(power, pr.account, "resigned", now, gf.phase_now().phase)
    gf.announce(f"{gf.phase_now().seq}:{power}:{iso(now)}", NoticeKind.RESIGNED,
                {"power": power, "open_for_takeover": True, "by_master": account is None}, now)
    reschedule(gf, now)


def returned(gf: GameFile, power: str, now: datetime) -> None:
    """Orders from an abandoned power's own player, before anyone took it over: they play on."""
    pr = gf.powers()[power]
    if pr.status is PowerStatus.ABANDONED:
        gf.set_power(power, status=PowerStatus.ACTIVE, missed=0)
        standby.withdraw(gf, power, now, "returned")
        gf.power_event(power, pr.account, "returned", now, gf.phase_now().phase)
        gf.announce(f"{gf.phase_now().seq}:{power}:{iso(now)}", NoticeKind.RETURNED, {"power": power}, now)


def add_absence(gf: GameFile, account: str, starts: datetime, ends: datetime, by_master: bool,
                now: datetime) -> AbsenceSet:
    """An absence moves a deadline falling in it to `after_absence_hours` after its end. A player may
    set one of at most `max_absence_days`; the master may set any."""
    if ends <= starts or ends <= now:
        raise GameError(why=Refusal.ABSENCE_BACKWARDS)
    if not by_master:
        if gf.settings.max_absence_days <= 0:
            raise GameError(why=Refusal.NO_ABSENCES, game=gf.name)
        if (ends - starts) > timedelta(days=gf.settings.max_absence_days):
            raise GameError(why=Refusal.ABSENCE_TOO_LONG, days=f"{gf.settings.max_absence_days:g}")
        if not gf.powers_of(account):
            raise GameError(why=Refusal.PLAYS_NO_POWER, game=gf.name, account=account)
    gf.db.table("absences").insert({"account": account, "starts": iso(starts), "ends": iso(ends),
                              "set_by": "master" if by_master else "player", "at": iso(now)})
    out = AbsenceSet(starts=iso(starts), ends=iso(ends))
    row = gf.current()
    if gf.status is GameStatus.ACTIVE and row and row.deadline:
        moved = move_past_absences(gf.settings, row.deadline, [Absence(starts, ends)])
        waited_for = {gf.powers()[p].account for p in processing.expected(gf, row.position)}
        if moved != row.deadline and account in waited_for:
            gf.set_deadline(row.seq, moved)
            gf.announce(f"{row.seq}:{iso(moved)}", NoticeKind.DEADLINE_MOVED,
                        {"phase": row.phase, "reason": "absence", "account": account}, now, moved)
            out = replace(out, deadline_moved=True, deadline=iso(moved))
        reschedule(gf, now)
    return out
