"""Excused misses: a player may miss a few deadlines without the phase being played without them.

With the setting `excuses` at n (0: off), each power's seat may miss n deadlines in the game. When
a deadline (and its grace) passes and a power whose player has an excuse left sent no orders at all,
the phase is not played: one excuse of that seat is spent, the deadline moves on `excuse_hours`,
the player is told personally (NoticeKind.EXCUSED) and everyone else only that the deadline moved
(DEADLINE_MOVED, reason "excuse"; the excused powers named only where the game is not anonymous,
and always to the masters). A phase's deadline moves so once: at the next passing the phase is
played, and whoever still sent nothing misses it as usual. Only a deadline that passed spends an
excuse: the master's PROCESS plays the phase as it stands (processing.process, never through here).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from .answers import NoticeKind
from .clock import iso, processing_time
from .gamefile import GameFile, PhaseRow


def excusable(gf: GameFile, row: PhaseRow, missing: list[str]) -> list[str]:
    """The powers among `missing` (they sent nothing) whose seat has an excuse left, if this phase's
    deadline was not moved by an excuse already."""
    allowed = gf.settings.excuses
    if not allowed or not missing or _already_excused(gf, row):
        return []
    powers = gf.powers()
    return [p for p in missing if powers[p].account and powers[p].excuses_used < allowed]


def _already_excused(gf: GameFile, row: PhaseRow) -> bool:
    found = gf.db.execute("SELECT excused FROM phases WHERE seq = ?", [row.seq]).fetchone()
    return bool(found and found[0])


def excuse(gf: GameFile, row: PhaseRow, excused: list[str], now: datetime) -> datetime:
    """Spend one excuse of each power in `excused`, move the deadline on, and tell everyone. Returns
    the new deadline. It counts from when the phase would have been played (the deadline and its
    grace), or from now if the judge looks later than that."""
    settings = gf.settings
    assert row.deadline is not None     # (processing.wake excuses only at a deadline passed)
    played_at = processing_time(settings, row.deadline, row.position.phase.kind.value)
    deadline = max(played_at, now) + timedelta(hours=settings.excuse_hours)
    powers = gf.powers()
    for p in excused:
        gf.set_power(p, excuses_used=powers[p].excuses_used + 1)
    gf.set_deadline(row.seq, deadline)
    gf.db.table("phases").update(row.seq, {"excused": 1})
    gf.event("excused", now, powers=excused, deadline=iso(deadline))
    key = f"{row.seq}:{iso(deadline)}"
    base = {"phase": row.phase, "phase_name": gf.phase_name(row.position)}
    players = sorted({a for p in excused if (a := powers[p].account)})
    for account in players:
        yours = [p for p in excused if powers[p].account == account]
        gf.notice(key, NoticeKind.EXCUSED, account, {
            **base, "yours": yours, "excuses": settings.excuses, "deadline": gf.times(deadline, account),
            "left": {p: settings.excuses - powers[p].excuses_used - 1 for p in yours}}, now)
    masters = set(gf.masters())
    named = {"excused": excused}
    # no public copy (recipient None): it would reach every player without a copy of the same kind,
    # the excused player too; observers learn the new deadline from the results
    for r in gf.recipients():
        if r is None or r in players:
            continue
        shown = named if r in masters or not settings.anonymous else {}
        gf.notice(key, NoticeKind.DEADLINE_MOVED, r,
                  {**base, "reason": "excuse", **shown, "deadline": gf.times(deadline, r)}, now)
    return deadline
