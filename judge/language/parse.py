"""Order text to engine orders: `OrderReader` (one per variant) and `parse_orders`.

A message's order lines are split into orders (`;` or `,`), each read by the lexer
(judge.language.lexer) and the LALR grammar grammar/orders.lark, whose Transformer
builds the frozen engine orders. The phase then decides what a move means (a
retreat in a retreat phase) and which orders are allowed. A bad line is reported
with its number, its text, what was expected and suggestions; it never hides the
good lines, and nothing but `OrderSyntaxError` is ever raised from here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources

from lark import Lark, Transformer
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from ..engine import (Build, Convoy, Disband, Disembark, Embark, Hold, Location, Move, Order, Retreat, SupportHold,
                      SupportMove, UnitKind, UnitRef, Variant, Waive)
from ..engine.board import Board
from ..engine.calendar import PhaseKind
from ..engine.geography import Terrain
from .clean import normalise_chars
from .lexer import Lexed, TokenListLexer, lex
from .names import NameIndex, name_key, or_list

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


@dataclass(frozen=True, slots=True)
class OrderError:
    line: int
    text: str
    problem: str
    expected: str = ""
    suggestions: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [f"line {self.line}: {self.text!r}: {self.problem}"]
        if self.expected:
            parts.append(f"expected {self.expected}")
        if self.suggestions:
            parts.append("did you mean " + or_list([repr(s) for s in self.suggestions]) + "?")
        return "; ".join(parts)


@dataclass(frozen=True)
class OrderParse:
    orders: tuple[ParsedOrder, ...] = ()
    errors: tuple[OrderError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


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


class _Build(Transformer):
    """Grammar trees to (tag, order): tag says which words built it, for the phase check.

    Each method gets the list of its rule's children. Lark calls these methods as the LALR
    parser reduces (the Transformer is given at construction), so no tree is ever built;
    and without `v_args` wrappers each reduction is one plain call."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def unit(self, parts):
        kind = parts[0].value if len(parts) == 2 else None
        return UnitRef(parts[-1], kind)

    def place(self, parts):
        if len(parts) == 2:
            return Location(parts[0].value.province, parts[1].value)
        return self.board.location(parts[0].value.province)

    def other(self, parts):
        unit = parts[-1]
        if len(parts) == 2:
            return UnitRef(unit.location, unit.kind, parts[0].value)
        return unit

    def move(self, parts):
        unit, _dash, *rest = parts
        via = bool(rest) and getattr(rest[-1], "type", None) == "VIACONVOY"
        places = [p for p in rest if isinstance(p, Location)]
        route = tuple(p.province for p in places[:-1])
        return "move", Move(unit, places[-1], via or bool(route), route)

    def hold(self, parts):
        return "hold", Hold(parts[0])

    def support(self, parts):
        unit, _s, other, *rest = parts
        to = next((p for p in rest if isinstance(p, Location)), None)
        if to is None or to.province == other.location.province:
            return "support", SupportHold(unit, other)  # "S A yor -> yor": support to hold
        return "support", SupportMove(unit, other, to)

    def convoy(self, parts):
        unit, _c, army, _dash, to = parts
        return "convoy", Convoy(unit, army, to)

    def retreat(self, parts):
        return "retreat", Retreat(parts[0], parts[-1])

    def disband(self, parts):
        a, b = parts
        return "disband", Disband(a if isinstance(a, UnitRef) else b)

    def remove(self, parts):
        a, b = parts
        return "remove", Disband(a if isinstance(a, UnitRef) else b)

    def build(self, parts):
        kind = next((p.value for p in parts if getattr(p, "type", None) == "KIND"), None)
        where = next(p for p in parts if isinstance(p, Location))
        return "build", (kind, where)

    def waive(self, _parts):
        return "waive", Waive()

    def embark(self, parts):
        return "embark", Embark(parts[0], parts[-1])

    def disembark(self, parts):
        unit, _d, *rest = parts
        army = next(p for p in rest if isinstance(p, UnitRef))
        to = next((p for p in rest if isinstance(p, Location)), army.location)
        return "disembark", Disembark(unit, to)

    def bare(self, parts):
        return "bare", parts[0]

    def start(self, parts):
        return parts[0]


