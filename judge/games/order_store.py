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
    start = 0 if adjustment else gf.db.execute(     # (an adjustment's orders replace all the power's)
        "SELECT coalesce(max(position), 0) FROM orders WHERE phase_seq = ? AND power = ?",
        [row.seq, power]).fetchone()[0]
    rows = []
    for i, (t, order, _) in enumerate(parsed):
        unit = getattr(order, "unit", None)
        slot = f"adjustment:{i:03d}" if adjustment or unit is None else unit.location.province
        if isinstance(order, Disembark):  # an A/F's army has an order of its own beside its fleet's
            slot = army_key(slot)
        rows.append((slot, start + i + 1, t, json.dumps(order_to_json(order)), sid))
    gf.put_orders(row.seq, power, rows, replace_all=adjustment)
    return sid
