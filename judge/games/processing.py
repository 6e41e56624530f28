"""Time passing in one game: reminders, late notices, and playing a phase.

Everything here runs inside one transaction of the game file, opened by the service, so a
phase is adjudicated, stored, advanced, given its next deadline and announced all at once
or not at all. `checkpoint(name)` marks the steps; a crash test kills the process there.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine import notation, orders_needed, process_phase, vassals
from ..engine.calendar import PhaseKind
from ..engine.orders import Build, Disband, Order, Waive
from ..engine.outcomes import Outcome, PhaseResult
from ..engine.phase import Need
from ..engine.position import Position
from ..engine.stand_in import stand_in_orders
from . import diaries, excuses, hidden_builds, later_orders, records
from .answers import NoticeKind
from .clock import deadline_for, fit, iso, parse_time, processing_time, reminder_times
from .digests import orders_digest
from .ending import Ending, check_limits, check_win, survivors
from .exchange import Settlement
from .gamefile import GameFile, PhaseRow
from .model import PLAYING, GameStatus, MissedOrders, NmrPolicy, PowerStatus
from .resultcodec import result_to_json
from .worldwar import close_italy, italy_closed, world_war_events

Checkpoint = Callable[[str], None]


def _no_checkpoint(name: str) -> None:
    pass


# -- who owes what -------------------------------------------------------------------------------

def needs(gf: GameFile, position: Position) -> dict[str, Need]:
    """What each power with a player (or that could have one) must decide; neutral powers never do,
    but for a vassal (a dummy, neutral) its overlord's player decides its retreats and adjustments."""
    powers = gf.powers()
    return {p: n for p, n in gf.orders_needed(position).items()
            if not powers[p].neutral or overlord_decides(position, p)}


def overlord_decides(position: Position, power: str) -> bool:
    """Whether this power is a vassal whose overlord's player gives its orders in this phase and is
    waited for: its retreats and adjustments, as DPjudge's controlling power logs in for its vassal
    (judge.engine.vassals). In a movement phase the vassal's units hold without orders, never waited for."""
    return position.phase.kind is not PhaseKind.MOVEMENT and vassals.overlord(position, power) is not None


def expected(gf: GameFile, position: Position) -> list[str]:
    """Powers whose player we wait for: with something to decide and a player who is still playing
    (a vassal's: its overlord's)."""
    powers = gf.powers()
    return [p for p in needs(gf, position) if powers[vassals.controller(position, p)].status in PLAYING]


def owing(gf: GameFile, row: PhaseRow) -> list[str]:
    """Powers that sent nothing at all: late, and in civil disorder if the deadline passes so. A vassal
    is never late: without its overlord's orders the judge makes its retreats and adjustments."""
    orders = gf.orders(row.seq)
    return [p for p in expected(gf, row.position) if not orders.get(p) and not overlord_decides(row.position, p)]


def vassals_owing(gf: GameFile, row: PhaseRow) -> dict[str, list[str]]:
    """Each overlord's vassals whose retreats or adjustments its player has sent nothing for yet (as
    DPjudge lists controlled dummies among the late): told in the overlord's reminders and late
    notices (sent for them alone when the overlord owes nothing of its own) and the master's, never
    making the overlord late on their own."""
    orders = gf.orders(row.seq)
    owed: dict[str, list[str]] = {}
    for p in expected(gf, row.position):
        if overlord_decides(row.position, p) and not orders.get(p):
            owed.setdefault(vassals.controller(row.position, p), []).append(p)
    return owed


def not_in(gf: GameFile, row: PhaseRow) -> list[str]:
    """Powers whose orders are not complete: some unit that needs an order has no valid one.

    Being "in" is what lets a phase be played before its deadline, so one stray line (an order
    for a unit that needed none, or for one unit of four) does not count: every unit must be
    ordered, a hold included (see owed)."""
    owes = owed_by_power(gf, row)
    return [p for p in expected(gf, row.position) if owes.get(p)]