_SPLIT = re.compile(r"[;,]")
_PREFIX = re.compile(r"^\s*([^\W\d_][\w.]*)\s*:\s*")
# Trailing full stops and quotes, and the *bold* or _italic_ marks Gmail's plain text gives emphasis.
_TRAILING = re.compile(r"[\s.!?\"'*_]+$")
# "A Ank-Sev. F Bla C A Ank-Sev." (the rulebook): a full stop before a unit type ends an order.
_SENTENCE = re.compile(r"(?<=[^\W\d_)])\.\s+(?=(?:[AaFf]|[Aa]rmy|[Ff]leet)\s)")
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
        self._memo: dict[tuple[str, PhaseKind, str | None], object] = {}

    # -- whole texts -------------------------------------------------------------------------
    def parse(self, text: str, phase_kind: PhaseKind, *, power: str | None = None,
              first_line: int = 1, adjusting: str | None = None) -> OrderParse:
        """`adjusting` ("build"/"remove"/None): what a bare unit ("F Edi") means in an
        adjustment phase, for a power the caller knows has builds or removals."""
        orders: list[ParsedOrder] = []
        errors: list[OrderError] = []
        current = power
        for number, line in enumerate(normalise_chars(text).split("\n"), first_line):
            line = line.strip()
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
            if "." in body:  # (the cheap test spares most lines the slow lookbehind)
                body = _SENTENCE.sub(";", body)
            for piece in _SPLIT.split(body) if ";" in body or "," in body else (body,):
                if not piece[:1].isalpha():  # no quote or numbering to drop before a letter
                    piece = LIST_MARKER.sub("", _LEADING_QUOTE.sub("", piece))
                if not piece[-1:].isalnum():  # nothing trailing to drop after a letter or digit
                    piece = _TRAILING.sub("", piece)
                piece = piece.strip()
                if not piece:
                    continue
                result = self.parse_one(piece, phase_kind, adjusting)
                if isinstance(result, OrderError):
                    errors.append(OrderError(number, piece if piece != line else line, result.problem,
                                             result.expected, result.suggestions))
                else:
                    order, notes = result
                    orders.append(ParsedOrder(number, piece, order, named or current, prefix_notes + notes))
        return OrderParse(tuple(orders), tuple(errors))

    def _power_prefix(self, line: str) -> tuple[str, str | None, str | None, tuple[str, ...]]:
        """(the rest, power named, unknown prefix word, notes) for `England: A Lon H`."""
        m = _PREFIX.match(line) if ":" in line else None
        if not m:
            return line, None, None, ()
        power, typo = self.names.power_prefix(m.group(1))
        if power is None:
            return line, None, m.group(1), ()
        notes = (f"{m.group(1)} read as {self.variant.power(power).name}",) if typo else ()
        return line[m.end():], power, None, notes

    # -- one order ------------------------------------------------------------------------------
    def parse_one(self, text: str, phase_kind: PhaseKind,
                  adjusting: str | None = None) -> tuple[Order, tuple[str, ...]] | OrderError:
        """One order (no separators) to (order, notes), or an OrderError with line 0.

        Results are immutable, so the reader keeps a bounded memo of them: the same
        order typed again (by another player, or in a re-sent message) is not re-read."""
        if not self._memo_size:
            return self._parse_one(text, phase_kind, adjusting)
        key = (text, phase_kind, adjusting)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._parse_one(text, phase_kind, adjusting)
            if len(self._memo) >= self._memo_size:
                self._memo.clear()
            if self._memo_size:
                self._memo[key] = hit
        return hit

    def _parse_one(self, text: str, phase_kind: PhaseKind,
                   adjusting: str | None) -> tuple[Order, tuple[str, ...]] | OrderError:
        lexed = lex(text, self.names)
        if lexed.problems:
            return self._name_error(text, lexed)
        if not lexed.tokens:
            return OrderError(0, text, "no order here", "an order", EXAMPLES[phase_kind][:2])
        try:
            tag, built = self._lark.parse(lexed.tokens)
        except UnexpectedInput as e:
            return self._syntax_error(text, lexed, e, phase_kind)
        except (LarkError, VisitError, TypeError, ValueError, KeyError) as e:
            # A defect of the grammar or its Transformer: one line is refused, the message goes on.
            return OrderError(0, text, f"order not understood ({type(e).__name__})", "",
                              EXAMPLES[phase_kind][:2])
        return self._for_phase(text, tag, built, phase_kind, tuple(lexed.notes), adjusting)

    def _name_error(self, text: str, lexed: Lexed) -> OrderError:
        bad = lexed.problems[0]
        if bad.ambiguous:
            return OrderError(0, text, f"'{bad.text}' could be {or_list(bad.ambiguous)}",
                              "a name with one meaning", bad.ambiguous)
        return OrderError(0, text, f"no province is called '{bad.text}'", "a province", bad.suggestions)

    def _syntax_error(self, text: str, lexed: Lexed, e: UnexpectedInput, phase_kind: PhaseKind) -> OrderError:
        expected = sorted(getattr(e, "expected", None) or getattr(e, "accepts", None) or ())
        words = [EXPECTED_WORDS[t] for t in expected
                 if t in EXPECTED_WORDS and t not in _NOT_IN_PHASE[phase_kind]]
        token = getattr(e, "token", None)
        if token is None or token.type == "$END":
            problem = "the order stops too soon"
        else:
            problem = f"'{_shown(token)}' was not expected there"
        return OrderError(0, text, problem, or_list(words) if words else "", EXAMPLES[phase_kind])

    def _for_phase(self, text: str, tag: str, built, phase: PhaseKind, notes: tuple[str, ...],
                   adjusting: str | None = None):
        if tag == "bare":
            return self._bare(text, built, phase, notes, adjusting)
        if phase is PhaseKind.MOVEMENT:
            if tag == "move" and self._lands(built):
                return Disembark(built.unit, built.to), notes + (f"{text} read as the army disembarking",)
            if tag == "move" and built.unit.kind is UnitKind.ARMY and built.to.coast is not None:
                notes = notes + (f"an army takes no coast: it moves to {self.variant.board.province(built.to.province).name}",)
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

    def _bare(self, text: str, unit: UnitRef, phase: PhaseKind, notes: tuple[str, ...], adjusting: str | None):
        """A unit with no order word. The rulebook writes builds so ("F Edi"); it means a
        build only when the power has builds to make (the caller says so with `adjusting`)."""
        if phase is PhaseKind.ADJUSTMENT and adjusting == "build" and unit.kind is not None:
            return Build(unit.kind, unit.location), notes + (f"{text} read as a build",)
        if phase is PhaseKind.ADJUSTMENT and adjusting == "remove":
            return Disband(unit), notes + (f"{text} read as a removal",)
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


def _shown(token) -> str:
    value = token.value
    if hasattr(value, "text"):
        return value.text
    if isinstance(value, UnitKind):
        return value.value
    if hasattr(value, "full_name"):
        return value.full_name
    return str(value)


def parse_orders(text: str, variant: Variant | OrderReader, phase_kind: PhaseKind, *,
                 power: str | None = None, adjusting: str | None = None) -> OrderParse:
    """All orders in `text` (see the module doc). Pass an `OrderReader` to reuse one."""
    reader = variant if isinstance(variant, OrderReader) else OrderReader(variant)
    try:
        return reader.parse(text, phase_kind, power=power, adjusting=adjusting)
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
