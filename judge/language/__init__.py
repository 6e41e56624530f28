"""The order and command language: what players write, read into typed values.

API (others call these; nothing here raises on bad input except where noted):

- `OrderReader(variant)`: build once per variant and keep; holds the LALR parser
  (grammar/orders.lark) and the variant's `NameIndex`.
- `parse_orders(text, variant_or_reader, phase_kind, *, power=None, position=None) -> OrderParse`:
  `.orders` are `ParsedOrder(line, text, order, power, notes)` with `order` an engine
  order (judge.engine.orders) and notes like "Burgandy read as Burgundy"; `.errors`
  are `OrderError(line, text, problem, expected, suggestions)`. phase_kind decides
  whether `A Bur-Gas` is a Move or a Retreat and which orders are allowed. With `position` (an
  engine Position, or a `BoardView` of one made once) names are read as the board allows: `A Liv`
  with the army in Liverpool, `F Nap-Tyr` to the Tyrrhenian Sea, `F Stands` for a power's one fleet,
  `E Edi-Nth` for the fleet in Edinburgh, each with a note "read '...' as ...: why"; where the board
  leaves two meanings, an error that names both. In an adjustment phase a bare unit (`F Edi`) is a
  build for a power that builds and a removal for one that removes.
- `parse_message(text, context, *, commands=CommandReader()) -> Message`: a cleaned
  body into `CommandItem`s (typed commands, judge.language.commands), `OrderBlock`s
  and `OrderError`s, in the order written. `context(signon)` gets the SignOn/Join the
  orders follow (or None) and returns an `OrderContext(reader, phase_kind, power, position)` or
  None (see judge.language.message). `Message.ignored` lists the `IgnoredLine`s set
  aside as greetings and sign-offs (judge.language.chatter); they are not errors.
- `clean_body(email_message) -> str`, `clean_text(text) -> str`: the body clean-up
  (judge.language.clean); `clean.attachments(email_message)` names the attached
  files, which are not read.
- `describe(order, variant) -> str`: "Fleet Mid-Atlantic Ocean -> Spain (north coast)".
- `OrderSyntaxError`: the only exception type the parser lets out (`parse_order`
  raises it on purpose; `parse_orders` raises it only for a defect of its own).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board_reading import BoardView
    from .clean import clean_body, clean_text
    from .commands import CommandError, CommandReader
    from .message import CommandItem, IgnoredLine, Message, OrderBlock, OrderContext, parse_message
    from .parse import OrderError, OrderParse, OrderReader, OrderSyntaxError, ParsedOrder, parse_order, parse_orders
    from .render import describe

# Each name's module, imported when the name is first asked for: the grammars are built at import,
# which a command line that reads no orders (`judge status`: the games layer needs names.py only) skips.
WHERE = {
    "BoardView": "board_reading", "clean_body": "clean", "clean_text": "clean", "CommandError": "commands",
    "CommandReader": "commands", "CommandItem": "message", "IgnoredLine": "message", "Message": "message",
    "OrderBlock": "message", "OrderContext": "message", "parse_message": "message", "OrderError": "parse",
    "OrderParse": "parse", "OrderReader": "parse", "OrderSyntaxError": "parse", "ParsedOrder": "parse",
    "parse_order": "parse", "parse_orders": "parse", "describe": "render",
}


def __getattr__(name: str) -> object:
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{WHERE[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["BoardView", "CommandError", "CommandItem", "CommandReader", "IgnoredLine", "Message", "OrderBlock",
           "OrderContext",
           "OrderError", "OrderParse", "OrderReader", "OrderSyntaxError", "ParsedOrder", "clean_body",
           "clean_text", "describe", "parse_message", "parse_order", "parse_orders"]