@dataclass(frozen=True)
class Owed:
    """What of a power's duty in the phase has no valid order yet; empty when the power is "in".
    `units`: units that need an order and have none ("A PAR"); `refused`: the power's orders for
    such units that the rules reject as things stand (illegal, not needed), so they count for none;
    `builds`, `removals`: how many builds (or waives) and removals are still owed."""
    units: tuple[str, ...] = ()
    refused: tuple[Outcome, ...] = ()
    builds: int = 0
    removals: int = 0

    def __bool__(self) -> bool:
        return bool(self.units or self.refused or self.builds or self.removals)


def owed(gf: GameFile, row: PhaseRow, power: str) -> Owed:
    """What of this power's duty in the phase has no valid order yet. Orders the rules reject
    (illegal, not needed) do not count. Checked with every power's orders, so a move by an ally's
    convoy counts once the convoy is ordered. The one rule of being "in": the confirmation's list
    of what is owed and its "is in" both come from here, so they cannot disagree. Worked out for
    this power alone (an order mail asks before its orders are stored, which makes every answer
    from before them void): the same as `owed_by_power`'s for it."""
    made: Owed = gf.worked_out(("owed", row.seq, power), lambda: _owed_by(gf, row, power).get(power, Owed()),
                               reads=_OWED_READS)
    return made


def owed_by_power(gf: GameFile, row: PhaseRow) -> dict[str, Owed]:
    """`owed` for every power that has something to decide, in one pass: the stored orders read and
    checked once (GameFile.problems: one adjudication for them all, none if checked before)."""
    return dict(gf.worked_out(("owed", row.seq), lambda: _owed_by(gf, row, None), reads=_OWED_READS))


def _owed_by(gf: GameFile, row: PhaseRow, only: str | None) -> dict[str, Owed]:
    """`owed` of every power with something to decide, or of `only` that one."""
    orders = gf.orders(row.seq)
    problems = gf.problems(row.seq)
    hidden = hidden_builds.in_file(gf.variant, gf.db)    # as each power may be told (hidden builds)
    return {power: _owed(row, need, orders.get(power, []), hidden_builds.problems_seen(
                gf.variant, row.position, hidden, power, orders.get(power, []), gf.rules, problems))
            for power, need in needs(gf, row.position).items() if only is None or power == only}


# what `owed` reads of the snapshot (GameFile.worked_out), beside the phase row it is given: the orders,
# and the powers (which are neutral: `needs`)
_OWED_READS = frozenset({"orders", "powers"})


def _owed(row: PhaseRow, need: Need, mine: list[Order], bad: list[Outcome]) -> Owed:
    valid = [o for o in mine if all(o != p.order for p in bad)]
    given = {_place(o) for o in mine} - {None}
    ordered = {_place(o) for o in valid} - {None}
    places = [loc.province for loc in need.units] + [d.unit.location.province for d in need.retreats]
    units = [str(row.position.unit_in(loc.province)).upper() for loc in need.units if loc.province not in given]
    units += [str(d.unit).upper() for d in need.retreats if d.unit.location.province not in given]
    refused = tuple(p for p in bad if _place(p.order) in places and _place(p.order) not in ordered)
    builds = sum(isinstance(o, (Build, Waive)) for o in valid)
    removals = sum(isinstance(o, Disband) for o in valid)
    return Owed(tuple(units), refused, max(0, need.builds - builds), max(0, need.removals - removals))


def _place(order: Order) -> str | None:
    unit = getattr(order, "unit", None)
    return unit.location.province if unit is not None else None


def ready(gf: GameFile, row: PhaseRow) -> bool:
    """Everyone we wait for is in (complete orders) and nobody asked to wait: play the phase now."""
    waiting = expected(gf, row.position)
    powers = gf.powers()
    return bool(waiting) and not not_in(gf, row) and not any(powers[p].waiting for p in waiting)


def held_until(gf: GameFile, now: datetime) -> datetime | None:
    """The master's earliest processing (SET START), while it is still to come: nothing is played before."""
    earliest = parse_time(gf.settings.earliest) if gf.settings.earliest else None
    return earliest if earliest is not None and now < earliest else None


