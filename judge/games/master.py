"""The game master's tools over time: pause, resume, deadlines moved, rollback."""
from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..engine.notation import loc_text, unit_text
from ..engine.phase import Need
from ..engine.position import Position
from ..engine.rules import Rules
from . import forming, processing
from .answers import NoticeKind
from .clock import fit, iso, move_past_absences, parse_time
from .dates import When, read_when
from .deadlines import parse_clock
from .ending import Ending
from .gamefile import GameFile, PhaseRow
from .model import CHANGEABLE_IN_PLAY, GameError, GameStatus, PowerStatus, Refusal


def moved_past_absences(gf: GameFile, deadline: datetime) -> datetime:
    accounts = [gf.powers()[p].account for p in processing.expected(gf, gf.phase_now().position)]
    return move_past_absences(gf.settings, deadline, gf.absences(accounts))


def reschedule(gf: GameFile, now: datetime) -> None:
    nxt = processing.next_event(gf, now)
    gf.update_game(next_event_at=iso(nxt) if nxt else None)


def pause(gf: GameFile, now: datetime) -> None:
    if gf.status is not GameStatus.ACTIVE:
        raise GameError(f"{gf.name} is {gf.status.value}")
    gf.update_game(status=GameStatus.PAUSED.value, paused_at=iso(now), next_event_at=None)
    gf.event("paused", now)
    gf.announce(f"{gf.phase_now().seq}:{iso(now)}", NoticeKind.PAUSED, {"phase": gf.phase_now().phase}, now)


def resume(gf: GameFile, now: datetime) -> None:
    """The deadline moves on by as long as the game was paused, then to the first instant on the
    phase's clock and weekdays (a Tue/Thu/Sat game paused a day is due on the Thursday, not the
    Wednesday), and past any absences."""
    if gf.status is not GameStatus.PAUSED:
        raise GameError(why=Refusal.NOT_PAUSED, game=gf.name)
    row = gf.phase_now()
    assert row.deadline is not None     # (a game is paused with the deadline it had, and keeps it)
    paused = now - parse_time(gf.row()["paused_at"])
    kind = row.position.phase.kind.value
    deadline = fit(gf.settings, kind, row.deadline + paused)
    moved = moved_past_absences(gf, deadline)
    deadline = deadline if moved == deadline else fit(gf.settings, kind, moved)
    gf.set_deadline(row.seq, deadline)
    gf.update_game(status=GameStatus.ACTIVE.value, paused_at=None)
    gf.event("resumed", now, deadline=iso(deadline))
    gf.announce(f"{row.seq}:{iso(now)}", NoticeKind.RESUMED, {"phase": row.phase}, now, deadline)
    reschedule(gf, now)


def rollback(gf: GameFile, phase: str, now: datetime) -> None:
    """Play again from an earlier phase: later phases are kept, marked rolled back, never deleted."""
    target = next(gf.db["phases"].rows_where("phase = ? AND rolled_back = 0", [phase.strip().upper()],
                                             order_by="seq DESC", select="seq", limit=1), None)
    if target is None:
        raise GameError(f"{gf.name} has no phase {phase}")
    old = gf.phase_row(target["seq"])
    # Raw SQL: an update of many rows by a condition, which the table API (update by key) has not.
    gf.db.execute("UPDATE phases SET rolled_back = 1 WHERE seq >= ?", [old.seq])
    gf.db.table("votes").delete_where()
    gf.update_game(status=GameStatus.ACTIVE.value, finished_at=None, result=None, paused_at=None)
    _restore_powers(gf, old)
    deadline = processing.phase_deadline(gf, old.position, now)
    seq = gf.new_phase(old.position, now, deadline)
    gf.event("rolled back", now, to=old.phase, from_seq=old.seq, new_seq=seq)
    needs = {p: _need_json(old.position, n) for p, n in processing.needs(gf, old.position).items() if n}
    gf.announce(f"{seq}", NoticeKind.ROLLBACK, {"phase": old.phase, "phase_name": gf.phase_name(old.position),
                                       "needs": needs}, now, deadline)
    reschedule(gf, now)


