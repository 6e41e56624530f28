"""Order lines to engine orders, for the command-line and JSON edges.

A line in the canonical notation (`A PAR - BUR`, `F NTH C A LON - NWY`, ...) is read exactly.
Any other line goes to the players' parser (judge.language), when the caller passes one, so that
the other tools' notations (`A LON - BEL VIA`, `A PAR B`, `F STP/NC B`) and hand-written orders
read as they do by mail, with the request's board and power (`A Liv-Yor` with the army in Liverpool,
`F Edi` a build in an adjustment phase); how such a line was read is returned as a note. A line neither can read
is reported with its line number, never guessed.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from .engine import Order, Variant
from .engine.calendar import PhaseKind
from .engine.notation import NotationError, order_text, parse_order
from .language import BoardView, OrderReader


class ReadLines(NamedTuple):
    orders: list[Order]
    errors: list[dict[str, Any]]  # {"line", "text", "error"}
    notes: list[dict[str, Any]]   # {"line", "text", "read_as", "notes"}: lines not in canonical notation


def read_order_lines(variant: Variant, phase_kind: PhaseKind, lines: Iterable[str],
                     reader: OrderReader | None = None, *, power: str | None = None,
                     board: BoardView | None = None) -> ReadLines:
    """`power` and `board` (the request's position): names are read as the board allows, and in an
    adjustment phase a bare unit (`F EDI`) is the power's build, or its removal."""
    out = ReadLines([], [], [])
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        try:
            out.orders.append(parse_order(variant, text))
            continue
        except NotationError as e:
            strict_error = str(e)
        if reader is None:
            out.errors.append({"line": number, "text": text, "error": strict_error})
            continue
        parsed = reader.parse(text, phase_kind, power=power, position=board)
        if parsed.errors or not parsed.orders:
            first = parsed.errors[0] if parsed.errors else None
            why = first.problem if first else "no order in this line"
            if first is not None and first.suggestions:
                why += f" (did you mean {' or '.join(first.suggestions)}?)"
            out.errors.append({"line": number, "text": text, "error": why})
            continue
        for p in parsed.orders:
            out.orders.append(p.order)
            out.notes.append({"line": number, "text": p.text, "read_as": order_text(p.order), "notes": list(p.notes)})
    return out