def next_event(gf: GameFile, now: datetime) -> datetime | None:
    """When the scheduler must next look at this game (None: nothing will happen by itself); not
    before the master's earliest processing (SET START)."""
    nxt = _next_event(gf, now)
    held = held_until(gf, now)
    return max(nxt, held) if nxt is not None and held is not None else nxt


def _next_event(gf: GameFile, now: datetime) -> datetime | None:
    if gf.status is not GameStatus.ACTIVE:
        return None
    row = gf.current()
    if row is None or row.deadline is None:
        return None
    manual = gf.settings.manual_process      # njudge's MANUAL PROCESS: played only at the master's PROCESS
    if ready(gf, row) and not manual:
        return min(now, row.deadline)
    times = []
    late = owing(gf, row)
    if not manual and (gf.settings.nmr_policy is NmrPolicy.CIVIL_DISORDER or not late):
        times.append(processing_time(gf.settings, row.deadline, row.position.phase.kind.value))
    if late or vassals_owing(gf, row):      # someone to remind, or to tell they are late
        if not row.late_noticed:
            times.append(row.deadline)
        times += [when for hours, when in reminder_times(gf.settings, row.deadline, row.started_at)
                  if hours not in row.reminded]
    return min(times) if times else None


def phase_deadline(gf: GameFile, position: Position, now: datetime) -> datetime:
    """The deadline of a phase starting now; no sooner than the master's earliest processing (SET
    START), on the phase's clock."""
    accounts = [gf.powers()[p].account for p in expected(gf, position)]
    kind = position.phase.kind.value
    deadline = deadline_for(gf.settings, kind, now, gf.absences(accounts))
    held = held_until(gf, now)
    return fit(gf.settings, kind, held) if held is not None and held > deadline else deadline


# -- the scheduler's call --------------------------------------------------------------------------

def wake(gf: GameFile, now: datetime, checkpoint: Checkpoint = _no_checkpoint) -> str:
    """Do whatever is due in this game now. Returns what was done."""
    if gf.status is not GameStatus.ACTIVE or held_until(gf, now) is not None:
        return "nothing"
    row = gf.phase_now()
    manual = gf.settings.manual_process      # njudge's MANUAL PROCESS: reminders and late notices only
    if ready(gf, row) and not manual:
        return process(gf, now, checkpoint)
    if row.deadline is None:    # (no deadline: only a phase every power is in is played, as next_event says)
        return "nothing"
    late = owing(gf, row)
    # At the deadline (after grace) the phase is played; under the "wait" policy only once nobody owes
    # orders (a power that asked to wait does not hold back the deadline).
    if not manual and now >= processing_time(gf.settings, row.deadline, row.position.phase.kind.value) and (
            gf.settings.nmr_policy is NmrPolicy.CIVIL_DISORDER or not late):
        excused = excuses.excusable(gf, row, late)
        if excused:     # a missed deadline a player still had an excuse for: it moves on instead
            excuses.excuse(gf, row, excused, now)
            gf.update_game(next_event_at=_iso_or_none(next_event(gf, now)))
            return "excused"
        return process(gf, now, checkpoint)
    done = "nothing"
    # an overlord whose only debt is its vassals' orders is told too, as one that owes its own
    told = bool(late or vassals_owing(gf, row))
    if now >= row.deadline and not row.late_noticed and told:
        for p in late:
            gf.set_power(p, status=PowerStatus.LATE)
        gf.update_phase(row.seq, late_noticed=1)
        played_at = processing_time(gf.settings, row.deadline, row.position.phase.kind.value)
        _tell_owing(gf, row, late, NoticeKind.LATE, f"{row.seq}:{iso(row.deadline)}", now,
                    {"processing_at": gf.times(played_at, None)})
        done = "late"
    due = [h for h, when in reminder_times(gf.settings, row.deadline, row.started_at)
           if when <= now and h not in row.reminded]
    if due and told and now < row.deadline:
        # after a long stop only the latest reminder is worth sending
        _tell_owing(gf, row, late, NoticeKind.REMINDER, f"{row.seq}:{iso(row.deadline)}:{min(due):g}", now,
                    {"hours_left": min(due)})
        done = "reminded"
    if due:
        gf.update_phase(row.seq, reminded=json.dumps(sorted([*row.reminded, *due])))
    gf.update_game(next_event_at=_iso_or_none(next_event(gf, now)))
    return done


