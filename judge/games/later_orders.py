"""Orders for a later phase (njudge's `PHASE Fall 1901 Movement` and the order lines after it).

They are kept as read, under the phase's code, and meet the board only when that phase opens: each
line then is used as if sent at that moment (the message replacing the orders for the units it
names, as any), or is void if the unit it names is not the power's there then (it moved, was
dislodged or destroyed). Kept orders for a phase the game passes without playing (no retreats that
season) are void whole. The player is told which lines were used and which were void, and why.
Orders sent by a power's player stay with that player: if someone else plays the power when the
phase opens, they are void.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..engine.calendar import Phase, PhaseKind
from ..engine.orders import Order
from .answers import NoticeKind
from .clock import iso
from .gamefile import GameFile, PhaseRow
from .model import GameError
from .ordercodec import order_from_json, order_to_json
from .order_store import store_orders


def keep(gf: GameFile, power: str, phase: Phase, items: Sequence[tuple[str, Order, int | None]],
         account: str | None, now: datetime, source: str | None) -> None:
    """Keep a message's orders for `phase`, which must be later than the phase now played."""
    row = gf.phase_now()
    if not row.position.phase < phase:
        raise GameError(f"{gf.variant.calendar.name(phase)} is not a later phase: the game is at "
                        f"{gf.phase_name(row.position)}")
    gf.db.table("later_orders").insert({
        "phase": gf.variant.calendar.code(phase), "power": power, "account": account, "at": iso(now),
        "source": source, "written": "\n".join(t for t, _, _ in items),
        "read": json.dumps([{"text": t, "line": line, "json": order_to_json(o)} for t, o, line in items])})


def waiting(gf: GameFile, power: str) -> list[dict[str, Any]]:
    """The power's orders kept for later phases: [{phase, phase_name, written}], oldest first."""
    calendar = gf.variant.calendar
    return [{"phase": r[0], "phase_name": calendar.name(calendar.parse(r[0])), "written": r[1]} for r in gf.read(
        "SELECT phase, written FROM later_orders WHERE power = ? AND state = 'waiting' ORDER BY id", [power])]


def bring_in(gf: GameFile, row: PhaseRow, now: datetime) -> list[dict[str, Any]]:
    """The phase `row` has just opened: the orders kept for it are used (or found void), and those
    kept for a phase now passed are void. One report per kept message, for its sender."""
    calendar, opened = gf.variant.calendar, row.position.phase
    reports = []
    # raw SQL: asked in every phase played, where rows_where looks the schema up three times first
    cursor = gf.db.execute("SELECT * FROM later_orders WHERE state = 'waiting' ORDER BY id")
    columns = [d[0] for d in cursor.description]
    for kept in [dict(zip(columns, r, strict=True)) for r in cursor.fetchall()]:
        phase = calendar.parse(kept["phase"])
        if opened < phase:
            continue
        read = [(r["text"], order_from_json(r["json"])) for r in json.loads(kept["read"])]
        player = gf.powers()[kept["power"]].account
        if phase != opened:
            why = f"{calendar.name(phase)} was not played (no one had anything to do in it)"
            void = [{"text": t, "why": why} for t, _ in read]
        elif player != kept["account"]:
            void = [{"text": t, "why": "another player plays the power now"} for t, _ in read]
        else:
            found = [(t, o, _why_void(gf, row, kept["power"], o)) for t, o in read]
            void = [{"text": t, "why": why} for t, _, why in found if why]
            used = [(t, o) for t, o, why in found if not why]
            if used:
                store_orders(gf, row, kept["power"], used, now, f"later:{kept['id']}", None)
        gf.db.table("later_orders").update(kept["id"], {"state": "void" if len(void) == len(read) else "used",
                                                       "void": json.dumps(void)})
        if kept["account"]:
            reports.append({"id": kept["id"], "account": kept["account"], "power": kept["power"],
                            "phase": kept["phase"], "phase_name": calendar.name(phase),
                            "used": [t for t, _ in read if t not in {v["text"] for v in void}], "void": void})
    return reports


def tell(gf: GameFile, reports: list[dict[str, Any]], now: datetime, deadline: datetime | None) -> None:
    """Each sender of kept orders told what became of them, when the phase opens (with its results)."""
    for report in reports:
        gf.announce(f"later{report['id']}", NoticeKind.LATER_ORDERS, report, now, deadline,
                    recipients=[report["account"]])


def _why_void(gf: GameFile, row: PhaseRow, power: str, order: Order) -> str | None:
    """Why a kept order cannot be used on the board the phase opened on, or None: its unit is not the
    power's there (builds and removals are checked as any are, when the phase is played)."""
    ref = getattr(order, "unit", None)
    kind = row.position.phase.kind
    if ref is None or kind is PhaseKind.ADJUSTMENT:
        return None
    province = ref.location.province
    if kind is PhaseKind.RETREAT:
        ours = any(d.unit.power == power and d.unit.location.province == province for d in row.position.dislodged)
    else:
        unit = row.position.unit_in(province)
        ours = unit is not None and unit.power == power
    if ours:
        return None
    place = gf.variant.board.province(province).name
    return f"no unit of {gf.variant.power(power).name}'s was dislodged in {place}" if kind is PhaseKind.RETREAT \
        else f"{gf.variant.power(power).name} has no unit in {place} now"
