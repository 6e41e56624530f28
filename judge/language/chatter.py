"""Lines in an order block that plainly are not orders: greetings, sign-offs, names.

Players write "Hi judge," above their orders and "Thanks, Ann" or "Sent from my
iPhone" below them. Reporting those as bad orders would bury the one real mistake
of a mail among false ones, so a line in which nothing could start an order is set
aside (the message lists it, as ignored) instead of read. A line is kept as an
attempt at an order, and so read and reported if it is wrong, when any of these is
in it:

- a province or power name read exactly or by a unique prefix ("Par", "Berlin",
  "France"), or a name of three letters or more that could be several provinces;
- a dash or arrow standing after a word ("Lndn - Yrk", "x -> y"), unless that word is a long one
  that names nothing ("Thanks -- E", "Regards - Bob": a signature's dash, not a move's);
- an order word or unit type as its first word ("Hold ...", "A ...", "Build ..."), unless it
  is all there is: "A." or "F" on a line of its own is an initial, never an order;
- a first word one letter away from a command ("SINGON Fgame pw"), so a mistyped
  command is reported, not set aside;
- "waive" anywhere, or an order word of three letters or more ("All units hold").

But a sentence is set aside even when it names a place: a line with at least three words that
name nothing (not a province, power, coast, order word, nor a typo of a province) and more of
them than words of an order ("Changed my mind, the fleet goes to Portugal:", "I think Germany
will attack me"). A mistyped order has few such words ("A Par Bur", "army paris to burgundy",
"Move my army from Paris to Burgundy" has one), so it is still read and answered.

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
# a word that names nothing, this long, is English, not an abbreviation ("Thanks", "Regards")
_LONG_WORD = 5
_SENTENCE_WORDS = 3   # words naming nothing that make a line a sentence
# tokens that are words of an order whatever they stand beside
_ORDER_TOKENS = frozenset({"HOLD", "SUPPORT", "CONVOY", "DASH", "RETREAT", "DISBAND", "REMOVE", "BUILD", "WAIVE",
                           "EMBARK", "DISEMBARK", "KIND", "COAST", "POWER", "VIACONVOY"})


def is_chatter(line: str, reader: OrderReader | None, phase_kind: PhaseKind | None = None) -> bool:
    """True when nothing in `line` could be (part of) an order (see the module doc)."""
    text = LIST_MARKER.sub("", line.strip())
    words = [w.low for w in raw_words(text) if w.low[0].isalnum()]
    if not words:
        return True  # "---", "***", an emoji: no word, no order
    if len(words) == 1 and len(words[0]) == 1:
        return True  # "A.", "E": an initial signing the mail; a lone letter orders nothing
    if "waive" in words or _DASH.search(text) and (reader is None or _moves(text, reader)):
        return False
    first = words[0]
    if first in KINDS or first in KEYWORDS or _mistyped_command(first):
        return False
    if reader is None:
        return not any(w in KEYWORDS and len(w) > 2 for w in words)
    tokens = lex(text, reader.names).tokens
    if _is_sentence(tokens):
        read = reader.parse(text, phase_kind or PhaseKind.MOVEMENT)
        return not (read.orders and not read.errors)
    if any(_names_a_place(t) for t in tokens) or any(w in KEYWORDS and len(w) > 2 for w in words):
        return False  # a place named, or an order's word ("All units hold")
    if not any(t.type == "PLACE" and t.value.corrected for t in tokens):
        return True  # no place at all: no order can be made of it
    read = reader.parse(text, phase_kind or PhaseKind.MOVEMENT)
    return not (read.orders and not read.errors)


def _moves(text: str, reader: OrderReader) -> bool:
    """Whether a dash in `text` can be a move's: one standing apart from a word before it that
    is not long English ("Par - Bur", "Lndn -Yrk", "Pqris -> Bur"), never one opening the line
    ("-- E") nor the hyphen inside a name ("Jean-Luc")."""
    words = raw_words(text)
    for i, word in enumerate(words):
        if word.low[0] not in "-=":
            continue
        apart = word.spaced or (i + 1 < len(words) and words[i + 1].spaced)
        before = next((w.low for w in reversed(words[:i]) if w.low[0] not in "-="), None)
        if apart and before is not None and before[0].isalnum() and not _long_english(before, reader):
            return True
    return False


def _long_english(word: str, reader: OrderReader) -> bool:
    if len(word) < _LONG_WORD or word in KEYWORDS or word in KINDS or reader.names.power(word) is not None:
        return False
    read = reader.names.word(word)
    return read.province is None and not read.ambiguous


def _is_sentence(tokens: list[Token]) -> bool:
    prose = sum(1 for t in tokens if t.type == "PLACE" and t.value.province is None and not t.value.ambiguous)
    # a KIND of no value is a lone letter that is no unit kind ("I think ..."): no order word
    order = sum(1 for t in tokens if (t.type in _ORDER_TOKENS and t.value is not None) or _names_a_place(t))
    return prose >= _SENTENCE_WORDS and prose > order


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