def _tell_owing(gf: GameFile, row: PhaseRow, late: list[str], kind: NoticeKind, key: str, now: datetime,
                extra: dict[str, Any]) -> None:
    powers = gf.powers()
    # the vassals' retreats or adjustments still owed, by overlord: each overlord's player is told of
    # its own vassals' (late itself or not); the master reads them all
    lords = vassals_owing(gf, row)
    accounts = sorted({a for p in [*late, *lords] if (a := powers[p].account)})
    base = {"phase": row.phase, "phase_name": gf.phase_name(row.position), "owing": late,
            "vassals_owing": lords, "phase_kind": row.position.phase.kind.value, **extra}
    for account in accounts:
        yours = [p for p in late if powers[p].account == account]
        theirs = {p: v for p, v in lords.items() if powers[p].account == account}
        gf.notice(key, kind, account, {**base, "deadline": gf.times(row.deadline, account), "yours": yours,
                                       "vassals_owing": theirs}, now)
    for master in gf.masters():      # the master and any co-master (PROMOTE)
        if master not in accounts:
            gf.notice(key, kind, master, {**base, "deadline": gf.times(row.deadline, master)}, now)


def _iso_or_none(when: datetime | None) -> str | None:
    return iso(when) if when else None


# -- playing a phase -------------------------------------------------------------------------------

def process(gf: GameFile, now: datetime, checkpoint: Checkpoint = _no_checkpoint) -> str:
    row = gf.phase_now()
    position = row.position
    orders = gf.orders(row.seq)
    need = needs(gf, position)
    # (a vassal without orders misses nothing: the judge's retreats and adjustments are its default)
    missed = [p for p in need if not orders.get(p) and not overlord_decides(position, p)]
    rulings: list[dict[str, Any]] = []
    if gf.setup.world_war and italy_closed(position.phase):
        orders, rulings = close_italy(orders)
    exchanges = Settlement(gf, row)  # centres exchanged at the end of the move (variants with the hook)
    stood_in = stand_ins(gf, position, orders)
    disorder = gone_powers(gf, missed)
    turn = process_phase(gf.variant, position, {**orders, **stood_in}, gf.rules, after_movement=exchanges.apply,
                         disorder=None if disorder is None else disorder - set(stood_in))
    checkpoint("adjudicated")
    results = [turn.result, *turn.skipped]
    stand_in_at = {0: set(stood_in)}  # which of `results` the stand-in played, for which powers
    lords_at: dict[int, Mapping[str, str] | None] = {0: position.vassals}  # from which result on, whose vassals
    nxt = turn.next
    # Only a deadline that passed makes a miss: a master's PROCESS before it plays the phase, but the
    # powers still without orders did not miss anything (no civil disorder, no abandonment).
    deadline_passed = row.deadline is not None and now >= row.deadline
    news = _record_missed(gf, need, missed if deadline_passed else [], orders, now, row)
    checkpoint("powers updated")
    # Settle at once the retreats and adjustments nobody who plays has to decide: those of neutral
    # powers and of powers abandoned or resigned (their dislodged units are disbanded, removals made
    # by the rules), and in the World War I game a retreat whose only way led into Italy.
    for _ in range(8):
        if gf.setup.world_war:
            nxt, happened = world_war_events(gf, nxt, now)
            news += happened
        if nxt.phase.kind is PhaseKind.MOVEMENT or expected(gf, nxt):
            break
        settled_for = stand_ins(gf, nxt, {})     # (empty unless SET STANDIN is on)
        more = process_phase(gf.variant, nxt, settled_for, gf.rules)
        stand_in_at[len(results)] = set(settled_for)
        lords_at[len(results)] = nxt.vassals
        results += [more.result, *more.skipped]
        nxt = more.next

    encoded = _results_json(gf, results, row.seq)
    for i, powers in stand_in_at.items():     # the stand-in's orders are the judge's, told apart in the results
        for o in encoded[i]["outcomes"]:
            if o["power"] in powers:
                o.update(by_judge=True, stand_in=True)
    _mark_vassals(encoded, lords_at)
    gf.update_phase(row.seq, processed_at=iso(now), result=json.dumps({"results": encoded, "civil_disorder": missed,
                                                                       "rulings": rulings}))
    checkpoint("results stored")
    news += _eliminations(gf, nxt, now)
    ending = check_win(gf.variant, nxt, gf.settings, gf.setup, gf.rules, gf.owners()) or check_limits(
        gf.variant, nxt, gf.settings, gf.setup, gf.rules, gf.owners(), now,
        gf.variant.last_phase is not None and gf.variant.last_phase < nxt.phase)
    if ending:      # it ended in the last phase played, not in the one that would have come next
        finish(gf, ending, nxt, now, key=str(row.seq), played=gf.variant.calendar.code(results[-1].phase))
        deadline = None
    else:
        deadline = phase_deadline(gf, nxt, now)
        gf.new_phase(nxt, now, deadline)
        for p, power in gf.powers().items():
            if power.waiting:       # (the others need no write: a statement a power in every phase)
                gf.set_power(p, waiting=0)
        later_orders.tell(gf, later_orders.bring_in(gf, gf.phase_now(), now), now, deadline)
    checkpoint("phase advanced")
    summary = {**_summary(gf, row, nxt, missed, rulings, news), "exchanges": exchanges.report,
               "digests": played_digests(gf, row, need)}
    gf.announce(str(row.seq), NoticeKind.RESULTS, summary, now, deadline)
    for item in news:
        _tell_about(gf, f"{row.seq}:{item['power']}", item, now, deadline)
    checkpoint("notices written")
    gf.update_game(next_event_at=_iso_or_none(next_event(gf, now)))
    return "finished" if ending else "processed"


