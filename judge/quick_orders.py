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

from collections.abc import Mapping
from functools import lru_cache

from .engine import Convoy, Hold, Location, Move, Order, Position, SupportHold, SupportMove, UnitKind, UnitRef
from .engine.board import Board
from .engine.geography import Coast
from .engine.position import Unit
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


def quick_order(reader: OrderReader, position: Position, power: str, text: str) -> Order | None:
    """The movement order `text` reads as, if this reader is sure of it; else None (the parser's)."""
    words = text.replace("-", " - ").upper().split()
    n = len(words)
    if n < 3 or n > 8:
        return None
    places = _places(reader)
    board = reader.variant.board
    unit_at = position._by_province
    me = _unit(words[0], words[1], places, unit_at)
    if me is None or me.power != power:
        return None
    ref = UnitRef(me.location, me.kind)
    verb = words[2]
    if verb == "H" and n == 3:
        return Hold(ref)
    if verb == "-" and n == 4:
        to = _place(words[3], places)
        if to is None or not _may_move(board, me, to):
            return None
        return Move(ref, to)
    if (verb == "S" or verb == "C") and n in (5, 7):
        other = _unit(words[3], words[4], places, unit_at)
        if other is None:
            return None
        theirs = UnitRef(other.location, other.kind)
        if n == 5:
            near = board.can_reach_province(me.kind, me.location, other.location.province)
            return SupportHold(ref, theirs) if verb == "S" and other is not me and near else None
        if words[5] != "-":
            return None
        to = _place(words[6], places)
        if to is None or to.coast is not None or to.province in (me.location.province, other.location.province):
            return None
        if verb == "S":
            if other is me or not board.can_reach_province(me.kind, me.location, to.province) \
                    or not _may_move(board, other, to):
                return None
            return SupportMove(ref, theirs, to)
        if me.kind is UnitKind.FLEET and other.kind is UnitKind.ARMY and board.province(me.location.province).is_sea \
                and board.coastal_for_convoy(other.location.province) and board.coastal_for_convoy(to.province):
            return Convoy(ref, theirs, to)
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


def _unit(kind: str, where: str, places: dict[str, str], unit_at: Mapping[str, Unit]) -> Unit | None:
    """The unit named, if it stands there as named (kind, and coast: a fleet on a split coast named
    with it, any other unit without one)."""
    k = _KINDS.get(kind)
    at = _place(where, places)
    if k is None or at is None:
        return None
    unit = unit_at.get(at.province)
    if unit is None or unit.kind is not k or unit.location != at:
        return None
    return unit


def _may_move(board: Board, unit: Unit, to: Location) -> bool:
    """May `unit` move to `to` as written: an army to a land province it borders (or, coast to
    coast, by convoy) with no coast named; a fleet to a place it reaches, the coast named if the
    province has coasts."""
    if unit.kind is UnitKind.ARMY:
        if to.coast is not None or not board.can_stand(UnitKind.ARMY, to):
            return False
        return to.province in board.army_steps(unit.location.province) or (
            board.coastal_for_convoy(unit.location.province) and board.coastal_for_convoy(to.province))
    return to in board.fleet_can_reach_province(unit.location, to.province)
