"""Orders over time: every message's orders are kept, and the current orders follow from them.

A message replaces the power's orders for the units it names (the last order for a unit in
one message wins); units without orders hold. In an adjustment phase a message replaces all
the power's adjustment orders, because builds and removals count in the order written.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from ..engine import misorders, notation
from ..engine.calendar import PhaseKind
from ..engine.orders import Build, Disband, Order, Waive
from ..engine.outcomes import Outcome
from ..engine.phase import Need
from ..engine.position import Position
from . import fog, hidden_builds, later_orders, processing
from .answers import Confirmation, NoticeKind
from .clock import iso, parse_time, processing_time, shown
from .digests import orders_digest
from .gamefile import GameFile, PhaseRow
from .model import GameError, GameStatus, NmrPolicy
from .ordercodec import order_to_json


def order_of(item: Any) -> Order | None:
    """The engine order of a parsed order or a (text, Order) pair."""
    order: Order | None = item[1] if isinstance(item, tuple) else item.order
    return order


def foreign_unit(gf: GameFile, row: PhaseRow, power: str, order: Order | None) -> str | None:
    """Why an order for another power's unit is refused when it is sent, or None.

    Stored, it would only fail at the deadline, and its failure would be printed in every
    player's results: a plan made public. So the sender is told at once, and nothing is kept.
    """
    ref = getattr(order, "unit", None)
    if ref is None or row.position.phase.kind is PhaseKind.ADJUSTMENT:
        return None
    province = ref.location.province
    if row.position.phase.kind is PhaseKind.RETREAT:
        owners = {d.unit.power for d in row.position.dislodged if d.unit.location.province == province}
    else:
        unit = row.position.unit_in(province)
        owners = {unit.power} if unit is not None else set()
    if not owners or power in owners:
        return None
    variant = gf.variant
    other = variant.power(owners.pop())
    vassals = " and its vassals'" if "vassal_dummies" in variant.hooks else ""
    return (f"the unit in {variant.board.province(province).name} is {other.adjective}: "
            f"you can order only {variant.power(power).name}'s units{vassals}")


def not_dislodged(gf: GameFile, row: PhaseRow, order: Order | None) -> str | None:
    """In a retreat phase, why an order for a unit that was not dislodged is refused, or None.

    Such a line is a movement order come too late (or a slip): stored, it would count as the
    power's retreat orders and be printed as an illegal retreat in everyone's results. Refused
    at once instead, it is seen only by its sender."""
    ref = getattr(order, "unit", None)
    if ref is None or row.position.phase.kind is not PhaseKind.RETREAT:
        return None
    province = ref.location.province
    if any(d.unit.location.province == province for d in row.position.dislodged):
        return None
    previous = _last_played(gf, "seq < ?", [row.seq])
    place = gf.variant.board.province(province).name
    if previous is None:
        return f"no unit was dislodged in {place}: in a retreat phase only dislodged units are ordered"
    return (f"too late for {played_words(gf, previous[0], previous[1])}, not used: no unit was dislodged in "
            f"{place}, and in this retreat phase only dislodged units are ordered")


class TooLate(GameError):
    """The mail's orders were for a phase that has been played since it arrived."""


# No one reads a phase's results and answers them within this long of their being queued: a mail
# that arrives sooner was written before its sender could have seen them.
RESULTS_READ_SECONDS = 0   # the results queued is the moment they could be read: a mail after is for the new phase
UNSENT_RESULTS_SECONDS = 600     # results not mailed this long after the play: no longer waited for


