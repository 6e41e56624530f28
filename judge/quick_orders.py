"""A small exact reader for the order lines machines write, in front of the players' parser.

`judge adjudicate --jsonl` reads whole games of lines such as `A PAR - BUR`, `F NTH C A LON - NWY` or
`A Gas S A Mar-Bur`: the canonical notation (judge.engine.notation) and its common short forms (any
case, a dash with or without spaces). The full parser (judge.language) reads them too, and far more,
at many times the cost. This reader takes a movement phase's line only when it is sure the parser
would read it so, with no note: each word one the parser's own lexer reads as exactly that province
with nothing for the board to settle (worked out once per reader from the lexer itself), each unit
named as it stands on the board (its kind and its coast) and the power's own where it is ordered,
and the order one the board allows as written. Anything else (`None`) goes to the parser, so what a
line reads as never depends on which reader read it (tests/test_quick_orders.py holds that on the
order corpus and on whole seeded games).
"""
from __future__ import annotations

from functools import lru_cache

from .engine import Convoy, Hold, Location, Move, Order, Position, SupportHold, SupportMove, UnitKind, UnitRef
from .engine.board import Board
from .engine.geography import Coast
from .language import OrderReader
from .language.lexer import lex
from .language.names import NameIndex

_KINDS = {"A": UnitKind.ARMY, "F": UnitKind.FLEET}
_COASTS = {"NC": Coast.NORTH, "SC": Coast.SOUTH, "EC": Coast.EAST, "WC": Coast.WEST}


@lru_cache(maxsize=16)
def _places(reader: OrderReader) -> dict[str, str]:
    """Upper-case word -> province id, for every province id the lexer reads as that province, with
    no note, wherever this reader's lines may hold it. A word that might begin a longer name (`ENG`,
    `BLA`) is tried beside every other id; one with another meaning too (`TYR`, also the Tyrrhenian
    Sea) is kept if the lexer reads it as this province first: the parser then keeps that reading
    whenever the board allows the order, as this reader's orders are allowed."""
    names = reader.names
    ids = sorted(pid for pid in reader.variant.board.provinces if "-" not in pid and "/" not in pid)
    out = {}
    for pid in ids:
        word = pid.upper()
        if pid in names.phrase_starts or pid in names.abbreviations:
            others = [other.upper() for other in ids]
            lines = [(f"A {word} H", 1), (f"A {word} S", 1), (f"F {word} C", 1),
                     *((f"A {word} - {other}", 1) for other in others),
                     *((f"A {other} - {word}", 3) for other in others)]
        else:
            lines = [(word, 0)]
        if all(_reads_as(names, line, at, pid) for line, at in lines):
            out[word] = pid
    return out


def _reads_as(names: NameIndex, line: str, at: int, pid: str) -> bool:
    """Does the lexer read the word at token `at` of `line` as province `pid` first, with no note?"""
    lexed = lex(line, names)
    if lexed.notes or lexed.problems or lexed.cuts or len(lexed.tokens) != len(line.split()):
        return False
    token = lexed.tokens[at]
    r = token.value
    return token.type == "PLACE" and r.province == pid and not (r.corrected or r.ambiguous)


# A line's shape, read once per text: (verb, kind, place[, kind, place][, destination]); verb H, -, S or C.
Shape = tuple[str, UnitKind, Location, UnitKind | None, Location | None, Location | None]
# ... and the order it reads as wherever the units it names stand as it names them (None: the board
# allows no such order, so the parser's): the board alone decides that, so it is worked out once a text.
Reading = tuple[Shape, Order | None]
_MEMO_SIZE = 20000


@lru_cache(maxsize=16)
def _readings(reader: OrderReader) -> dict[str, Reading | None]:
    """The lines this reader has shaped (machines write the same lines again and again)."""
    return {}


