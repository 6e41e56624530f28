"""Order lines to engine orders, for the command-line and JSON edges.

Reads the canonical notation (`A PAR - BUR`, `F NTH C A LON - NWY`, ...) strictly;
each line that cannot be read is reported with its line number, never guessed.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .engine import Order, Variant
from .engine.calendar import PhaseKind
from .engine.notation import NotationError, parse_order


def read_order_lines(variant: Variant, phase_kind: PhaseKind,
                     lines: Iterable[str]) -> tuple[list[Order], list[dict[str, Any]]]:
    orders: list[Order] = []
    errors: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        try:
            orders.append(parse_order(variant, text))
        except NotationError as e:
            errors.append({"line": number, "text": text, "error": str(e)})
    return orders, errors