def _restore_powers(gf: GameFile, old: PhaseRow) -> None:
    """Each power's status and phases missed as they were when `old` began: what the rolled-back
    phases did to them (civil disorder, abandonment, elimination) is undone. A power that has a new
    player since keeps that player, active with nothing missed."""
    powers = gf.db.table("phases").get(old.seq)["powers"]
    then = json.loads(powers) if powers else None
    for p, pr in gf.powers().items():
        if pr.neutral:
            continue
        before = (then or {}).get(p)
        if before is not None and before["account"] == pr.account:
            gf.set_power(p, status=PowerStatus(before["status"]), missed=before["missed"], waiting=0)
        elif before is not None:
            gf.set_power(p, status=PowerStatus.ACTIVE if pr.account else PowerStatus.ABANDONED, missed=0, waiting=0)
        else:   # a phase stored before phases kept the powers
            alive = old.position.units_of(p) or old.position.centres_of(p)
            if pr.status in (PowerStatus.LATE, PowerStatus.ELIMINATED) and alive:
                gf.set_power(p, status=PowerStatus.ACTIVE if pr.account else PowerStatus.ABANDONED)
            gf.set_power(p, waiting=0)


def _need_json(position: Position, need: Need) -> dict[str, Any]:
    """What one power must decide in the phase played again, for the rollback notice."""
    return {"units": [unit_text(u.kind, u.location) for loc in need.units if (u := position.unit_in(loc.province))],
            "retreats": [{"unit": unit_text(d.unit.kind, d.unit.location),
                          "to": [loc_text(x) for x in d.retreats]} for d in need.retreats],
            "builds": need.builds, "removals": need.removals}


def change_settings(gf: GameFile, now: datetime, **changes: Any) -> None:
    """New settings; once the game has started only those in CHANGEABLE_IN_PLAY, and a new
    deadline rule counts from the next phase (the current deadline stays as announced)."""
    fixed = sorted(set(changes) - CHANGEABLE_IN_PLAY)
    if fixed and gf.status is not GameStatus.FORMING:
        raise GameError(f"{', '.join(fixed)} cannot change once the game has started")
    settings = gf.settings.with_(**changes)
    gf.update_game(settings=json.dumps(settings.to_json()))
    gf.event("settings", now, **{k: str(v) for k, v in changes.items()})
    if gf.status is GameStatus.ACTIVE:
        gf.settings = settings
        reschedule(gf, now)      # (an earliest processing, SET START, may hold the next event back)
    elif changes.get("manual_start") is False and forming.signups(gf) >= gf.setup.players:
        gf.settings = settings
        forming.start(gf, now)   # a full game held by MANUAL START starts once it no longer is


def change_rules(gf: GameFile, rules: Rules, now: datetime) -> None:
    """The rulebook the game is judged by: chosen while the game forms, fixed once it starts."""
    if gf.status is not GameStatus.FORMING:
        raise GameError("the rules cannot change once the game has started")
    gf.update_game(edition=rules.name)
    gf.rules = rules
    gf.event("settings", now, rules=rules.name)


def read_date(gf: GameFile, text: str, now: datetime) -> When:
    """A date the master wrote (judge.games.dates), in the game's zone; a date alone is at the
    current phase's deadline hour: its clock's, else the hour its deadline has now."""
    row = gf.current()
    hour = gf.settings.clock_for(row.position.phase.kind.value if row else "M")
    zone = ZoneInfo(gf.settings.time_zone)
    if hour is not None:
        usual = parse_clock(hour)
    else:
        local = (row.deadline if row is not None and row.deadline is not None else now).astimezone(zone)
        usual = time(local.hour, local.minute)
    return read_when(text, gf.settings.time_zone, usual, now)


