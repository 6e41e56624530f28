"""Order lines to engine orders, for the command-line and JSON edges.

With the players' parser (judge.language), when the caller passes one, every line is read by it,
as mail reads it, with the request's board and power: the canonical notation (`A PAR - BUR`,
`F NTH C A LON - NWY`, ...), the other tools' notations (`A LON - BEL VIA`, `A PAR B`, `F STP/NC B`)
and hand-written orders alike. So a name reads as it does by mail (`F NAP - TYR` is the Tyrrhenian
Sea, as a fleet cannot enter Tyrolia; `A Liv-Yor` with the army in Liverpool), and the unit an order
names is the unit that stands there (`F STP/NC - BOT` with the fleet on the south coast is that
fleet). A line read otherwise than as written, or with a note, is returned as a note. Without the
parser a line must be in the canonical notation. A line that cannot be read is reported with its
line number, never guessed. Given the position, a movement phase's lines the small exact reader
(judge.quick_orders) is sure of are read by it, the rest by the parser: the same orders either way.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from .engine import Order, Position, Variant
from .engine.calendar import PhaseKind
from .engine.notation import NotationError, order_text, parse_order
from .language import BoardView, OrderReader
from .quick_orders import quick_order


class ReadLines(NamedTuple):
    orders: list[Order]
    errors: list[dict[str, Any]]  # {"line", "text", "error"}
    notes: list[dict[str, Any]]   # {"line", "text", "read_as", "notes"}: lines not in canonical notation


def read_order_lines(variant: Variant, phase_kind: PhaseKind, lines: Iterable[str],
                     reader: OrderReader | None = None, *, power: str | None = None,
                     board: BoardView | Callable[[], BoardView] | None = None,
                     position: Position | None = None, texts: dict[int, str] | None = None) -> ReadLines:
    """`power` and `board` (the request's position): names are read as the board allows, and in an
    adjustment phase a bare unit (`F EDI`) is the power's build, or its removal. `board` may be a
    function making it, called only if a line needs the parser; `position`, the board's position,
    lets the quick reader read the lines it is sure of; `texts`, if given, gets each order it reads
    (by `id`) with its canonical text, `order_text`'s (the line spaced and cased), not to write it again."""
    out = ReadLines([], [], [])
    quick = reader is not None and power is not None and position is not None \
        and phase_kind is PhaseKind.MOVEMENT
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        if quick:
            order = quick_order(reader, position, power, text)  # type: ignore[arg-type]  # (all three given)
            if order is not None:
                out.orders.append(order)
                if texts is not None:
                    texts[id(order)] = _canonical(text)
                continue
        if board is not None and not isinstance(board, BoardView):
            board = board()
        if reader is None:
            try:
                out.orders.append(parse_order(variant, text))
            except NotationError as e:
                out.errors.append({"line": number, "text": text, "error": str(e)})
            continue
        parsed = reader.parse(text, phase_kind, power=power, position=board)
        if parsed.errors or not parsed.orders:
            first = parsed.errors[0] if parsed.errors else None
            why = first.problem if first else "no order in this line"
            if first is not None and first.suggestions:
                lead = "for example" if first.examples else "did you mean"
                why += f" ({lead} {' or '.join(first.suggestions)}{'' if first.examples else '?'})"
            out.errors.append({"line": number, "text": text, "error": why})
            continue
        for p in parsed.orders:
            out.orders.append(p.order)
            read_as = order_text(p.order)
            if p.notes or read_as != _canonical(p.text):
                out.notes.append({"line": number, "text": p.text, "read_as": read_as, "notes": list(p.notes)})
    return out


@lru_cache(maxsize=20000)     # (machines write the same lines again and again)
def _canonical(text: str) -> str:
    """`text` spaced and cased as the canonical notation writes it (`A PAR-BUR` -> `A PAR - BUR`)."""
    return " ".join(text.replace("-", " - ").split()).upper()