def _mark_vassals(encoded: list[dict[str, Any]], lords_at: Mapping[int, Mapping[str, str] | None]) -> None:
    """Each vassal's outcome marked with its overlord then (`overlord`), whose player gave its orders
    (judge.engine.vassals), for the results to say whose they were; `lords_at`: from which result on
    which vassals there were (a result the judge settled alone goes with the one before it)."""
    lords: Mapping[str, str] = {}
    for i, result in enumerate(encoded):
        lords = lords_at.get(i, lords) or {}
        for o in result["outcomes"]:
            if o["power"] in lords:
                o["overlord"] = lords[o["power"]]


def played_alone(gf: GameFile, power: str) -> tuple[dict[str, Any], Position]:
    """The current phase played with `power`'s standing orders alone (a player's PREVIEW): every other
    power gives none (but its vassals, whose orders its player gives: judge.engine.vassals), so
    their units hold, their dislodged units are disbanded and their adjustments are the rules'
    defaults. Reads only: nothing is stored. The phase's result (JSON, as stored) and
    the position right after it."""
    row = gf.phase_now()
    orders = gf.orders(row.seq)
    ruled = vassals.vassals_of(row.position, power)      # its vassals' orders are its player's too
    mine = {p: orders.get(p, []) for p in (power, *ruled)}
    result = process_phase(gf.variant, row.position, mine, gf.rules, disorder=gone_powers(gf, [])).result
    encoded = _results_json(gf, [result], row.seq)
    _mark_vassals(encoded, {0: {v: power for v in ruled}})
    return encoded[0], result.position


def gone_powers(gf: GameFile, missed: list[str]) -> frozenset[str] | None:
    """The powers whose dislodged units are disbanded with no retreat (Settings.missed_orders). The
    hobby's reading: only those nobody plays now, neutral, resigned or abandoned (by this miss too);
    a player who missed the deadline still retreats. The book's: None, every power without orders."""
    if gf.settings.missed_orders is MissedOrders.BOOK:
        return None
    gone = set()
    for p, pr in gf.powers().items():
        abandoned_now = p in missed and pr.status in PLAYING and pr.missed + 1 >= gf.settings.abandon_after
        if pr.neutral or pr.status in (PowerStatus.ABANDONED, PowerStatus.RESIGNED) or abandoned_now:
            gone.add(p)
    # a vassal retreats while its overlord plays: its overlord's player orders the retreat
    # (judge.engine.vassals); the vassal goes with it
    position = gf.phase_now().position
    return frozenset(p for p in gone if (lord := vassals.overlord(position, p)) is None or lord in gone)


