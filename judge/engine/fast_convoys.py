"""Plain convoys on the fast path (judge.engine.fast_movement): which phases with convoys it may take.

A convoy is plain when nothing can undo it: every fleet ordered to convoy is at sea, legal (on a
route of the board's fleets with no shortcut, DATC 4.E.1 and 6.G.19) and matched by its army's move,
and nothing can dislodge it (nothing moves into its sea, or only moves no other power supports, which
bounce off it: a convoying fleet in the way of a stray fleet is everyday); every army moved beyond its
neighbours has a chain of such fleets to its destination. Then each convoyed move has its path
whatever else happens, no paradox is possible, and the move is a move like any other but for three
things the fast path keeps: it is never in a head-to-head (it comes by sea), a unit it dislodges may
retreat to where it came from if the rules say so, and a support of it names a move the army could
not make by land. The 1982 rule that a convoy keeps some supports uncut (`ConvoyParadox`) asks more
than this, and leaves every phase with a convoy to the general engine.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .geography import UnitKind
from .orders import Convoy
from .position import Position
from .rules import ConvoyParadox, Rules

if TYPE_CHECKING:  # fast_movement.py imports this module
    from .board import Board
    from .fast_movement import PlainOrders


def convoys_are_plain(board: Board, position: Position, rules: Rules, read: PlainOrders) -> bool:
    """Are the phase's convoys (read by `read_plain`: the convoying fleets, the armies moving beyond
    their neighbours, the supports of such moves) all plain? True too for a phase with none."""
    if not read.convoys and not read.by_sea:
        return not read.supports_by_sea  # (a support of a move by sea, and no army moving so)
    if rules.convoy_paradox is ConvoyParadox.CONVOYING_SEA_SUPPORT_NOT_CUT:
        return False
    plain, graph = board.plain, board.graph
    names, id_of, dest, moves_to = plain.names, plain.id_of, read.dest, read.moves_to
    fleets_at_sea = graph.bits(u.location.province for u in position.units
                               if u.kind is UnitKind.FLEET and u.location.province in board.seas)
    carriers: dict[int, int] = {}  # a convoyed army's province -> its convoying fleets (a set of the graph's)
    for c in read.convoys:
        order = read.given[c]
        assert isinstance(order, Convoy)  # (`read_plain` lists only convoys here)
        sea = names[c]
        if sea not in board.seas or order.to.coast is not None:
            return False  # not at sea
        attackers = moves_to[c]
        if attackers is not None and _could_dislodge(read, c, attackers):
            return False  # attacked by a supported move: it could be dislodged, or a paradox made
        a = id_of.get(order.army.location.province, -1)
        to = id_of.get(order.to.province, -1)
        if a not in read.by_sea or dest[a] != to:
            return False  # a convoy its army does not take: unmatched, or by a route the rules choose
        origin, goal = names[a], names[to]
        if not graph.on_minimal_route(origin, goal, sea, fleets_at_sea):
            return False  # an illegal convoy: the general engine rejects it
        carriers[a] = carriers.get(a, 0) | graph.bits((sea,))
    for a in read.by_sea:
        origin, goal = names[a], names[dest[a]]
        if not (board.coastal_for_convoy(origin) and board.coastal_for_convoy(goal)) \
                or not graph.sea_route(origin, goal, carriers.get(a, 0)):
            return False  # no chain of ordered convoys: the move fails or is illegal, as the general engine says
    return _supports_by_sea_match(read, read.supports_by_sea)


def _could_dislodge(read: PlainOrders, c: int, attackers: Sequence[int]) -> bool:
    """Could a move into the sea c dislodge its convoying fleet? Not unless another power supports
    it: alone (or with the fleet's own power's support, which does not count against it) its attack
    strength is 1, never more than the hold strength of a fleet that stays (DATC 5.B)."""
    supports, into, power_of = read.supports, read.into, read.power_of
    fleet = power_of[c]
    return any(supports[s] in attackers and into[s] == c and power_of[s] != fleet for s in read.supporters)


def _supports_by_sea_match(read: PlainOrders, supporters: Sequence[int]) -> bool:
    """Each support of a move beyond the supported army's neighbours supports a convoyed move that is
    ordered (the chain of convoys it rides proves the move possible, as `_check_supports` asks)."""
    return all(read.supports[s] in read.by_sea and read.dest[read.supports[s]] == read.into[s] for s in supporters)