def too_late(gf: GameFile, row: PhaseRow, received: datetime, account: str | None = None) -> None:
    """Refuse a mail's orders if they were written for a phase that is no longer current.

    A mail's orders are for the phase its sender knew of when it arrived: the one current when
    the judge took it in, unless that phase began so lately that the results of the one before
    had not yet reached `account` (its results notice not yet queued, or queued less than
    RESULTS_READ_SECONDS before). Such a mail was written for the phase just played (a rush of
    orders in the seconds after a deadline), and filing it for the next one would play orders
    nobody gave for it. That is asked only when the phase now is a movement phase: a movement
    order reads as well in the next one, while in a retreat phase an order for a unit not
    dislodged is refused as late on its own (`not_dislodged`), and builds are no moves. The daemon
    reads every stored mail before it plays a phase, so this happens only to mail that came in after
    (or in the moment of) the play it missed."""
    if received < row.started_at:
        then = _last_played(gf, "started_at <= ?", [iso(received)])
        if then is None:
            return   # it came before the game started: the first phase is the one it meant
        raise _late(gf, row, then[0], then[1])
    if account is None or row.position.phase.kind is not PhaseKind.MOVEMENT:
        return   # only movement orders read as well in the phase after: retreats and builds differ in kind
    before = gf.db.execute("SELECT seq, phase, processed_at FROM phases WHERE seq < ? AND rolled_back = 0"
                           " AND processed_at IS NOT NULL ORDER BY seq DESC LIMIT 1", [row.seq]).fetchone()
    if before is None:
        return
    notice = gf.db.execute("SELECT queued_at FROM notices WHERE id = ?",
                           [f"{gf.name}:{before[0]}:{NoticeKind.RESULTS}:{account}"]).fetchone()
    if notice is None:
        return   # no results mail goes to this account: the phase's start is all it could know
    if notice[0] is None:
        # Not yet mailed: the sender cannot have read it. Unless the courier has failed on it for
        # long (then the keeper is told, and the players must not be shut out of the new phase).
        if received < parse_time(before[2]) + timedelta(seconds=UNSENT_RESULTS_SECONDS):
            raise _late(gf, row, before[1], before[2])
    elif received < parse_time(notice[0]) + timedelta(seconds=RESULTS_READ_SECONDS):
        raise _late(gf, row, before[1], before[2])


def _late(gf: GameFile, row: PhaseRow, phase: str, processed_at: str) -> TooLate:
    """"too late for Fall 1902 Movement (played at ...), not used; now Winter 1902 Adjustments,
    deadline ...": the player learns at once which phase to write for, and by when."""
    zone = gf.settings.time_zone
    now = gf.variant.calendar.name(row.position.phase)
    by = f", deadline {shown(iso(row.deadline), [zone])[zone]}" if row.deadline is not None else ""
    return TooLate(f"too late for {played_words(gf, phase, processed_at)}, not used; now {now}{by}")


def _last_played(gf: GameFile, where: str, args: list[Any]) -> tuple[str, str] | None:
    """The last phase played (not rolled back) that also meets `where`: its code and when it was played."""
    row = next(gf.db["phases"].rows_where(f"{where} AND rolled_back = 0 AND processed_at IS NOT NULL", args,
                                          order_by="seq DESC", limit=1, select="phase, processed_at"), None)
    return (row["phase"], row["processed_at"]) if row else None


def played_words(gf: GameFile, phase: str, processed_at: str) -> str:
    """"Fall 1901 Movement (played at Tue 03 Mar 2026 12:00 CET)", in the game's zone."""
    name = gf.variant.calendar.name(gf.variant.calendar.parse(phase))
    when = shown(processed_at, [gf.settings.time_zone])[gf.settings.time_zone]
    return f"{name} (played at {when})"


def clear_orders(gf: GameFile, row: PhaseRow, power: str, now: datetime, source: str | None) -> int:
    sid = gf.submission(row.seq, power, now, source, "clear", "", [])
    gf.db.table("orders").delete_where("phase_seq = ? AND power = ?", [row.seq, power])
    return sid


def already_handled(gf: GameFile, source: str | None) -> bool:
    """This message was handled before (the mail layer retries after a crash): do nothing twice.
    Without this, orders read again after the phase was played would land in the next phase."""
    return source is not None and gf.db.execute(      # three tables in one statement: SQL
        "SELECT 1 FROM submissions WHERE source = ? UNION ALL SELECT 1 FROM press WHERE source = ? "
        "UNION ALL SELECT 1 FROM events WHERE kind = 'handled' AND json_extract(detail, '$.source') = ?",
        [source, source, source]).fetchone() is not None


def confirmed(gf: GameFile, power: str, viewer: str | None = None) -> Confirmation:
    """`confirmation`, made once per snapshot of the file (until it is written) and time zone it is
    told in: an order mail asks for it three times once its orders are stored (the store's answer,
    the reply's line for the orders, the reply's summary of the power: bench/backlog.py)."""
    reader = viewer if viewer is not None else gf.powers()[power].account     # (the power's player, by default)
    made: Confirmation = gf.worked_out(("confirmation", power, reader, gf.zone_of(reader)),
                                       lambda: confirmation(gf, power, reader))
    return made