def stand_ins(gf: GameFile, position: Position, orders: dict[str, list[Order]]) -> dict[str, list[Order]]:
    """With SET STANDIN on, the stand-in's orders (judge.engine.stand_in) for each power abandoned or
    resigned that has none of its own: a power taken over or come back is playing again, and so no
    longer stood in for."""
    if not gf.settings.stand_in:
        return {}
    powers = gf.powers()
    gone = [p for p in needs(gf, position) if not orders.get(p)
            and powers[p].status in (PowerStatus.ABANDONED, PowerStatus.RESIGNED)]
    return {p: list(stand_in_orders(gf.variant, position, p, gf.rules)) for p in gone}


def played_digests(gf: GameFile, row: PhaseRow, need: dict[str, Need]) -> dict[str, str]:
    """Each power's digest of the orders the phase was played with, as stored (judge.games.digests):
    every power that had to order or gave orders, so a player compares it with its confirmation's."""
    stored = gf.orders(row.seq)
    return {p: orders_digest(gf.name, row.phase, p, stored.get(p, ()))
            for p in gf.variant.power_ids if p in need or stored.get(p)}


def _tell_about(gf: GameFile, key: str, item: dict[str, Any], now: datetime, deadline: datetime | None) -> None:
    """News about one power (also in every results notice) goes to its player and the master; an open
    power is announced publicly (recipient None) for takeover."""
    account = item.get("account") or gf.powers()[item["power"]].account
    recipients = {account, *gf.masters()} - {None}
    kind = NoticeKind(item["kind"])
    if item.get("open_for_takeover") or kind in (NoticeKind.COIN_TOSS, NoticeKind.ITALY_JOINS):
        recipients = set(gf.recipients())
    gf.announce(key, kind, item, now, deadline, recipients=sorted(recipients, key=lambda r: r or ""))


def _record_missed(gf: GameFile, need: dict[str, Need], missed: list[str], orders: dict[str, list[Order]],
                   now: datetime, row: PhaseRow) -> list[dict[str, Any]]:
    """Civil disorder, abandonment after too many misses in a row, and players who came back."""
    out: list[dict[str, Any]] = []
    for p, pr in gf.powers().items():
        if pr.neutral or pr.status is PowerStatus.ELIMINATED:
            continue
        if p in need and pr.status in PLAYING and (p in missed or orders.get(p)):
            records.note(gf, row.seq, p, pr.account, "missed" if p in missed else
                         "late" if pr.status is PowerStatus.LATE else "on_time")
        if p in missed:
            count = pr.missed + 1
            if pr.status in PLAYING and count >= gf.settings.abandon_after:
                gf.set_power(p, missed=count, status=PowerStatus.ABANDONED)
                gf.power_event(p, pr.account, "abandoned", now, row.phase)
                records.note(gf, row.seq, p, pr.account, "abandoned")
                out.append({"kind": "abandoned", "power": p, "missed": count, "open_for_takeover": True})
            elif pr.status in PLAYING:
                if pr.missed == 0:      # the first phase missed in a row: a new spell of civil disorder
                    records.note(gf, row.seq, p, pr.account, "civil_disorder")
                gf.set_power(p, missed=count, status=PowerStatus.CIVIL_DISORDER)
                out.append({"kind": "civil_disorder", "power": p, "missed": count})
            else:
                gf.set_power(p, missed=count)
        elif orders.get(p):
            if pr.status in (PowerStatus.CIVIL_DISORDER, PowerStatus.ABANDONED):
                gf.power_event(p, pr.account, "returned", now, row.phase)
                out.append({"kind": "returned", "power": p})
            gf.set_power(p, missed=0, status=PowerStatus.ACTIVE)
        elif pr.status is PowerStatus.LATE:
            gf.set_power(p, status=PowerStatus.ACTIVE)
    return out