def move_deadline(gf: GameFile, deadline: datetime, now: datetime, reason: str) -> None:
    """The master's SET DEADLINE or EXTEND: the current phase's deadline moves, and everyone is told."""
    if gf.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        raise GameError(f"{gf.name} is {gf.status.value}")
    if deadline <= now:
        raise GameError("the new deadline must be in the future")
    row = gf.phase_now()
    gf.set_deadline(row.seq, deadline)
    gf.event("deadline set", now, deadline=iso(deadline), reason=reason)
    gf.announce(f"{row.seq}:{iso(deadline)}", NoticeKind.DEADLINE_MOVED, {"phase": row.phase, "reason": reason},
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


def promote(gf: GameFile, account: str, remove: bool, now: datetime) -> bool:
    """A co-master (PROMOTE), or one removed (DEMOTE); True if that changed anything. The game's
    own master is not a co-master and cannot be demoted this way (BECOME MASTER by the keeper)."""
    if account == gf.row()["master"]:
        raise GameError(why=Refusal.MASTER_NOT_COMASTER if remove else Refusal.MASTER_ALREADY, game=gf.name,
                        account=account)
    changed = gf.db["comasters"].count_where("account = ?", [account]) == (1 if remove else 0)
    if changed and remove:
        gf.db.table("comasters").delete(account)
    elif changed:
        gf.db.table("comasters").insert({"account": account, "since": iso(now)})
    if changed:
        gf.event("demoted" if remove else "promoted", now, account=account)
    return changed


def hand_over(gf: GameFile, account: str, successor: str | None, now: datetime) -> str | None:
    """The master steps down (`successor` None: RESIGN) or hands the game to another (SET MASTER).
    A game is never left without a master this way: the master's RESIGN passes the game to the
    first co-master (PROMOTE) and is refused when there is none; a co-master's RESIGN only ends its
    own rights. Returns the master after."""
    master: str | None = gf.row()["master"]
    comasters = [m for m in gf.masters() if m != master]
    if account != master and successor is None:
        if account not in comasters:
            raise GameError(why=Refusal.NOT_A_MASTER, game=gf.name, account=account)
        gf.db.table("comasters").delete(account)
        gf.event("demoted", now, account=account, stepped_down=True)
        return master
    if successor is None:
        if not comasters:
            raise GameError(why=Refusal.NO_MASTER_LEFT, game=gf.name)
        successor = comasters[0]
    if successor == master:
        return master
    if successor in comasters:
        gf.db.table("comasters").delete(successor)
    gf.update_game(master=successor)
    gf.event("master", now, account=successor, previous=master, handed_over=True)
    return successor


def reveal(gf: GameFile, now: datetime) -> None:
    """The master's REVEAL: an anonymous game shows who plays each power from now on, and says so."""
    if not gf.settings.anonymous:
        raise GameError(f"{gf.name} is not anonymous: its players are shown already")
    gf.update_game(settings=json.dumps(gf.settings.with_(anonymous=False).to_json()))
    gf.event("revealed", now)
    gf.announce("revealed", NoticeKind.REVEALED, {}, now)


def terminate(gf: GameFile, now: datetime) -> None:
    """The master's TERMINATE: the game ends now with no winner, started or not."""
    if gf.status is GameStatus.FINISHED:
        raise GameError(f"{gf.name} is already over")
    gf.event("terminating", now, was=gf.status.value)     # what RESUME within a day puts back
    row = gf.current()
    if row is None:
        result: dict[str, Any] = {"how": "terminated", "winners": [], "players": [], "counts": {}, "measure": "centres",
                                  "phase": None}
        gf.update_game(status=GameStatus.FINISHED.value, finished_at=iso(now), result=json.dumps(result),
                       next_event_at=None)
        gf.event("finished", now, **result)
        joined = sorted(r["account"] for r in gf.db["signups"].rows_where(select="account"))
        gf.announce("terminated:end", NoticeKind.GAME_END, {"result": result}, now,
                    recipients=[*joined, *(m for m in gf.masters() if m not in joined), None])
        return
    counts = {p: len(row.position.centres_of(p)) for p in gf.variant.power_ids}
    processing.finish(gf, Ending("terminated", (), counts, "centres"), row.position, now, key=f"{row.seq}:terminated")


# How long after its TERMINATE a master's RESUME may still undo it: a mistake is noticed within a
# day; after that the players have taken the game as over.
UNDO_TERMINATE_WITHIN = timedelta(days=1)


def undo_terminate(gf: GameFile, now: datetime) -> None:
    """RESUME of a game its master TERMINATEd less than a day ago: it is as it was (forming, under
    way or paused), its phase's deadline worked out again from now; the players are told."""
    row = gf.row()
    result = json.loads(row["result"] or "{}")
    if gf.status is not GameStatus.FINISHED or result.get("how") != "terminated":
        raise GameError(why=Refusal.NOT_TERMINATED, game=gf.name)
    ended = parse_time(row["finished_at"])
    if now - ended > UNDO_TERMINATE_WITHIN:
        raise GameError(why=Refusal.TERMINATED_LONG_AGO, game=gf.name, when=iso(ended))
    was = next(gf.db["events"].rows_where("kind = 'terminating'", order_by="id DESC", limit=1, select="detail"),
               None)
    before = GameStatus(json.loads(was["detail"])["was"]) if was else GameStatus.ACTIVE
    current = gf.current()
    if before is GameStatus.FORMING or current is None:
        gf.update_game(status=GameStatus.FORMING.value, finished_at=None, result=None)
        gf.event("unterminated", now, status=GameStatus.FORMING.value)
        return
    gf.db.table("records").delete_where("seq = ? AND kind = 'finished'", [current.seq])   # not finished after all
    deadline = processing.phase_deadline(gf, current.position, now)
    gf.set_deadline(current.seq, deadline)
    paused = before is GameStatus.PAUSED
    gf.update_game(status=before.value, finished_at=None, result=None, paused_at=iso(now) if paused else None)
    gf.event("unterminated", now, status=before.value, deadline=iso(deadline))
    gf.announce(f"{current.seq}:unterminated:{iso(now)}", NoticeKind.RESUMED,
                {"phase": current.phase, "terminated": True, "paused": paused}, now, deadline)
    reschedule(gf, now)


def unstart(gf: GameFile, now: datetime) -> None:
    """DPjudge's UNSTART: a game whose first phase has not been played forms again, with the players
    who signed up (their preferences kept); the seats given out and the phase set up are undone
    (the phase kept, marked rolled back, as a rollback keeps one). It starts again when a master
    says START or FORCE START (or a player joins a seat left open). Everyone is told."""
    if gf.status is GameStatus.FORMING:
        raise GameError(why=Refusal.FORMING_ALREADY, game=gf.name)
    if gf.status is GameStatus.FINISHED:
        raise GameError(why=Refusal.OVER, game=gf.name)
    played = next(gf.db["phases"].rows_where("processed_at IS NOT NULL AND rolled_back = 0", order_by="seq",
                                             limit=1, select="phase"), None)
    if played is not None:
        raise GameError(why=Refusal.PLAYED_ALREADY, game=gf.name, phase=played["phase"])
    row = gf.phase_now()
    seats = {p: pr.account for p, pr in gf.powers().items() if pr.account}
    # Raw SQL: an update of many rows by a condition, which the table API (update by key) has not.
    gf.db.execute("UPDATE phases SET rolled_back = 1")
    for table in ("powers", "votes", "later_orders", "offers", "seeking", "takeover_requests"):
        gf.db.table(table).delete_where()
    for power, account in seats.items():
        gf.power_event(power, account, "unassigned", now, row.phase)
    gf.update_game(status=GameStatus.FORMING.value, started_at=None, phase_seq=None, paused_at=None,
                   next_event_at=None)
    gf.event("unstarted", now, seats=seats)
    gf.announce(f"unstarted:{iso(now)}", NoticeKind.UNSTARTED, {"phase": row.phase}, now,
                recipients=[*sorted(set(seats.values())), *(m for m in gf.masters() if m not in seats.values()),
                            None])
