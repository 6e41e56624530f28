"""A message's orders stored for a phase: the submission kept as written, and the standing orders
(one per unit, the last line for a unit winning; in an adjustment phase the message's orders replace
the power's, since builds count in the order written). Used by orders sent now and by orders kept for
a later phase when it opens (judge.games.later_orders)."""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..engine import notation
from ..engine.army_fleet import army_key
from ..engine.calendar import PhaseKind
from ..engine.orders import Disembark, Order
from .gamefile import GameFile, PhaseRow
from .ordercodec import order_to_json


def items_of(items: Sequence[Any]) -> list[tuple[str, Order, int | None]]:
    """(text as written, engine order, line) from parsed orders or (text, Order) pairs."""
    out = []
    for item in items:
        if isinstance(item, tuple):
            text, order = item
            line = None
        else:
            text, order, line = item.text, item.order, getattr(item, "line", None)
        if order is not None:
            out.append((text, order, line))
    return out


def store_orders(gf: GameFile, row: PhaseRow, power: str, items: Sequence[Any], now: datetime,
                 source: str | None, written: str | None) -> int:
    parsed = items_of(items)
    read = [{"text": t, "line": line, "order": notation.order_text(o), "json": order_to_json(o)}
            for t, o, line in parsed]
    text = written if written is not None else "\n".join(t for t, _, _ in parsed)
    sid = gf.submission(row.seq, power, now, source, "orders", text, read)
    adjustment = row.position.phase.kind is PhaseKind.ADJUSTMENT
    # Raw SQL from here: on every order mail (the orders upserted one by one, the last line for a unit
    # standing); sqlite-utils' table API would look the schema up again for each statement.
    if adjustment:
        gf.db.execute("DELETE FROM orders WHERE phase_seq = ? AND power = ?", [row.seq, power])
    start = gf.db.execute("SELECT coalesce(max(position), 0) FROM orders WHERE phase_seq = ? AND power = ?",
                          [row.seq, power]).fetchone()[0]
    for i, (t, order, _) in enumerate(parsed):
        unit = getattr(order, "unit", None)
        slot = f"adjustment:{i:03d}" if adjustment or unit is None else unit.location.province
        if isinstance(order, Disembark):  # an A/F's army has an order of its own beside its fleet's
            slot = army_key(slot)
        gf.db.execute("INSERT INTO orders (phase_seq, power, slot, position, written, read, submission_id) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(phase_seq, power, slot) DO UPDATE SET "
                      "position = excluded.position, written = excluded.written, read = excluded.read, "
                      "submission_id = excluded.submission_id",
                      [row.seq, power, slot, start + i + 1, t, json.dumps(order_to_json(order)), sid])
    return sid