def quick_order(reader: OrderReader, position: Position, power: str, text: str) -> Order | None:
    """The movement order `text` reads as, if this reader is sure of it; else None (the parser's)."""
    readings = _readings(reader)
    reading = readings.get(text, False)
    if reading is False:
        if len(readings) >= _MEMO_SIZE:
            readings.clear()
        shape = _shape(text, _places(reader))
        reading = readings[text] = None if shape is None else (shape, _order_of(reader.variant.board, shape))
    if reading is None:
        return None
    (verb, kind, at, other_kind, other_at, _), order = reading
    # the units must stand as the line names them: the power's own unit of that kind on that coast,
    # and the other unit (a support's or convoy's) of its kind on its coast
    unit_at = position._by_province
    me = unit_at.get(at.province)
    if me is None or me.kind is not kind or me.location.coast is not at.coast or me.power != power:
        return None
    if other_at is not None:
        other = unit_at.get(other_at.province)
        if other is None or other is me or other.kind is not other_kind or other.location.coast is not other_at.coast:
            return None
    return order


def _order_of(board: Board, shape: Shape) -> Order | None:
    """The order of `shape` with its units standing where it names them, if the board allows it."""
    verb, kind, at, other_kind, other_at, to = shape
    ref = UnitRef(at, kind)
    if verb == "H":
        return Hold(ref)
    if verb == "-":
        assert to is not None  # (a move's shape has its destination)
        return Move(ref, to) if _may_move(board, kind, at, to) else None
    assert other_at is not None and other_kind is not None  # (a support's or convoy's names a unit)
    if other_at.province == at.province:
        return None
    theirs = UnitRef(other_at, other_kind)
    if to is None:
        near = board.can_reach_province(kind, at, other_at.province)
        return SupportHold(ref, theirs) if verb == "S" and near else None
    if verb == "S":
        if not board.can_reach_province(kind, at, to.province) or not _may_move(board, other_kind, other_at, to):
            return None
        return SupportMove(ref, theirs, to)
    if kind is UnitKind.FLEET and other_kind is UnitKind.ARMY and board.province(at.province).is_sea \
            and board.coastal_for_convoy(other_at.province) and board.coastal_for_convoy(to.province):
        return Convoy(ref, theirs, to)
    return None


def _shape(text: str, places: dict[str, str]) -> Shape | None:
    """The line's shape, if it is one this reader reads: `K P H`, `K P - Q`, `K P S K P`, `K P S K P - Q`,
    `F P C A P - Q` (K: A or F; P, Q: words of `places`, P with a coast after a slash)."""
    words = text.replace("-", " - ").upper().split()
    n = len(words)
    if n < 3 or n > 8 or words[0] not in _KINDS:
        return None
    kind, at, verb = _KINDS[words[0]], _place(words[1], places), words[2]
    if at is None:
        return None
    if verb == "H" and n == 3:
        return verb, kind, at, None, None, None
    if verb == "-" and n == 4:
        to = _place(words[3], places)
        return None if to is None else (verb, kind, at, None, None, to)
    if (verb == "S" or verb == "C") and n in (5, 7) and words[3] in _KINDS:
        other_kind, other_at = _KINDS[words[3]], _place(words[4], places)
        if other_at is None or (n == 5 and verb == "C"):
            return None
        if n == 5:
            return verb, kind, at, other_kind, other_at, None
        to = _place(words[6], places) if words[5] == "-" else None
        if to is None or to.coast is not None or to.province in (at.province, other_at.province):
            return None
        return verb, kind, at, other_kind, other_at, to
    return None


def _place(word: str, places: dict[str, str]) -> Location | None:
    province, _, coast = word.partition("/")
    pid = places.get(province)
    if pid is None:
        return None
    if not coast:
        return Location(pid)
    c = _COASTS.get(coast)
    return Location(pid, c) if c is not None else None


def _may_move(board: Board, kind: UnitKind, at: Location, to: Location) -> bool:
    """May a unit of `kind` at `at` move to `to` as written: an army to a land province it borders (or,
    coast to coast, by convoy) with no coast named; a fleet to a place it reaches, the coast named if the
    province has coasts."""
    if kind is UnitKind.ARMY:
        if to.coast is not None or not board.can_stand(UnitKind.ARMY, to):
            return False
        return to.province in board.army_steps(at.province) or (
            board.coastal_for_convoy(at.province) and board.coastal_for_convoy(to.province))
    return to in board.fleet_can_reach_province(at, to.province)