def _eliminations(gf: GameFile, nxt: Position, now: datetime) -> list[dict[str, Any]]:
    out = []
    for p, pr in gf.powers().items():
        if pr.neutral or pr.status is PowerStatus.ELIMINATED:
            continue
        # (a power with a vassal plays on through it: judge.engine.vassals)
        if not nxt.units_of(p) and not nxt.centres_of(p) and not vassals.vassals_of(nxt, p):
            gf.set_power(p, status=PowerStatus.ELIMINATED)
            gf.power_event(p, pr.account, "eliminated", now, gf.phase_code(nxt))
            out.append({"kind": "eliminated", "power": p})
    return out


def finish(gf: GameFile, ending: Ending, position: Position, now: datetime, key: str,
           played: str | None = None) -> None:
    """End the game at `position`; `played` names the phase it ended in when that is not the
    position's own (a win or a limit reached in processing: the phase just played)."""
    owners = gf.owners()
    result = {**ending.to_json(), "players": sorted({o for p in ending.winners if (o := owners.get(p))}),
              "phase": played or gf.phase_code(position)}
    if gf.current() is None or gf.phase_now().position != position:
        gf.new_phase(position, now, None)
    for p, pr in gf.powers().items():       # the players still in it, or put out by others, finished it
        if pr.status in PLAYING or (pr.status is PowerStatus.ELIMINATED and not _walked_out(gf, p, pr.account)):
            records.note(gf, gf.phase_now().seq, p, pr.account, "finished")
    gf.update_game(status=GameStatus.FINISHED.value, finished_at=iso(now), result=json.dumps(result),
                   next_event_at=None)
    gf.event("finished", now, **result)
    gf.announce(f"{key}:end", NoticeKind.GAME_END, {"result": result}, now)
    diaries.reveal_at_end(gf, key, now)


def _walked_out(gf: GameFile, power: str, account: str | None) -> bool:
    """The power's player abandoned or resigned it (and did not come back) before it was eliminated."""
    last = next(gf.db["power_history"].rows_where(
        "power = ? AND account IS ? AND event IN ('assigned', 'replaced', 'returned', 'abandoned', 'resigned')",
        [power, account], order_by="id DESC", limit=1, select="event"), None)
    return last is not None and last["event"] in ("abandoned", "resigned")


def _results_json(gf: GameFile, results: list[PhaseResult], seq: int) -> list[dict[str, Any]]:
    """The phases one processing played, encoded once (judge.games.resultcodec) with the lines the
    players wrote beside the orders read."""
    return [result_to_json(gf.variant, r, gf.written_lines(seq)) for r in results]


def _summary(gf: GameFile, row: PhaseRow, nxt: Position, missed: list[str], rulings: list[dict[str, Any]],
             news: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything a results report needs, in plain JSON. The results themselves are not copied into
    every recipient's notice: `results_of` names the phase whose stored result they are, and
    `GameService.pending_notices` reads them from there (GameFile.read_notice_payload)."""
    need = orders_needed(gf.variant, nxt)
    return {
        "phase": row.phase, "phase_name": gf.phase_name(row.position),
        "results_of": row.seq,
        "civil_disorder": missed, "rulings": rulings, "news": news,
        "next_phase": gf.phase_code(nxt), "next_phase_name": gf.phase_name(nxt),
        "position": notation.position_to_json(gf.variant, nxt),
        "centre_counts": {p: len(nxt.centres_of(p)) for p in gf.variant.power_ids},
        "survivors": list(survivors(nxt, gf.variant.power_ids)),
        "adjustments": {p: {"builds": n.builds, "removals": n.removals} for p, n in need.items()
                        if nxt.phase.kind is PhaseKind.ADJUSTMENT},
        "retreats": {p: [str(d.unit).upper() for d in n.retreats] for p, n in need.items() if n.retreats},
    }

