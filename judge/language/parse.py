"""Order text to engine orders: `OrderReader` (one per variant) and `parse_orders`.

A message's order lines are split into orders (`;` or `,`), each read by the lexer
(judge.language.lexer) and the LALR grammar grammar/orders.lark, whose Transformer
builds the frozen engine orders. The phase then decides what a move means (a
retreat in a retreat phase) and which orders are allowed. A bad line is reported
with its number, its text, what was expected and suggestions; it never hides the
good lines, and nothing but `OrderSyntaxError` is ever raised from here.
"""
from __future__ import annotations

import dataclasses
import difflib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken, VisitError
from lark.parsers.lalr_analysis import Shift

from ..engine import (Build, Convoy, Disband, Disembark, Embark, Hold, Location, Move, Order, Position, Retreat,
                      SupportHold, SupportMove, UnitKind, UnitRef, Variant, Waive)
from ..engine.board import Board
from ..engine.calendar import PhaseKind
from ..engine.geography import Coast, Terrain
from ..engine.notation import order_text
from .clean import normalise_chars
from .coast_reading import Refusal, read_coasts
from .board_reading import BoardView
from .lexer import KINDS, UNKNOWN_KIND, Lexed, TokenListLexer, lex, raw_words
from .names import NameIndex, Resolved, or_list
from .render import describe

GRAMMAR = resources.files("judge.grammar") / "orders.lark"   # grammar/ in the source tree


class OrderSyntaxError(Exception):
    """The parser's only error type; raised only by the `strict` helpers (`parse_order`)."""


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    line: int
    text: str  # the order as written (one order, even when the line held several)
    order: Order
    power: str | None = None  # named by a prefix "England:" / "ENG:" or a header line
    notes: tuple[str, ...] = ()  # e.g. "Burgandy read as Burgundy"


# What a name error expects: a name the board may then narrow to the places the unit can reach.
_NAME_EXPECTED = ("a name with one meaning", "a province")


@dataclass(frozen=True, slots=True)
class OrderError:
    line: int
    text: str
    problem: str
    expected: str = ""
    suggestions: tuple[str, ...] = ()
    # the suggestions are orders of the phase's kind, not a guess at what was meant: a reply shows
    # them "for example", never "did you mean" (they may name a unit the player does not have)
    examples: bool = False

    def __str__(self) -> str:
        parts = [f"line {self.line}: {self.text!r}: {self.problem}"]
        if self.expected:
            parts.append(f"expected {self.expected}")
        if self.suggestions and self.examples:
            parts.append("for example " + or_list([repr(s) for s in self.suggestions]))
        elif self.suggestions:
            parts.append("did you mean " + or_list([repr(s) for s in self.suggestions]) + "?")
        return "; ".join(parts)


