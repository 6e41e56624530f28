"""Lines in an order block that plainly are not orders: greetings, sign-offs, names.

Players write "Hi judge," above their orders and "Thanks, Ann" or "Sent from my
iPhone" below them. Reporting those as bad orders would bury the one real mistake
of a mail among false ones, so a line in which nothing could start an order is set
aside (the message lists it, as ignored) instead of read. A line is kept as an
attempt at an order, and so read and reported if it is wrong, when any of these is
in it:

- a province or power name read exactly or by a unique prefix ("Par", "Berlin",
  "France"), or a name of three letters or more that could be several provinces;
- a dash or arrow standing between words ("Lndn - Yrk", "x -> y");
- an order word or unit type as its first word ("Hold ...", "A ...", "Build ...");
- a first word one letter away from a command ("SINGON Fgame pw"), so a mistyped
  command is reported, not set aside;
- "waive" anywhere.

A one-edit typo of a name does not count on its own ("Best" is not Brest), but a line
the reader takes as an order without error always is one ("Pariss holds"). Without
a variant to read names (no game to order for) every order word counts, so a mail
that needs a SIGNON still hears about its orders.
"""
from __future__ import annotations

import re

from lark import Token

from ..engine.calendar import PhaseKind
from .commands import COMMAND_WORDS
from .lexer import KEYWORDS, KINDS, lex, raw_words
from .names import one_edit_apart
from .parse import LIST_MARKER, OrderReader

_LONG_COMMANDS = tuple(w for w in COMMAND_WORDS if len(w) >= 5)

_DASH = re.compile(r"(^|\s)-+>?(\s|$)|->|=>|\s-+>?\S|\S-+>?\s")


def is_chatter(line: str, reader: OrderReader | None, phase_kind: PhaseKind | None = None) -> bool:
    """True when nothing in `line` could be (part of) an order (see the module doc)."""
    text = LIST_MARKER.sub("", line.strip())
    words = [w.low for w in raw_words(text) if w.low[0].isalnum()]
    if not words:
        return True  # "---", "***", an emoji: no word, no order
    if _DASH.search(text) or "waive" in words:
        return False
    first = words[0]
    if first in KINDS or first in KEYWORDS or _mistyped_command(first):
        return False
    if reader is None:
        return not any(w in KEYWORDS and len(w) > 2 for w in words)
    tokens = lex(text, reader.names).tokens
    if any(_names_a_place(t) for t in tokens):
        return False
    if not any(t.type == "PLACE" and t.value.corrected for t in tokens):
        return True  # no place at all: no order can be made of it
    read = reader.parse(text, phase_kind or PhaseKind.MOVEMENT)
    return not (read.orders and not read.errors)


def _mistyped_command(word: str) -> bool:
    return len(word) >= 5 and any(one_edit_apart(word, command) for command in _LONG_COMMANDS)


def _names_a_place(token: Token) -> bool:
    if token.type in ("POWER", "COAST"):
        return True
    if token.type != "PLACE":
        return False
    value = token.value
    if value.province is not None:
        return not value.corrected
    return len(value.text) >= 3 and bool(value.ambiguous)