def confirmation(gf: GameFile, power: str, viewer: str | None = None) -> Confirmation:
    """What the player is told after sending orders: the orders now standing, what cannot be carried
    out as things stand, and what the power still owes before it is "in" (processing.owed: the one
    rule, so the reply never says both that every unit has an order and that the power is not in).
    Times are in the game's zone and `viewer`'s (by default the power's player: a master acting for
    the power reads them in the master's own)."""
    reader = viewer if viewer is not None else gf.powers()[power].account
    row = gf.phase_now()
    every = gf.orders(row.seq)
    mine = every.get(power, [])
    # checked with every power's orders, as being "in" is: a move by an ally's convoy is no problem
    # once the convoy is ordered
    # units built hidden from this power: checked as if they were not there (judge.games.hidden_builds)
    hidden = hidden_builds.in_file(gf.variant, gf.db)
    problems = hidden_builds.problems_seen(gf.variant, row.position, hidden, power, mine, gf.rules,
                                           gf.problems(row.seq))
    if gf.settings.fog:     # fog of war: nothing said of what the power cannot see
        problems = fog.private_problems(gf.variant, row.position, power, problems)
    position = hidden_builds.Veil(hidden, frozenset({power})).board(row.position)
    need = processing.needs(gf, row.position).get(power)
    owed = processing.owed(gf, row, power)
    told = {p.order: _problem(p) for p in problems}
    return Confirmation(
        game=gf.name, power=power, phase=row.phase, orders=tuple(gf.order_rows(row.seq, power)),
        problems=tuple(told.values()),
        units_without_orders=owed.units, adjustment=_adjustment(need, mine, owed),
        owed_orders=tuple(told.get(p.order, {**_problem(p), "why": None, "args": []}) for p in owed.refused),
        all_in=not owed, plays=_plays(gf, row, reader),
        deadline=gf.times(row.deadline, reader),
        warnings=_warnings(gf, position, power, mine, problems),
        digest=orders_digest(gf.name, row.phase, power, mine), later=tuple(later_orders.waiting(gf, power)))


def _problem(p: Outcome) -> dict[str, Any]:
    return {"order": notation.order_text(p.order), "read": order_to_json(p.order), "reason": p.reason.value,
            "why": p.why.value if p.why else None, "args": list(p.args)}


def _warnings(gf: GameFile, position: Position, power: str, mine: Sequence[Order],
              problems: Sequence[Outcome]) -> tuple[dict[str, Any], ...]:
    """The likely misorders among the power's orders. Not a support or convoy of an empty province
    that the problems already name (the reply says it there), nor, with fog of war, one out of the
    power's sight (that would tell it the province is empty)."""
    refused = {p.order.unit.location.province for p in problems if hasattr(p.order, "unit")}
    seen = fog.sight(gf.variant, position, {power}) if gf.settings.fog else None
    found = [w for w in misorders.warnings(gf.variant, position, power, mine)
             if w.kind is not misorders.Kind.NOBODY_THERE
             or (w.args[0] not in refused and (seen is None or w.args[1] in seen))]
    return tuple({"kind": w.kind.value, "args": list(w.args)} for w in found)


def _plays(gf: GameFile, row: PhaseRow, account: str | None) -> dict[str, Any]:
    """When the phase will be played as things stand, for the reply to say it truly: "early" (every
    power is in: at the scheduler's next look), at a time (the deadline after its grace), "waits"
    (the wait policy holds it past the deadline for powers that sent nothing), or "manual" (at the
    master's PROCESS alone)."""
    if gf.status is not GameStatus.ACTIVE or row.deadline is None:
        return {"when": "paused"}
    if gf.settings.manual_process:      # njudge's MANUAL PROCESS: only the master's PROCESS plays it
        return {"when": "manual"}
    if processing.ready(gf, row):
        return {"when": "early"}
    if gf.settings.nmr_policy is NmrPolicy.CIVIL_DISORDER or not processing.owing(gf, row):
        kind = row.position.phase.kind.value
        return {"when": "at", "at": gf.times(processing_time(gf.settings, row.deadline, kind), account),
                "grace_hours": gf.settings.grace_for(kind)}
    return {"when": "waits"}


def _adjustment(need: Need | None, orders: Sequence[Order], owed: processing.Owed) -> dict[str, Any] | None:
    """In an adjustment phase: builds allowed or removals due, how many the orders give, and how many
    of those the rules allow (a build in a foreign centre counts for none)."""
    if need is None or not (need.builds or need.removals):
        return None
    return {"builds": need.builds, "removals": need.removals,
            "builds_ordered": sum(isinstance(o, (Build, Waive)) for o in orders),
            "removals_ordered": sum(isinstance(o, Disband) for o in orders),
            "builds_owed": owed.builds, "removals_owed": owed.removals}
