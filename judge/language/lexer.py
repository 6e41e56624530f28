"""The words of one order, as the typed tokens grammar/orders.lark reads.

Players write `A PAR - BUR`, `army paris to burgundy`, `F Mid-Atlantic Ocean -
Spain north coast`, `F StP(sc)`. The lexer lower-cases each word once, joins the
words of multi-word province names (a hyphen inside a name is not a move dash),
reads coasts written after a place, and resolves each name against the variant
(`NameIndex`). The token value of a PLACE is a `Resolved`; of a KIND a `UnitKind`;
of a COAST a `Coast`; of a POWER the power id.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from lark import Token
from lark.lexer import Lexer

from ..engine import Coast, UnitKind
from .names import NameIndex, Resolved, one_edit_apart

# (whitespace before, word): one pass of one compiled pattern over the line
_RAW = re.compile(r"(\s*)(->|=>|-+>|-|\(|\)|/|[^\W_]+(?:['.][^\W_]+)*\.?|\S)")

KEYWORDS: dict[str, str] = {}
for _type, _words in {
    "HOLD": "h hold holds hld stand stands holding",
    "SUPPORT": "s support supports sup supp supporting",
    "CONVOY": "c convoy convoys cvy convoying",
    "DASH": "to m mv move moves moving attack attacks into",
    "RETREAT": "r retreat retreats ret retreating",
    "DISBAND": "d disband disbands disbanded destroy",
    "REMOVE": "remove removes rem delete",
    "BUILD": "b build builds",
    "WAIVE": "waive waives waived",
    # armies aboard fleets (A/F variants)
    "EMBARK": "embark embarks embarking board boards boarding",
    "DISEMBARK": "disembark disembarks disembarking land lands landing unload unloads",
}.items():
    for _w in _words.split():
        KEYWORDS[_w] = _type
KINDS = {"a": UnitKind.ARMY, "army": UnitKind.ARMY, "f": UnitKind.FLEET, "fleet": UnitKind.FLEET,
         "af": UnitKind.ARMY_FLEET}
# Long keywords a typo of which is still read as the keyword ("suports").
_TYPO_KEYWORDS = {w: t for w, t in KEYWORDS.items() if len(w) >= 5}
_TYPO_KEYWORDS.update({"fleet": "KIND"})
NOISE = {"the", "unit", "an", "in", "at", "from", "please", "on", "onto", "aboard"}
COAST_WORDS = {"nc": Coast.NORTH, "sc": Coast.SOUTH, "ec": Coast.EAST, "wc": Coast.WEST,
               "north": Coast.NORTH, "south": Coast.SOUTH, "east": Coast.EAST, "west": Coast.WEST}
COAST_LETTERS = {"n": Coast.NORTH, "s": Coast.SOUTH, "e": Coast.EAST, "w": Coast.WEST}
# The tokens of words with one fixed meaning, made once: tokens are never changed once made,
# and making one for every word of every order was a good part of reading an order.
_KIND_TOKENS = {w: Token("KIND", kind) for w, kind in KINDS.items()}
_WORD_TOKENS = {**{w: Token(t, w) for w, t in KEYWORDS.items()}, **_KIND_TOKENS}  # a unit kind first
_COAST_TOKENS = {c: Token("COAST", c) for c in Coast}
_DASH_TOKENS = {d: Token("DASH", d) for d in ("-", "->", "=>")}
_VIA_CONVOY = Token("VIACONVOY", "via convoy")


_new_tuple = tuple.__new__


class Word(NamedTuple):  # a tuple: built for every word of every order, so it must be cheap to make
    text: str  # as written
    low: str  # lower case, dots and apostrophes dropped (as names.name_key: "Alcmene's" is alcmenes)
    spaced: bool  # whitespace before it


def raw_words(text: str) -> list[Word]:
    # tuple.__new__ makes the Word in C; Word(...) would go through NamedTuple's Python __new__
    return [_new_tuple(Word, (t, t.lower().replace(".", "").replace("'", "") if t[0].isalnum() else t, space != ""))
            for space, t in _RAW.findall(text)]


class Lexed:
    """Tokens of one order plus the notes about how names were read.

    `board`: the line has words only the board can settle (a name with several meanings, a unit
    letter that is no unit kind, a unit named by its kind alone). `cuts`: the indices of unit kind
    tokens that start another order in the same line ("A Ven Stands A Pie-Mar")."""
    __slots__ = ("tokens", "notes", "problems", "board", "cuts")

    def __init__(self) -> None:
        self.tokens: list[Token] = []
        self.notes: list[str] = []
        self.problems: list[Resolved] = []
        self.board = False
        self.cuts: Sequence[int] = ()


# Words that end an abbreviated name ("Eng C A Lon" is no "English C..."): order words and unit kinds.
_ORDER_WORDS = frozenset(KEYWORDS) | frozenset(KINDS) | NOISE
# Token types after which a unit kind starts a new order: "A Ven Stands A Pie-Mar", "A Lon-Bel F Nth C ..."
_ENDS_ORDER = frozenset(("PLACE", "COAST", "HOLD", "VIACONVOY"))
# A letter first in an order that is no unit kind ("E Edi-Nth"): which kind, only the board can say.
UNKNOWN_KIND = Token("KIND", None)
# Quotes a scan or a slip leaves inside a line ("A Vie.—Bud' A Bud.—Ser."): they mean nothing.
_STRAY = frozenset("'’`‘\"“”")


def lex(text: str, names: NameIndex) -> Lexed:
    words = raw_words(text)
    lexed = Lexed()
    out = lexed.tokens
    n = len(words)
    i = 0
    while i < n:
        w = words[i]
        low = w.low
        prev = out[-1].type if out else None
        if not low[0].isalnum():
            if low in _STRAY:
                i += 1
                continue
            i = _punctuation(words, i, prev, out)
            continue
        nxt = words[i + 1].low if i + 1 < n else None
        # A place's coast: "Spain north coast", "Con-Bul EC", "StP nc".
        if prev == "PLACE" and low in COAST_WORDS:
            out.append(_COAST_TOKENS[COAST_WORDS[low]])
            i += 2 if nxt == "coast" else 1
            continue
        if low == "a" and nxt == "/" and i + 2 < n and words[i + 2].low == "f":
            out.append(_KIND_TOKENS["af"])
            i += 3
            continue
        # Multi-word names first, longest first: "Mid-Atlantic Ocean", "St Pete", "North Sea".
        taken = _phrase(words, i, names) if low in names.phrase_starts else None
        if taken:
            pid, used = taken
            out.append(Token("PLACE", Resolved(" ".join(x.text for x in words[i:i + used] if x.low != "-"), pid)))
            i += used
            continue
        if nxt is not None and low in names.abbreviations and low not in _ORDER_WORDS and nxt not in _ORDER_WORDS:
            used = _abbreviated(words, i, names, lexed)
            if used:
                i += used
                continue
        if low in names.power_phrase_starts and i + 2 < n and words[i + 1].low == "-":
            power = names.powers.get(low + " " + words[i + 2].low)  # "Austro-Hungarian A Ser"
            if power is not None:
                out.append(Token("POWER", power))
                i += 3
                continue
        if low in ("via", "by") and nxt in ("convoy", "c", "sea", "convoys"):
            out.append(_VIA_CONVOY)
            i += 2
            continue
        if low == "via" and nxt is None and prev in ("PLACE", "COAST"):
            out.append(_VIA_CONVOY)  # "A LON - BEL VIA": other tools' notation (the diplomacy package)
            i += 1
            continue
        token = _WORD_TOKENS.get(low)
        if token is not None:
            if token.type == "KIND" and prev in _ENDS_ORDER:  # a second order in the line
                lexed.cuts = [*lexed.cuts, len(out)]
            if not (token.type == "DASH" and prev == "DASH"):  # "moves to", "- to"
                out.append(token)
            i += 1
            continue
        if low not in NOISE:
            exact = names.exact.get(low)
            if exact is not None:  # an exact province name: most words left by now
                also = names.also.get(low)
                if also is None:
                    token = names.place_tokens.get(w.text)
                    if token is None:
                        token = _place_token(names, w.text, exact)
                    out.append(token)
                else:  # "Tyr": Tyrolia, or the start of Tyrrhenian Sea
                    out.append(Token("PLACE", Resolved(w.text, exact, candidates=also)))
                    lexed.board = True
            elif not out and len(low) == 1 and nxt is not None and nxt[0].isalnum():
                out.append(UNKNOWN_KIND)  # "E Edi-Nth": a unit letter that is no unit kind
                lexed.board = True
            else:
                _word(w, names, lexed)
        i += 1
    return lexed


# How many exactly named provinces, as written, a name index keeps the token of
_MAX_PLACE_TOKENS = 20000


def _place_token(names: NameIndex, text: str, province: str) -> Token:
    """A province named exactly, as written ("Par", "PAR"): its token, made once for the name index
    (tokens are never changed once made, and a Lark Token costs a Python call to build)."""
    if len(names.place_tokens) >= _MAX_PLACE_TOKENS:
        names.place_tokens.clear()
    token = names.place_tokens[text] = Token("PLACE", Resolved(text, province))
    return token


def _abbreviated(words: list[Word], i: int, names: NameIndex, lexed: Lexed) -> int:
    """A multi-word name written short word by word at words[i] ("Norw. Sea", "W Med.", "Gulf of
    L.", "St. P."): its token, and the number of words it took (0: none)."""
    lows: list[str] = []
    for w in words[i:i + names.phrase_lengths[0]]:
        if not w.low[0].isalnum() or (lows and w.low in _ORDER_WORDS):
            break
        lows.append(w.low)
    if len(lows) < 2:
        return 0
    found, used = names.abbreviated(lows)
    if not used:
        return 0
    text = " ".join(w.text for w in words[i:i + used])
    if len(found) == 1:
        lexed.tokens.append(Token("PLACE", Resolved(text, found[0])))
    else:
        full = tuple(names.name(p) for p in found)
        resolved = Resolved(text, None, ambiguous=full, candidates=found)
        lexed.problems.append(resolved)
        lexed.board = True
        lexed.tokens.append(Token("PLACE", resolved))
    return used


def _punctuation(words: list[Word], i: int, prev: str | None, out: list[Token]) -> int:
    """Dashes, brackets and slashes at words[i]; returns the index of the next word to read."""
    low = words[i].low
    n = len(words)
    if low in ("-", "->", "=>") or low.endswith(">"):
        # "moves -", "- to", "A Par -- Bur": one move dash however many words or marks say it
        if prev != "DASH":
            out.append(_DASH_TOKENS.get(low) or Token("DASH", low))
        return i + 1
    if low == "(":
        close = next((j for j in range(i + 1, min(n, i + 4)) if words[j].low == ")"), None)
        coast = _coast(words[i + 1:close], prev) if close else None
        if close is not None and coast is not None:
            out.append(_COAST_TOKENS[coast])
            return close + 1
        return i + 1  # stray brackets carry no meaning in an order
    if low == ")":
        return i + 1
    if low == "/" and prev == "PLACE" and i + 1 < n:
        span = 2 if i + 2 < n and words[i + 2].low == "coast" else 1
        coast = _coast(words[i + 1:i + 1 + span], prev)
        if coast is not None:
            out.append(_COAST_TOKENS[coast])
            return i + 1 + span
    out.append(Token("OTHER", words[i].text))
    return i + 1


def _word(w: Word, names: NameIndex, lexed: Lexed) -> None:
    # Not an exact province name (the caller tried that first): an exact power ("English"
    # before "English Channel" by prefix), then prefixes and typos of provinces.
    power = names.power(w.low)
    if power is not None:
        lexed.tokens.append(Token("POWER", power))
        return
    res = names.word(w.low)
    if res.province is None and not res.ambiguous and (
            w.text.endswith(".") or (lexed.tokens and lexed.tokens[-1].type in ("SUPPORT", "CONVOY"))):
        power = names.power_start(w.low)  # "S Turk. A Bul-Rum": shortened with a stop, or where a power goes
        if power is not None:
            lexed.tokens.append(Token("POWER", power))
            return
    if res.province is not None and not res.corrected:
        lexed.tokens.append(Token("PLACE", Resolved(w.text, res.province)))
        return
    if not res.ambiguous and len(w.low) >= 5:
        typo = [t for k, t in _TYPO_KEYWORDS.items() if one_edit_apart(w.low, k)]
        if typo and len(set(typo)) == 1:
            value = UnitKind.FLEET if typo[0] == "KIND" else w.low
            lexed.tokens.append(Token(typo[0], value))
            lexed.notes.append(f"{w.text} read as {'fleet' if typo[0] == 'KIND' else typo[0].lower()}")
            return
    resolved = Resolved(w.text, res.province, res.corrected, res.ambiguous, res.suggestions, res.candidates)
    if res.province is not None:
        lexed.notes.append(f"{w.text} read as {names.name(res.province)}")
    else:
        lexed.problems.append(resolved)
        lexed.board = lexed.board or bool(res.candidates)
    lexed.tokens.append(Token("PLACE", resolved))


def _phrase(words: list[Word], i: int, names: NameIndex) -> tuple[str, int] | None:
    """A multi-word name starting at words[i]: (province, tokens used), or None."""
    longest = names.phrase_lengths[0]
    parts: list[str] = []
    ends: list[int] = []  # ends[k]: the index after the (k+1)th word of the name
    j = i
    while j < len(words) and len(parts) < longest:
        w = words[j]
        if parts and w.low == "-" and not w.spaced and j + 1 < len(words) and not words[j + 1].spaced:
            j += 1  # a hyphen inside a name: "Mid-Atlantic"
            continue
        if parts and w.low in _STRAY and not w.spaced:
            j += 1  # an apostrophe ending a word of a name: "Hercules' Respite" (Sail Ho!)
            continue
        if not w.low[0].isalnum():
            break
        parts.append(w.low)
        j += 1
        ends.append(j)
    for length in names.phrase_lengths:  # longest first
        if length <= len(parts):
            pid = names.phrase(tuple(parts[:length]))
            if pid is not None:
                return pid, ends[length - 1] - i
    return None


def _coast(words: list[Word], prev: str | None) -> Coast | None:
    lows = [w.low for w in words if w.low != "coast"]
    if len(lows) != 1 or prev != "PLACE":
        return None
    return COAST_WORDS.get(lows[0]) or COAST_LETTERS.get(lows[0])


class TokenListLexer(Lexer):
    """Lark's side of the hand-over: the parse input is already a list of tokens."""

    # Lark's current custom-lexer interface: `lex(lexer_state, parser_state)`, called without a wrapper.
    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:  # Lark's constructor signature
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:  # the state's text: our tokens
        return iter(lexer_state.text)