@dataclass(frozen=True)
class OrderParse:
    orders: tuple[ParsedOrder, ...] = ()
    errors: tuple[OrderError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


# One order read: (the order, notes on how it was read), or why it could not be.
Reading = tuple[Order, tuple[str, ...]] | OrderError
# A line read without the board: its reading, or for a line holding several orders each
# (text, what it reads as, whether the board could change that)
LineReading = Reading | list[tuple[str, Reading, bool]]
# What a grammar rule hands its Transformer method: tokens, and what inner rules built
_Items = list[Any]
# What the grammar's start rule builds: (which words built it, the order or its parts)
_Built = tuple[str, Any]


# What each grammar terminal means to a player, for "expected ..." in error replies.
EXPECTED_WORDS = {
    "KIND": "A or F", "PLACE": "a province", "COAST": "a coast", "DASH": "'-' and where to",
    "HOLD": "H (hold)", "SUPPORT": "S (support)", "CONVOY": "C (convoy)", "VIACONVOY": "'via convoy'",
    "RETREAT": "R (retreat)", "DISBAND": "D (disband)", "REMOVE": "remove", "BUILD": "build",
    "WAIVE": "waive", "POWER": "a power", "$END": "the end of the order",
    "EMBARK": "embarks", "DISEMBARK": "disembarks",
}
EXAMPLES = {
    PhaseKind.MOVEMENT: ("A Par H", "A Par - Bur", "A Mar S A Par - Bur", "F Nth C A Lon - Nwy"),
    PhaseKind.RETREAT: ("A Bur - Gas", "A Bur R Gas", "disband A Bur"),
    PhaseKind.ADJUSTMENT: ("build A Par", "build F StP/nc", "remove A Mun", "waive"),
}


# Terminals not worth suggesting in a phase where they cannot make a valid order.
_NOT_IN_PHASE = {
    PhaseKind.MOVEMENT: {"RETREAT", "DISBAND", "REMOVE", "BUILD", "WAIVE"},
    PhaseKind.RETREAT: {"HOLD", "SUPPORT", "CONVOY", "VIACONVOY", "REMOVE", "BUILD", "WAIVE", "EMBARK", "DISEMBARK"},
    PhaseKind.ADJUSTMENT: {"HOLD", "SUPPORT", "CONVOY", "VIACONVOY", "RETREAT", "DASH", "EMBARK", "DISEMBARK"},
}


def _own_examples(error: OrderError, view: BoardView | None, power: str | None) -> OrderError:
    """Generic examples ("A Bur - Gas") give way to orders from the writer's own units, when the
    board and the power are known and it has something to order."""
    if not error.examples or view is None or not power:
        return error
    own = view.examples(power)
    return dataclasses.replace(error, suggestions=own) if own else error


class _Build(Transformer[Token, _Built]):
    """Grammar trees to (tag, order): tag says which words built it, for the phase check.

    Each method gets the list of its rule's children. Lark calls these methods as the LALR
    parser reduces (the Transformer is given at construction), so no tree is ever built;
    and without `v_args` wrappers each reduction is one plain call."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def unit(self, parts: _Items) -> UnitRef:
        if len(parts) == 2:
            return UnitRef(parts[1], parts[0].value)
        if isinstance(parts[0], Location):
            return UnitRef(parts[0])
        return UnitRef(NOWHERE, parts[0].value)  # "F Stands": which fleet, the board says

    placed = unit

    def place(self, parts: _Items) -> Location:
        if len(parts) == 2:
            return Location(parts[0].value.province, parts[1].value)
        return self.board.location(parts[0].value.province)

    def other(self, parts: _Items) -> UnitRef:
        unit: UnitRef = parts[-1]
        if len(parts) == 2:
            return UnitRef(unit.location, unit.kind, parts[0].value)
        return unit

    def move(self, parts: _Items) -> _Built:
        unit, *rest = parts
        via = bool(rest) and getattr(rest[-1], "type", None) == "VIACONVOY"
        places = [p for p in rest if isinstance(p, Location)]
        route = tuple(p.province for p in places[:-1])
        # "A Arm Sev": two places with no dash between can only be a move (said in a note)
        tag = "move" if getattr(rest[0], "type", None) == "DASH" else "dashless"
        return tag, Move(unit, places[-1], via or bool(route), route)

    def hold(self, parts: _Items) -> _Built:
        return "hold", Hold(parts[0])

    def support(self, parts: _Items) -> _Built:
        unit, _s, other, *rest = parts
        to = next((p for p in rest if isinstance(p, Location)), None)
        if to is None or to.province == other.location.province:
            return "support", SupportHold(unit, other)  # "S A yor -> yor": support to hold
        return "support", SupportMove(unit, other, to)

    def convoy(self, parts: _Items) -> _Built:
        unit, _c, army, _dash, to = parts
        return "convoy", Convoy(unit, army, to)

    def retreat(self, parts: _Items) -> _Built:
        unit = next(p for p in parts if isinstance(p, UnitRef))   # "A Bul R Con" or "retreat bul-con"
        return "retreat", Retreat(unit, parts[-1])

    def disband(self, parts: _Items) -> _Built:
        a, b = parts
        return "disband", Disband(a if isinstance(a, UnitRef) else b)

    def remove(self, parts: _Items) -> _Built:
        a, b = parts
        return "remove", Disband(a if isinstance(a, UnitRef) else b)

    def build(self, parts: _Items) -> _Built:
        kind = next((p.value for p in parts if getattr(p, "type", None) == "KIND"), None)
        where = next(p for p in parts if isinstance(p, Location))
        return "build", (kind, where)

    def waive(self, _parts: _Items) -> _Built:
        return "waive", Waive()

    def embark(self, parts: _Items) -> _Built:
        return "embark", Embark(parts[0], parts[-1])

    def disembark(self, parts: _Items) -> _Built:
        unit, _d, *rest = parts
        army = next(p for p in rest if isinstance(p, UnitRef))
        to = next((p for p in rest if isinstance(p, Location)), army.location)
        return "disembark", Disembark(unit, to)

    def bare(self, parts: _Items) -> _Built:
        return "bare", parts[0]

    def start(self, parts: _Items) -> _Built:
        built: _Built = parts[0]  # (no `cast` call: this runs for every order read)
        return built


# Where a unit named by its kind alone stands until the board says which unit it is.
NOWHERE = Location("?")
# The most readings of one line tried against the board ("Nor" alone has five meanings).
MAX_READINGS = 64

_SPLIT = re.compile(r"[;,]")
# A power's name before a unit, with no colon: "ENGLAND A Lon-Tun, F Eng C A Lon-Tun".
_NAMED = re.compile(r"^([^\W\d_]{4,})\s+(?=(?:[AaFf]|[Aa]rmy|[Ff]leet)\s)")
_PREFIX = re.compile(r"^\s*([^\W\d_][\w.]*(?:-[^\W\d_][\w.]*)?)\s*:\s*")
# Trailing full stops and quotes, and the *bold* or _italic_ marks Gmail's plain text gives emphasis.
_TRAILING = re.compile(r"[\s.!?\"'*_]+$")
_LEADING_QUOTE = re.compile(r"^[\s\"'*_]+")
# List markers before an order: "1.", "2)", "*", "-", and the bullets clients write ("•", Word's "·").
LIST_MARKER = re.compile(r"^\s*(?:\d{1,2}[.)]|[*•·◦▪‣⁃]|-(?=\s))\s*")


class OrderReader:
    """Reads orders for one variant. Build it once per variant and keep it (the LALR
    tables and the name index are built here, not in module globals)."""

    def __init__(self, variant: Variant, *, memo_size: int = 20000) -> None:
        self.variant = variant
        self._memo_size = memo_size
        self.names = NameIndex(variant)
        self._lark = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer=TokenListLexer,
                          transformer=_Build(variant.board), maybe_placeholders=False)
        self._run = _LalrLoop.of(self._lark)
        self._memo: dict[tuple[str, PhaseKind, str | None], tuple[LineReading, bool]] = {}

    # -- whole texts -------------------------------------------------------------------------
    def parse(self, text: str, phase_kind: PhaseKind, *, power: str | None = None,
              first_line: int = 1, adjusting: str | None = None,
              position: Position | BoardView | None = None) -> OrderParse:
        """`position`: the board the orders are for (see judge.language.board_reading): a name or
        a unit letter with several meanings is read as the one the board allows, and in an
        adjustment phase a bare unit ("F Edi") is a build or a removal as the power's count says.
        `adjusting` ("build"/"remove"/None) says the latter for a caller without a position."""
        orders: list[ParsedOrder] = []
        errors: list[OrderError] = []
        current = power
        view = position if position is None or isinstance(position, BoardView) else BoardView(self.variant, position)
        for number, given in enumerate(normalise_chars(text).split("\n"), first_line):
            line = given.strip()
            if not line:
                continue
            body, named, bad, prefix_notes = self._power_prefix(line)
            if bad:
                errors.append(OrderError(number, line, f"'{bad}' is not a power of {self.variant.name}",
                                         "a power name before ':'",
                                         tuple(p.name for p in self.variant.powers)))
                continue
            if named and not body.strip():
                current = named  # a header line "England:" for the lines below
                continue
            whose = named or current
            adjust = adjusting or (view.adjusting(whose) if view is not None else None)
            for given_piece in _SPLIT.split(body) if ";" in body or "," in body else (body,):
                piece = given_piece
                if not piece[:1].isalpha():  # no quote or numbering to drop before a letter
                    piece = LIST_MARKER.sub("", _LEADING_QUOTE.sub("", piece))
                if not piece[-1:].isalnum():  # nothing trailing to drop after a letter or digit
                    piece = _TRAILING.sub("", piece)
                piece = piece.strip()
                if not piece:
                    continue
                vassal = self._vassal_alone(piece, view, whose) if view is not None else None
                if vassal is not None:
                    errors.append(dataclasses.replace(vassal, line=number, text=piece))
                    continue
                read, board = self.read_one(piece, phase_kind, adjust)
                # "A Ven. Stands A Pie.—Mar." (the 1982 rulebook): several orders without a separator
                for part, as_read, on_board in read if isinstance(read, list) else ((piece, read, board),):
                    result = as_read
                    if on_board and view is not None:
                        result = self._board_read(part, phase_kind, adjust, view, whose, result)
                    if view is not None and isinstance(result, OrderError) and result.expected in _NAME_EXPECTED:
                        result = self._within_reach(part, result, view)
                    if isinstance(result, OrderError):
                        errors.append(_own_examples(dataclasses.replace(
                            result, line=number, text=part if part != line else line), view, whose))
                        continue
                    # the unit named is the unit that is there, and a coast is one the map has
                    placed = read_coasts(result[0], part, self.variant, view, whose)
                    if isinstance(placed, Refusal):
                        errors.append(OrderError(number, part if part != line else line, placed.problem,
                                                 placed.expected, placed.suggestions))
                    else:
                        orders.append(ParsedOrder(number, part, placed[0], whose,
                                                  prefix_notes + result[1] + placed[1]))
        return OrderParse(tuple(orders), tuple(errors))

    def _power_prefix(self, line: str) -> tuple[str, str | None, str | None, tuple[str, ...]]:
        """(the rest, power named, unknown prefix word, notes) for `England: A Lon H`, and for a
        power's name or adjective before a unit with no colon (`ENGLAND A Lon-Tun`, the 1982 book)."""
        m = _PREFIX.match(line) if ":" in line else None
        if not m:
            named = _NAMED.match(line) if line[:1].isalpha() and " " in line else None
            power = self.names.power(named.group(1)) if named else None
            return (line[named.end():], power, None, ()) if named and power else (line, None, None, ())
        power, typo = self.names.power_prefix(m.group(1))
        if power is None:
            return line, None, m.group(1), ()
        notes = (f"{m.group(1)} read as {self.variant.power(power).name}",) if typo else ()
        return line[m.end():], power, None, notes

    def _vassal_alone(self, text: str, view: BoardView, power: str | None) -> OrderError | None:
        """A line that is only the name of a vassal the writer orders (`Belgium`): read as the bare
        unit of the rulebook it would be a removal in the province of that name, but a player naming
        a power they order may as well have meant its orders to follow. Both are shown, neither
        followed: a suggestion, never a guess."""
        named = self.names.power(text) if view.position.vassals else None
        if named is None or not view.orders_for(power, named):
            return None
        name = self.variant.power(named).name
        own = view.examples(named)
        place = self.names.word(text).province
        removal = view.removal_in(power, place) if power and place else None
        return OrderError(0, text, f"{name} is a vassal you order: its name alone orders nothing",
                          f"{name}'s orders after its name and a colon",
                          (f"{name}: {own[0] if own else '...'}", *([removal] if removal else [])))

    # -- one order ------------------------------------------------------------------------------
    def read_one(self, text: str, phase_kind: PhaseKind,
                 adjusting: str | None = None) -> tuple[LineReading, bool]:
        """(result, board): the reading without a board, and whether the board could change it.
        The result is (order, notes), an OrderError, or for a line holding several orders a list
        of (text, result, board), one per order.

        Results are immutable, so the reader keeps a bounded memo of them: the same
        order typed again (by another player, or in a re-sent message) is not re-read."""
        if not self._memo_size:
            return self._read_one(text, phase_kind, adjusting)
        key = (text, phase_kind, adjusting)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._read_one(text, phase_kind, adjusting)
            if len(self._memo) >= self._memo_size:
                self._memo.clear()
            self._memo[key] = hit
        return hit

    def _read_one(self, text: str, phase_kind: PhaseKind, adjusting: str | None) -> tuple[LineReading, bool]:
        lexed = lex(text, self.names)
        if lexed.cuts:
            pieces = _cut(text, lexed.tokens, lexed.cuts)
            if pieces:
                read: list[tuple[str, Reading, bool]] = []
                for p in pieces:
                    sub, board = self._read_one(p, phase_kind, adjusting)
                    read.extend(sub if isinstance(sub, list) else [(p, sub, board)])
                return read, False
        return self._parse_lexed(text, lexed, phase_kind, adjusting), lexed.board

    def _parse_lexed(self, text: str, lexed: Lexed, phase_kind: PhaseKind, adjusting: str | None) -> Reading:
        if lexed.problems:
            return self._name_error(text, lexed)
        if not lexed.tokens:
            return OrderError(0, text, "no order here", "an order", EXAMPLES[phase_kind][:2], examples=True)
        try:
            tag, built = self._run(lexed.tokens)
        except UnexpectedInput as e:
            return self._syntax_error(text, lexed, e, phase_kind)
        except (LarkError, VisitError, TypeError, ValueError, KeyError) as e:
            # A defect of the grammar or its Transformer: one line is refused, the message goes on.
            return OrderError(0, text, f"order not understood ({type(e).__name__})", "",
                              EXAMPLES[phase_kind][:2], examples=True)
        unit = getattr(built, "unit", None)
        if lexed.board or (unit is not None and unit.location is NOWHERE):
            lexed.board = True  # (a unit named by its kind alone: "F Stands")
            unsure = self._unsure(text, lexed, built)
            if unsure is not None:
                return unsure
        return self._for_phase(text, tag, built, phase_kind, tuple(lexed.notes), adjusting)

    def _unsure(self, text: str, lexed: Lexed, built: Any) -> OrderError | None:
        """Without a board, a unit letter that is no unit kind, or a unit named by its kind alone,
        has no one meaning."""
        words = text.split()
        if lexed.tokens[0] is UNKNOWN_KIND:
            rest = " ".join(words[1:])
            return OrderError(0, text, f"'{words[0]}' is not a unit type", "A (army) or F (fleet)",
                              (f"A {rest}", f"F {rest}"))
        unit = getattr(built, "unit", None)
        if isinstance(unit, UnitRef) and unit.location is NOWHERE:
            kind = unit.kind.full_name if unit.kind else "unit"
            return OrderError(0, text, f"which {kind}? Name the province it is in", f"the {kind}'s province",
                              (f"{words[0]} <province> {' '.join(words[1:])}".strip(),))
        return None

    # -- with the board ---------------------------------------------------------------------------
    def _board_read(self, text: str, phase_kind: PhaseKind, adjusting: str | None, view: BoardView,
                    power: str | None, base: Reading) -> Reading:
        """The one reading of `text` the board allows (with a note saying how it was read), else
        `base` (the reading without the board); several readings the board allows are an error
        that names them."""
        if isinstance(base, tuple) and view.problem(base[0], power) is None:
            return base  # the plain reading is among the readings, and it stands if the board allows it
        lexed = lex(text, self.names)
        choices = []
        for token in lexed.tokens:
            if token is UNKNOWN_KIND:
                choices.append([_KIND_TOKEN[k] for k in (UnitKind.ARMY, UnitKind.FLEET)])
            elif token.type == "PLACE" and token.value.candidates:
                r = token.value
                choices.append([Token("PLACE", Resolved(r.text, pid)) for pid in r.candidates])
            else:
                choices.append([token])
        readings: dict[Order, tuple[str, ...]] = {}
        chosen: dict[Order, tuple[Token, ...]] = {}  # the tokens each reading was made from
        for n, tokens in enumerate(itertools.product(*choices)):
            if n >= MAX_READINGS:
                return base
            try:
                tag, built = self._run(list(tokens))
            except (LarkError, VisitError, TypeError, ValueError, KeyError):
                continue
            result = self._for_phase(text, tag, built, phase_kind, tuple(lexed.notes), adjusting)
            if isinstance(result, OrderError):
                continue
            for order in self._placed(result[0], view, power):
                readings.setdefault(order, result[1])
                chosen.setdefault(order, tokens)
        base_order = base[0] if isinstance(base, tuple) else None
        allowed = [o for o in readings if view.problem(o, power) is None]
        if base_order is not None and (base_order in allowed or len(allowed) != 1):
            return base  # the plain reading stands: the board allows it, or leaves no one other
        if len(allowed) > 1:
            shown = [describe(o, self.variant) for o in allowed]
            return OrderError(0, text, f"on this board '{text}' could be {or_list(shown)}",
                              "an order with one meaning", tuple(order_text(o) for o in allowed))
        if not allowed:
            return base
        order = allowed[0]
        why = [w for o in readings if o != order and (w := view.problem(o, power)) is not None][:2]
        ref = getattr(order, "unit", None)
        unit = view.units.get(ref.location.province) if ref is not None else None
        if unit is not None and lexed.tokens[0] is UNKNOWN_KIND:
            why = [f"'{text.split()[0]}' is no unit type, and the unit in {self.names.name(unit.location.province)}"
                   f" is {'an army' if unit.kind is UnitKind.ARMY else 'a ' + unit.kind.full_name}"]
        elif unit is not None and not any(_unit_at(o) == _unit_at(order) for o in readings if o != order) \
                and _kind_alone(lexed.tokens):
            why = [f"{self.variant.power(unit.power).name} has one {unit.kind.full_name}, in "
                   f"{self.names.name(unit.location.province)}"]
        ambiguous = [(t.value, c.value.province) for t, c in zip(lexed.tokens, chosen[order], strict=True)
                     if t.type == "PLACE" and t.value.province is None and t.value.ambiguous]
        if ambiguous:  # "Nor": say what it could have been, and which one the board has
            why = [f"'{r.text}' could be {or_list(r.ambiguous)}; only {self.names.name(pid)} fits the board"
                   for r, pid in ambiguous]
        because = "; ".join(why)
        note = f"read '{text}' as {describe(order, self.variant)}" + (f": {because}" if because else "")
        return order, readings[order] + (note,)

    def _placed(self, order: Order, view: BoardView, power: str | None) -> list[Order]:
        """A unit named by its kind alone ("F Stands") is each unit of that kind the power has."""
        unit = getattr(order, "unit", None)
        if unit is None or unit.location is not NOWHERE:
            return [order]
        if power is None or unit.kind is None:
            return []
        return [dataclasses.replace(cast(Any, order), unit=UnitRef(u.location, unit.kind))
                for u in view.units_of(power, unit.kind)]

    def _within_reach(self, text: str, error: OrderError, view: BoardView) -> OrderError:
        """A move's destination not understood ("F Edi - Nrt"), with the unit on the board: only the
        places that unit can reach are suggested (not the North Atlantic for Edinburgh's fleet)."""
        tokens = lex(text, self.names).tokens
        at = next((i for i, t in enumerate(tokens) if t.type == "PLACE"), None)
        if at is None or at + 2 >= len(tokens) or tokens[at + 1].type != "DASH" or tokens[at + 2].type != "PLACE":
            return error
        here, there = tokens[at].value, tokens[at + 2].value
        if here.province is None or there.province is not None:
            return error
        unit = view.units.get(here.province)
        kind = unit.kind if unit is not None else tokens[at - 1].value if at and tokens[at - 1].type == "KIND" else None
        if not isinstance(kind, UnitKind):
            return error          # no unit there and none named: whose reach is unknown
        try:
            location = unit.location if unit is not None else self.variant.board.location(here.province)
        except (KeyError, ValueError):
            return error
        board = self.variant.board
        full = self.names.full_names
        reach = {p for p in full if board.can_reach_province(kind, location, p)
                 or kind is UnitKind.ARMY and board.coastal_for_convoy(location.province)
                 and board.coastal_for_convoy(p) and p != location.province}   # by convoy
        by_name = {full[p]: p for p in reach}
        near = [s for s in error.suggestions if s in by_name]
        if not near:
            near = difflib.get_close_matches(there.text.title(), sorted(by_name), n=3, cutoff=0.3)
        if not near and len(by_name) <= 6:
            near = sorted(by_name)
        what = f"a place {'an army' if kind is UnitKind.ARMY else 'a ' + kind.full_name} in {full[location.province]}" \
               " can reach"
        return dataclasses.replace(error, expected=what, suggestions=tuple(near))

    def _name_error(self, text: str, lexed: Lexed) -> OrderError:
        bad = lexed.problems[0]
        if bad.ambiguous:
            return OrderError(0, text, f"'{bad.text}' could be {or_list(bad.ambiguous)}",
                              _NAME_EXPECTED[0], bad.ambiguous)
        return OrderError(0, text, f"no province is called '{bad.text}'", _NAME_EXPECTED[1], bad.suggestions)

    def _syntax_error(self, text: str, lexed: Lexed, e: UnexpectedInput, phase_kind: PhaseKind) -> OrderError:
        expected = sorted(getattr(e, "expected", None) or getattr(e, "accepts", None) or ())
        words = [EXPECTED_WORDS[t] for t in expected
                 if t in EXPECTED_WORDS and t not in _NOT_IN_PHASE[phase_kind]]
        token = getattr(e, "token", None)
        if token is None or token.type == "$END":
            problem = "the order stops too soon"
        else:
            problem = f"'{_shown(token)}' was not expected there"
        return OrderError(0, text, problem, or_list(words) if words else "", EXAMPLES[phase_kind], examples=True)

    def _for_phase(self, text: str, tag: str, built: Any, phase: PhaseKind, notes: tuple[str, ...],
                   adjusting: str | None = None) -> Reading:
        if tag == "bare":
            return self._bare(text, built, phase, notes, adjusting)
        if tag == "dashless":
            tag = "move"
            what = "a retreat" if phase is PhaseKind.RETREAT else "a move"
            notes = notes + (f"read as {what}: no dash between {self.names.name(built.unit.location.province)}"
                             f" and {self.names.name(built.to.province)}",)
        if phase is PhaseKind.MOVEMENT:
            if tag == "move" and self._lands(built):
                return Disembark(built.unit, built.to), notes + (f"{text} read as the army disembarking",)
            if tag in ("move", "hold", "support", "convoy", "embark", "disembark"):
                return built, notes
            return _wrong(text, phase, {"retreat": "a retreat", "disband": "a disband", "remove": "a removal",
                                        "build": "a build", "waive": "a waived build"}[tag])
        if phase is PhaseKind.RETREAT:
            if tag == "move":
                if built.via_convoy:
                    return _wrong(text, phase, "a move by convoy")
                return Retreat(built.unit, built.to), notes
            if tag in ("retreat", "disband"):
                return built, notes
            return _wrong(text, phase, {"hold": "a hold", "support": "a support", "convoy": "a convoy",
                                        "embark": "embarking", "disembark": "disembarking", "remove": "a removal",
                                        "build": "a build", "waive": "a waived build"}[tag])
        if tag in ("disband", "remove", "waive"):
            return built, notes
        if tag == "build":
            kind, where = built
            if kind is None:
                kind = self._only_kind(where)
                if kind is None:
                    return OrderError(0, text, f"build what in {self.names.name(where.province)}?",
                                      "A or F", (f"build A {text.split()[-1]}", f"build F {text.split()[-1]}"))
                notes = notes + (f"built an {kind.full_name}: only an {kind.full_name} can stand there",)
            return Build(kind, where), notes
        return _wrong(text, phase, {"move": "a move", "hold": "a hold", "support": "a support", "convoy": "a convoy",
                                    "retreat": "a retreat", "embark": "embarking", "disembark": "disembarking"}[tag])

    def _lands(self, move: Move) -> bool:
        """`A/F Mao - Por`: an A/F never enters a coast, so a move of one onto land is its army landing."""
        return (move.unit.kind is UnitKind.ARMY_FLEET and not move.via_convoy and not move.route
                and not self.variant.board.provinces[move.to.province].is_sea)

    def _bare(self, text: str, unit: UnitRef, phase: PhaseKind, notes: tuple[str, ...],
              adjusting: str | None) -> Reading:
        """A unit with no order word. The rulebook writes builds so ("F Edi"); it means a
        build only when the power has builds to make (the caller says so with `adjusting`)."""
        if phase is PhaseKind.ADJUSTMENT and adjusting == "build" and unit.kind is not None:
            return Build(unit.kind, unit.location), notes + (f"{text} read as a build",)
        if phase is PhaseKind.ADJUSTMENT and adjusting == "remove":
            return Disband(unit), notes + (f"{text} read as a removal",)
        if phase is PhaseKind.ADJUSTMENT and adjusting == "neither":
            return OrderError(0, text, "nothing to build or remove: your supply centres and units are as many",
                              "no adjustment orders this phase", ())
        if phase is PhaseKind.ADJUSTMENT:
            return OrderError(0, text, "build or remove?", "build or remove before the unit",
                              (f"build {text}", f"remove {text}"))
        if phase is PhaseKind.RETREAT:
            return OrderError(0, text, "the order stops too soon", "'-' and where to, or D (disband)",
                              (f"{text} - <province>", f"{text} D"))
        return OrderError(0, text, "the order stops too soon",
                          "C (convoy), '-' and where to, H (hold) or S (support)",
                          (f"{text} H", f"{text} - <province>", f"{text} S <unit>"))

    def _only_kind(self, where: Location) -> UnitKind | None:
        """`Build Mun` has one meaning (an army); `Build Bre` has two."""
        prov = self.variant.board.provinces[where.province]
        if prov.terrain is Terrain.LAND:
            return UnitKind.ARMY
        if prov.terrain is Terrain.SEA and UnitKind.ARMY_FLEET not in self.variant.unit_kinds:
            return UnitKind.FLEET
        return None


# When each kind of order is given, for a player who sent one in the wrong phase.
_WHEN = {"build": "builds, removals and waived builds are ordered in the adjustment phase that follows"
                  " a season with adjustments (Winter on the standard map)",
         "retreat": "retreats and disbands of dislodged units are ordered in the retreat phase right after"
                    " the movement that dislodged them",
         "move": "holds, moves, supports and convoys are ordered in movement phases"}
_WHEN_OF = {"a build": "build", "a removal": "build", "a waived build": "build", "a retreat": "retreat",
            "a disband": "retreat"}


def _wrong(text: str, phase: PhaseKind, what: str) -> OrderError:
    """An order of a kind the phase does not take: say when it is given, and show this phase's kind
    of order (examples, not guesses at what the player meant)."""
    name = phase.full_name.lower()
    article = "an" if name[0] in "aeiou" else "a"
    when = _WHEN[_WHEN_OF.get(what, "move")]
    return OrderError(0, text, f"{what} in {article} {name} phase: {when}",
                      f"{article} {name} order, for example " + " or ".join(EXAMPLES[phase]), ())


def _shown(token: Token) -> str:
    value = token.value
    if isinstance(value, Resolved):
        return value.text
    if isinstance(value, UnitKind):
        return value.value
    if isinstance(value, Coast):
        return value.full_name
    return str(value)


def parse_orders(text: str, variant: Variant | OrderReader, phase_kind: PhaseKind, *,
                 power: str | None = None, adjusting: str | None = None,
                 position: Position | BoardView | None = None) -> OrderParse:
    """All orders in `text` (see the module doc). Pass an `OrderReader` to reuse one."""
    reader = variant if isinstance(variant, OrderReader) else OrderReader(variant)
    try:
        return reader.parse(text, phase_kind, power=power, adjusting=adjusting, position=position)
    except OrderSyntaxError:
        raise
    except Exception as e:  # never let a defect in here take a whole message down
        raise OrderSyntaxError(f"order text could not be read: {type(e).__name__}: {e}") from e


def parse_order(reader: OrderReader, text: str, phase_kind: PhaseKind) -> Order:
    """Exactly one order, or OrderSyntaxError (for tests and the DATC readers)."""
    result = reader.parse(text, phase_kind)
    if result.errors or len(result.orders) != 1:
        raise OrderSyntaxError("; ".join(str(e) for e in result.errors) or f"not one order: {text!r}")
    return result.orders[0].order


_KIND_TOKEN = {k: Token("KIND", k) for k in UnitKind}


def _unit_at(order: Order) -> Location | None:
    """Where the unit an order names stands (a build or a waiver names none)."""
    ref = getattr(order, "unit", None)
    return ref.location if isinstance(ref, UnitRef) else None


def _kind_alone(tokens: Sequence[Token]) -> bool:
    """A unit named by its kind alone: "F Stands", "F S A Bul-Rum"."""
    return tokens[0].type == "KIND" and (len(tokens) == 1 or tokens[1].type != "PLACE")


def _cut(text: str, tokens: list[Token], cuts: Sequence[int]) -> list[str] | None:
    """`text` cut before the unit-kind words that start orders (`cuts`: their token indices). The
    n-th unit kind token is the n-th unit kind word; when they do not pair off so, None (read whole)."""
    words = raw_words(text)
    kinds = [j for j, w in enumerate(words) if w.low in KINDS
             and not (w.low == "f" and j >= 2 and words[j - 1].low == "/")]  # "A/F" is one kind
    ordinal = {k: n for n, k in enumerate(k for k, t in enumerate(tokens)
                                          if t.type == "KIND" and t is not UNKNOWN_KIND)}
    if len(kinds) != len(ordinal):
        return None
    starts = [kinds[ordinal[k]] for k in cuts]
    pieces, begin = [], 0
    for j in [*starts, len(words)]:
        pieces.append("".join((" " if w.spaced and k > begin else "") + w.text
                              for k, w in enumerate(words[begin:j], begin)))
        begin = j
    pieces = [_TRAILING.sub("", p).strip() for p in pieces]
    return pieces if all(pieces) else None


_END = Token("$END", "")
# Shapes of order the parser keeps its steps for (a few hundred are ever seen)
_MAX_PROGRAMS = 4096


class _LalrLoop:
    """Lark's LALR tables driven by a plain loop over our token list.

    Reading an order is mostly this loop, and Lark's own driver spends as long again around it
    per parse (a lexer thread, a parser state and configuration, an end token); the tables, the
    Transformer callbacks and the errors raised (UnexpectedToken, with what was expected) are
    Lark's. `of` falls back to `Lark.parse` if Lark's insides are not as this expects."""

    __slots__ = ("end", "programs", "start", "states")
    # state -> terminal or rule name -> (Shift, the next state) or (Reduce, (the rule's length, its
    # name, its callback)): the rule is looked up once here, not at each reduction (a Rule's hash
    # is a Python function)
    states: dict[Any, dict[str, tuple[Any, Any]]]
    start: Any
    end: Any
    # The parser's steps depend only on the kinds of the tokens, not on their values: for each
    # sequence of token types read before, its steps (None: take the next token; else a reduction:
    # (how many values, the callback)), so the same shape of order ("A x - y") is replayed without
    # the tables. Bounded: emptied when full.
    programs: dict[tuple[str, ...], list[tuple[int, Callable[[_Items], Any]] | None]]

    @classmethod
    def of(cls, lark: Lark) -> Callable[[list[Token]], Any]:
        try:
            inner = lark.parser.parser.parser  # frontend -> LALR_Parser -> _Parser
            table, callbacks = inner.parse_table, inner.callbacks
            if any(isinstance(k, str) for k in callbacks):  # callbacks on terminals: not handled here
                raise AttributeError
            loop = cls()
            # plain str keys: Lark's symbol names are Tokens, whose Python __eq__ every dict probe
            # would call (a tenth of the reading time)
            rules = {rule: (len(rule.expansion), str(rule.origin.name), callbacks[rule]) for rule in callbacks}
            loop.states = {state: {str(k): (action, arg if action is Shift else rules[arg])
                                   for k, (action, arg) in row.items()}
                           for state, row in table.states.items()}
            (loop.start,), (loop.end,) = table.start_states.values(), table.end_states.values()
            loop.programs = {}
            return loop
        except (AttributeError, KeyError, ValueError, TypeError):
            return lark.parse

    def __call__(self, tokens: list[Token]) -> Any:
        shape = tuple([t.type for t in tokens])
        program = self.programs.get(shape)
        if program is None:
            return self._parse(tokens, shape)
        values: _Items = []
        taken = iter(tokens)
        for step in program:
            if step is None:
                values.append(next(taken))
                continue
            size, callback = step
            if size:
                args = values[-size:]
                del values[-size:]
            else:
                args = []
            values.append(callback(args))
        return values[-1]

    def _parse(self, tokens: list[Token], shape: tuple[str, ...]) -> Any:
        """Parse by the tables, writing down the steps for `shape` if it parses."""
        states, end = self.states, self.end
        state_stack = [self.start]
        values: _Items = []
        program: list[tuple[int, Callable[[_Items], Any]] | None] = []
        for token in (*tokens, _END):
            while True:
                row = states[state_stack[-1]]
                try:
                    action, arg = row[token.type]
                except KeyError:
                    raise _unexpected(token, {t for t in row if t.isupper()}) from None
                if action is Shift:
                    state_stack.append(arg)
                    values.append(token)
                    program.append(None)
                    break
                size, origin, callback = arg
                program.append((size, callback))
                if size:
                    args = values[-size:]
                    del state_stack[-size:]
                    del values[-size:]
                else:
                    args = []
                state_stack.append(states[state_stack[-1]][origin][1])
                values.append(callback(args))
                if token is _END and state_stack[-1] == end:
                    if len(self.programs) >= _MAX_PROGRAMS:
                        self.programs.clear()
                    self.programs[shape] = program
                    return values[-1]
        raise _unexpected(_END, set())  # (the tables always end on $END; this is not reached)


def _unexpected(token: Token, expected: set[str]) -> UnexpectedToken:
    return UnexpectedToken(token, expected)  # type: ignore[no-untyped-call]  # Lark's is untyped
