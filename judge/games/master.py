"""The game master's tools over time: pause, resume, deadlines moved, rollback."""
from __future__ import annotations

import json
from datetime import datetime

from . import processing
from .clock import iso, move_past_absences, parse_time
from .gamefile import GameFile
from .model import GameError, GameStatus, PowerStatus


def moved_past_absences(gf: GameFile, deadline: datetime) -> datetime:
    accounts = [gf.powers()[p].account for p in processing.expected(gf, gf.current().position)]
    return move_past_absences(gf.settings, deadline, gf.absences(accounts))


def set_deadline(gf: GameFile, seq: int, deadline: datetime) -> None:
    """A new deadline brings its own reminders and late notice; nobody is late any more."""
    gf.db.execute("UPDATE phases SET deadline = ?, reminded = '[]', late_noticed = 0 WHERE seq = ?",
                  [iso(deadline), seq])
    for p, pr in gf.powers().items():
        if pr.status is PowerStatus.LATE:
            gf.set_power(p, status=PowerStatus.ACTIVE)


def reschedule(gf: GameFile, now: datetime) -> None:
    nxt = processing.next_event(gf, now)
    gf.update_game(next_event_at=iso(nxt) if nxt else None)


def pause(gf: GameFile, now: datetime) -> None:
    if gf.status is not GameStatus.ACTIVE:
        raise GameError(f"{gf.name} is {gf.status.value}")
    gf.update_game(status=GameStatus.PAUSED.value, paused_at=iso(now), next_event_at=None)
    gf.event("paused", now)
    gf.announce(f"{gf.current().seq}:{iso(now)}", "paused", {"phase": gf.current().phase}, now)


def resume(gf: GameFile, now: datetime) -> None:
    """The deadline moves on by as long as the game was paused (and past any absences)."""
    if gf.status is not GameStatus.PAUSED:
        raise GameError(f"{gf.name} is not paused")
    row = gf.current()
    paused = now - parse_time(gf.row()["paused_at"])
    deadline = moved_past_absences(gf, row.deadline + paused)
    set_deadline(gf, row.seq, deadline)
    gf.update_game(status=GameStatus.ACTIVE.value, paused_at=None)
    gf.event("resumed", now, deadline=iso(deadline))
    gf.announce(f"{row.seq}:{iso(now)}", "resumed", {"phase": row.phase}, now, deadline)
    reschedule(gf, now)


def rollback(gf: GameFile, phase: str, now: datetime) -> None:
    """Play again from an earlier phase: later phases are kept, marked rolled back, never deleted."""
    target = gf.db.execute("SELECT seq FROM phases WHERE phase = ? AND rolled_back = 0 ORDER BY seq DESC",
                           [phase.strip().upper()]).fetchone()
    if target is None:
        raise GameError(f"{gf.name} has no phase {phase}")
    old = gf.phase_row(target[0])
    gf.db.execute("UPDATE phases SET rolled_back = 1 WHERE seq >= ?", [old.seq])
    gf.db.execute("DELETE FROM votes")
    gf.update_game(status=GameStatus.ACTIVE.value, finished_at=None, result=None, paused_at=None)
    for p, pr in gf.powers().items():
        if pr.neutral:
            continue
        alive = old.position.units_of(p) or old.position.centres_of(p)
        if pr.status in (PowerStatus.LATE, PowerStatus.ELIMINATED) and alive:
            gf.set_power(p, status=PowerStatus.ACTIVE if pr.account else PowerStatus.ABANDONED)
        gf.set_power(p, waiting=0)
    deadline = processing.phase_deadline(gf, old.position, now)
    seq = gf.new_phase(old.position, now, deadline)
    gf.event("rolled back", now, to=old.phase, from_seq=old.seq, new_seq=seq)
    gf.announce(f"{seq}", "rollback", {"phase": old.phase, "phase_name": gf.phase_name(old.position)},
                now, deadline)
    reschedule(gf, now)


def change_settings(gf: GameFile, now: datetime, **changes) -> None:
    settings = gf.settings.with_(**changes)
    gf.update_game(settings=json.dumps(settings.to_json()))
    gf.event("settings", now, **{k: str(v) for k, v in changes.items()})


def move_deadline(gf: GameFile, deadline: datetime, now: datetime, reason: str) -> None:
    """The master's SET DEADLINE or EXTEND: the current phase's deadline moves, and everyone is told."""
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(f"{gf.name} is {gf.status.value}")
    if deadline <= now:
        raise GameError("the new deadline must be in the future")
    row = gf.current()
    set_deadline(gf, row.seq, deadline)
    gf.event("deadline set", now, deadline=iso(deadline), reason=reason)
    gf.announce(f"{row.seq}:{iso(deadline)}", "deadline_moved", {"phase": row.phase, "reason": reason},
                now, deadline)
    if gf.status is GameStatus.ACTIVE:
        reschedule(gf, now)


def become_master(gf: GameFile, account: str, keeper: bool, now: datetime) -> None:
    """A game without a master may be taken by anyone; the judge keeper may take any game."""
    current = gf.row()["master"]
    if current == account:
        return
    if current and not keeper:
        raise GameError(f"{gf.name} already has a master ({current}); only the judge keeper may take it over")
    gf.update_game(master=account)
    gf.event("master", now, account=account, previous=current)
