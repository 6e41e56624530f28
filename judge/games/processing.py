"""Time passing in one game: reminders, late notices, and playing a phase.

Everything here runs inside one transaction of the game file, opened by the service, so a
phase is adjudicated, stored, advanced, given its next deadline and announced all at once
or not at all. `checkpoint(name)` marks the steps; a crash test kills the process there.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from ..engine import notation, orders_needed, process_phase
from ..engine.calendar import PhaseKind
from ..engine.orders import Build, Disband, Order, Waive
from ..engine.outcomes import PhaseResult
from ..engine.phase import Need, check_orders
from ..engine.position import Position
from . import records
from .answers import NoticeKind
from .clock import deadline_for, iso, processing_time, reminder_times
from .ending import Ending, check_limits, check_win, survivors
from .exchange import Settlement
from .gamefile import GameFile, PhaseRow
from .model import PLAYING, GameStatus, NmrPolicy, PowerStatus
from .resultcodec import result_to_json, written_key
from .worldwar import close_italy, italy_closed, world_war_events

Checkpoint = Callable[[str], None]


def _no_checkpoint(name: str) -> None:
    pass


# -- who owes what -------------------------------------------------------------------------------

def needs(gf: GameFile, position: Position) -> dict[str, Need]:
    """What each power with a player (or that could have one) must decide; neutral powers never do."""
    powers = gf.powers()
    return {p: n for p, n in orders_needed(gf.variant, position).items() if not powers[p].neutral}


def expected(gf: GameFile, position: Position) -> list[str]:
    """Powers whose player we wait for: with something to decide and a player who is still playing."""
    powers = gf.powers()
    return [p for p in needs(gf, position) if powers[p].status in PLAYING]


def owing(gf: GameFile, row: PhaseRow) -> list[str]:
    """Powers that sent nothing at all: late, and in civil disorder if the deadline passes so."""
    orders = gf.orders(row.seq)
    return [p for p in expected(gf, row.position) if not orders.get(p)]


def not_in(gf: GameFile, row: PhaseRow) -> list[str]:
    """Powers whose orders are not complete: some unit that needs an order has no valid one.

    Being "in" is what lets a phase be played before its deadline, so one stray line (an order
    for a unit that needed none, or for one unit of four) does not count: every unit must be
    ordered, a hold included (see unordered)."""
    orders = gf.orders(row.seq)
    return [p for p in expected(gf, row.position) if unordered(gf, row, p, orders)]


def unordered(gf: GameFile, row: PhaseRow, power: str, orders: dict[str, list[Order]] | None = None) -> list[str]:
    """What of this power's duty in the phase has no valid order yet ("A PAR", "2 builds"); empty
    when the power is "in". Orders the rules reject (illegal, not needed) do not count. Checked
    with every power's orders, so a move by an ally's convoy counts once the convoy is ordered."""
    need = needs(gf, row.position).get(power)
    if not need:
        return []
    orders = gf.orders(row.seq) if orders is None else orders
    mine = orders.get(power, [])
    bad = [p.order for p in check_orders(gf.variant, row.position, orders, gf.rules) if p.power == power]
    valid = [o for o in mine if o not in bad]
    ordered = {o.unit.location.province for o in valid if getattr(o, "unit", None) is not None}
    out = [str(row.position.unit_in(loc.province)).upper() for loc in need.units if loc.province not in ordered]
    out += [str(d.unit).upper() for d in need.retreats if d.unit.location.province not in ordered]
    builds = sum(isinstance(o, (Build, Waive)) for o in valid)
    removals = sum(isinstance(o, Disband) for o in valid)
    if builds < need.builds:
        out.append(f"{need.builds - builds} build(s) or waive(s)")
    if removals < need.removals:
        out.append(f"{need.removals - removals} removal(s)")
    return out


def ready(gf: GameFile, row: PhaseRow) -> bool:
    """Everyone we wait for is in (complete orders) and nobody asked to wait: play the phase now."""
    waiting = expected(gf, row.position)
    powers = gf.powers()
    return bool(waiting) and not not_in(gf, row) and not any(powers[p].waiting for p in waiting)


def next_event(gf: GameFile, now: datetime) -> datetime | None:
    """When the scheduler must next look at this game (None: nothing will happen by itself)."""
    if gf.status is not GameStatus.ACTIVE:
        return None
    row = gf.current()
    if row is None or row.deadline is None:
        return None
    if ready(gf, row):
        return min(now, row.deadline)
    times = []
    late = owing(gf, row)
    if gf.settings.nmr_policy is NmrPolicy.CIVIL_DISORDER or not late:
        times.append(processing_time(gf.settings, row.deadline))
    if late:
        if not row.late_noticed:
            times.append(row.deadline)
        times += [when for hours, when in reminder_times(gf.settings, row.deadline, row.started_at)
                  if hours not in row.reminded]
    return min(times) if times else None


def phase_deadline(gf: GameFile, position: Position, now: datetime) -> datetime:
    accounts = [gf.powers()[p].account for p in expected(gf, position)]
    return deadline_for(gf.settings, position.phase.kind.value, now, gf.absences(accounts))


# -- the scheduler's call --------------------------------------------------------------------------

def wake(gf: GameFile, now: datetime, checkpoint: Checkpoint = _no_checkpoint) -> str:
    """Do whatever is due in this game now. Returns what was done."""
    if gf.status is not GameStatus.ACTIVE:
        return "nothing"
    row = gf.current()
    if ready(gf, row):
        return process(gf, now, checkpoint)
    late = owing(gf, row)
    # At the deadline (after grace) the phase is played; under the "wait" policy only once nobody owes
    # orders (a power that asked to wait does not hold back the deadline).
    if now >= processing_time(gf.settings, row.deadline) and (
            gf.settings.nmr_policy is NmrPolicy.CIVIL_DISORDER or not late):
        return process(gf, now, checkpoint)
    done = "nothing"
    if now >= row.deadline and not row.late_noticed and late:
        for p in late:
            gf.set_power(p, status=PowerStatus.LATE)
        gf.db["phases"].update(row.seq, {"late_noticed": 1})
        _tell_owing(gf, row, late, NoticeKind.LATE, f"{row.seq}:{iso(row.deadline)}", now,
                    {"processing_at": gf.times(processing_time(gf.settings, row.deadline), None)})
        done = "late"
    due = [h for h, when in reminder_times(gf.settings, row.deadline, row.started_at)
           if when <= now and h not in row.reminded]
    if due and late and now < row.deadline:
        # after a long stop only the latest reminder is worth sending
        _tell_owing(gf, row, late, NoticeKind.REMINDER, f"{row.seq}:{iso(row.deadline)}:{min(due):g}", now,
                    {"hours_left": min(due)})
        done = "reminded"
    if due:
        gf.db["phases"].update(row.seq, {"reminded": json.dumps(sorted(row.reminded + due))})
    gf.update_game(next_event_at=_iso_or_none(next_event(gf, now)))
    return done


def _tell_owing(gf: GameFile, row: PhaseRow, late: list[str], kind: NoticeKind, key: str, now: datetime,
                extra: dict) -> None:
    powers = gf.powers()
    accounts = sorted({powers[p].account for p in late if powers[p].account})
    base = {"phase": row.phase, "phase_name": gf.phase_name(row.position), "owing": late, **extra}
    for account in accounts:
        gf.notice(key, kind, account, {**base, "deadline": gf.times(row.deadline, account),
                                       "yours": [p for p in late if powers[p].account == account]}, now)
    for master in gf.masters():      # the master and any co-master (PROMOTE)
        if master not in accounts:
            gf.notice(key, kind, master, {**base, "deadline": gf.times(row.deadline, master)}, now)


def _iso_or_none(when: datetime | None) -> str | None:
    return iso(when) if when else None


# -- playing a phase -------------------------------------------------------------------------------

def process(gf: GameFile, now: datetime, checkpoint: Checkpoint = _no_checkpoint) -> str:
    row = gf.current()
    position = row.position
    orders = gf.orders(row.seq)
    need = needs(gf, position)
    missed = [p for p in need if not orders.get(p)]
    rulings: list[dict] = []
    if gf.setup.world_war and italy_closed(position.phase):
        orders, rulings = close_italy(orders)
    exchanges = Settlement(gf, row)  # centres exchanged at the end of the move (variants with the hook)
    turn = process_phase(gf.variant, position, orders, gf.rules, after_movement=exchanges.apply)
    checkpoint("adjudicated")
    results = [turn.result, *turn.skipped]
    nxt = turn.next
    news = _record_missed(gf, need, missed, orders, now, row)
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
        more = process_phase(gf.variant, nxt, {}, gf.rules)
        results += [more.result, *more.skipped]
        nxt = more.next

    encoded = _results_json(gf, results, row.seq)
    gf.db["phases"].update(row.seq, {
        "processed_at": iso(now), "result": json.dumps({"results": encoded, "civil_disorder": missed,
                                                        "rulings": rulings})})
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
        for p in gf.powers():
            gf.set_power(p, waiting=0)
    checkpoint("phase advanced")
    summary = {**_summary(gf, row, nxt, missed, rulings, news), "exchanges": exchanges.report}
    gf.announce(str(row.seq), NoticeKind.RESULTS, summary, now, deadline)
    for item in news:
        _tell_about(gf, f"{row.seq}:{item['power']}", item, now, deadline)
    checkpoint("notices written")
    gf.update_game(next_event_at=_iso_or_none(next_event(gf, now)))
    return "finished" if ending else "processed"


def _tell_about(gf: GameFile, key: str, item: dict, now: datetime, deadline: datetime | None) -> None:
    """News about one power (also in every results notice) goes to its player and the master; an open
    power is announced publicly (recipient None) for takeover."""
    account = item.get("account") or gf.powers()[item["power"]].account
    recipients = {account, *gf.masters()} - {None}
    kind = NoticeKind(item["kind"])
    if item.get("open_for_takeover") or kind in (NoticeKind.COIN_TOSS, NoticeKind.ITALY_JOINS):
        recipients = set(gf.recipients())
    gf.announce(key, kind, item, now, deadline, recipients=sorted(recipients, key=lambda r: r or ""))


def _record_missed(gf: GameFile, need: dict[str, Need], missed: list[str], orders: dict[str, list[Order]],
                   now: datetime, row: PhaseRow) -> list[dict]:
    """Civil disorder, abandonment after too many misses in a row, and players who came back."""
    out: list[dict] = []
    for p, pr in gf.powers().items():
        if pr.neutral or pr.status is PowerStatus.ELIMINATED:
            continue
        if p in need and pr.status in PLAYING:
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


def _eliminations(gf: GameFile, nxt: Position, now: datetime) -> list[dict]:
    out = []
    for p, pr in gf.powers().items():
        if pr.neutral or pr.status is PowerStatus.ELIMINATED:
            continue
        if not nxt.units_of(p) and not nxt.centres_of(p):
            gf.set_power(p, status=PowerStatus.ELIMINATED)
            gf.power_event(p, pr.account, "eliminated", now, gf.phase_code(nxt))
            out.append({"kind": "eliminated", "power": p})
    return out


def finish(gf: GameFile, ending: Ending, position: Position, now: datetime, key: str,
           played: str | None = None) -> None:
    """End the game at `position`; `played` names the phase it ended in when that is not the
    position's own (a win or a limit reached in processing: the phase just played)."""
    owners = gf.owners()
    result = {**ending.to_json(), "players": sorted({owners[p] for p in ending.winners if owners.get(p)}),
              "phase": played or gf.phase_code(position)}
    if gf.current() is None or gf.current().position != position:
        gf.new_phase(position, now, None)
    for p, pr in gf.powers().items():       # the players still in it, or put out by others, finished it
        if pr.status in PLAYING or (pr.status is PowerStatus.ELIMINATED and not _walked_out(gf, p, pr.account)):
            records.note(gf, gf.current().seq, p, pr.account, "finished")
    gf.update_game(status=GameStatus.FINISHED.value, finished_at=iso(now), result=json.dumps(result),
                   next_event_at=None)
    gf.event("finished", now, **result)
    gf.announce(f"{key}:end", NoticeKind.GAME_END, {"result": result}, now)


def _walked_out(gf: GameFile, power: str, account: str | None) -> bool:
    """The power's player abandoned or resigned it (and did not come back) before it was eliminated."""
    last = next(gf.db["power_history"].rows_where(
        "power = ? AND account IS ? AND event IN ('assigned', 'replaced', 'returned', 'abandoned', 'resigned')",
        [power, account], order_by="id DESC", limit=1, select="event"), None)
    return last is not None and last["event"] in ("abandoned", "resigned")


def _results_json(gf: GameFile, results: list[PhaseResult], seq: int) -> list[dict]:
    """The phases one processing played, encoded once (judge.games.resultcodec) with the lines the
    players wrote beside the orders read."""
    written: dict[tuple[str, str], str] = {}
    for power in {o.power for r in results for o in r.outcomes}:
        for r in gf.order_rows(seq, power):
            written[written_key(power, r["read"])] = r["written"]
    return [result_to_json(gf.variant, r, written) for r in results]


def _summary(gf: GameFile, row: PhaseRow, nxt: Position, missed: list[str], rulings: list[dict],
             news: list[dict]) -> dict:
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

