"""How strong each side was where a move bounced or a unit was dislodged, read back from a movement
phase's outcomes (so results stored before this module have them too, and both engines' outcomes give
the same numbers).

The DATC's strengths (section 5), counted from the supports the outcomes say were given: a move's
attack is its own strength and each support given to it (a support by the power whose unit stays in
the way not counted); a rival move's prevent is its own strength and its supports; a unit that stays
holds with 1 and each support given to it holding, one whose move failed with 1, and one coming the
other way defends with its move's own strength and its supports. A prevent the engine set to nothing
(a rival that lost a head-to-head) is counted as its supports say: the reader is told the numbers
that were on the board.

A move's own strength is 1, but none across a weak strait (judge/engine/straits.py) and a half round
the Cape, or for a convoyed army landing only from round it (judge/engine/cape.py): the numbers are
exact fractions, and the words say how a half is written.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from . import cape, straits
from .orders import Convoy, Move, SupportHold, SupportMove
from .outcomes import Outcome, Reason
from .variant import Variant

ONE = Fraction(1)


@dataclass(frozen=True, slots=True)
class Contest:
    """One unit's struggle: its own strength, the strongest against it, and where the units of that
    strength stood (provinces, sorted)."""
    own: Fraction
    against: Fraction
    by: tuple[str, ...]

    @property
    def beaten(self) -> bool:
        return self.against > self.own


@dataclass(frozen=True, slots=True)
class Strengths:
    """A unit's contests in one phase: its move that bounced, and the attack that dislodged it."""
    bounced: Contest | None = None
    dislodged: Contest | None = None


def contests(outcomes: Sequence[Outcome], variant: Variant) -> dict[str, Strengths]:
    """The unit's province -> its contests, for every move that bounced (not on its own unit) and every
    unit dislodged, in a movement phase's outcomes on this variant's board."""
    by_province = {o.order.unit.location.province: o for o in outcomes
                   if o.reason is not Reason.ILLEGAL and hasattr(o.order, "unit")}
    given = [o for o in outcomes if o.reason is Reason.SUPPORTED]
    own = _own_strengths(variant, outcomes)
    out: dict[str, Strengths] = {}
    for p, o in by_province.items():
        bounced = dislodged = None
        if o.reason is Reason.BOUNCED and o.why is None and isinstance(o.order, Move) and o.involving:
            bounced = _bounced(p, o.order, by_province, given, own)
        if o.dislodged_from is not None and o.dislodged_from in by_province:
            dislodged = _dislodged(p, o, by_province[o.dislodged_from], given, own)
        if bounced or dislodged:
            out[p] = Strengths(bounced, dislodged)
    return out


def _own_strengths(variant: Variant, outcomes: Sequence[Outcome]) -> dict[str, Fraction]:
    """Each move's own strength (before its supports) where it is not 1, by the mover's province: as
    the engine has it (judge.engine.movement), none by land across a weak strait, a half round the
    Cape or for an army carried (its convoy given) that lands only from round it."""
    straits_here, cape_here = variant.weak_straits, variant.half_strength_borders
    if not straits_here and not cape_here:
        return {}
    carried: dict[str, list[str]] = {}       # army's province -> the seas of the convoys that matched it
    by_sea: set[str] = set()
    for o in outcomes:
        if isinstance(o.order, Convoy) and o.reason not in (Reason.ILLEGAL, Reason.CONVOY_UNMATCHED):
            army = o.order.army.location.province
            carried.setdefault(army, []).append(o.order.unit.location.province)
            if o.reason is Reason.CONVOYED:
                by_sea.add(army)
    own: dict[str, Fraction] = {}
    for o in outcomes:
        if not isinstance(o.order, Move) or o.reason is Reason.ILLEGAL:
            continue
        here, there = o.order.unit.location.province, o.order.to.province
        if here in by_sea:
            half = cape.lands_round_the_cape(cape_here, carried[here], there, variant.board.fleet_province_neighbours)
            weak = False
        else:
            half, weak = cape.crosses(cape_here, here, there), straits.crosses(straits_here, here, there)
        if half:
            own[here] = Fraction(cape.STRENGTH)
        elif weak:
            own[here] = Fraction(straits.STRENGTH)
    return own


def _supports(given: Iterable[Outcome], unit: str, to: str | None, leave_out: str | None = None) -> Fraction:
    """The supports given to the unit in `unit` moving to `to` (None: holding)."""
    n = 0
    for s in given:
        order = s.order
        if s.power == leave_out or not isinstance(order, (SupportHold, SupportMove)):
            continue
        if order.supported.location.province != unit:
            continue
        if isinstance(order, SupportHold) if to is None else isinstance(order, SupportMove) and order.to.province == to:
            n += 1
    return Fraction(n)


def _staying(province: str, by_province: Mapping[str, Outcome]) -> str | None:
    """The power of the unit in `province` if it stays there (held, or its move failed)."""
    o = by_province.get(province)
    if o is None or (isinstance(o.order, Move) and o.succeeded):
        return None
    return o.power


def _attack(p: str, move: Move, by_province: Mapping[str, Outcome], given: Sequence[Outcome],
            own: Mapping[str, Fraction]) -> Fraction:
    return own.get(p, ONE) + _supports(given, p, move.to.province, _staying(move.to.province, by_province))


def _holding(q: str, by_province: Mapping[str, Outcome], given: Sequence[Outcome], against: str,
             own: Mapping[str, Fraction]) -> Fraction:
    """The strength of the unit in q keeping out a move from `against`: defend (its move's own strength
    and supports), hold, or a failed move's 1."""
    o = by_province[q]
    if isinstance(o.order, Move):
        return own.get(q, ONE) + _supports(given, q, against) if o.order.to.province == against else ONE
    return ONE + _supports(given, q, None)


def _bounced(p: str, move: Move, by_province: Mapping[str, Outcome], given: Sequence[Outcome],
             own: Mapping[str, Fraction]) -> Contest:
    dest = move.to.province
    rivals: dict[str, Fraction] = {}
    for q in (x.lower() for x in by_province[p].involving):
        if q not in by_province:
            continue
        if q == dest:
            rivals[q] = _holding(q, by_province, given, p, own)
        else:
            rivals[q] = own.get(q, ONE) + _supports(given, q, dest)
    against = max(rivals.values(), default=Fraction(0))
    return Contest(_attack(p, move, by_province, given, own), against,
                   tuple(sorted(q for q, n in rivals.items() if n == against)))


def _dislodged(p: str, o: Outcome, attacker: Outcome, given: Sequence[Outcome],
               own: Mapping[str, Fraction]) -> Contest:
    assert isinstance(attacker.order, Move)
    at = attacker.order.unit.location.province
    by_province = {p: o, at: attacker}
    holding = _holding(p, by_province, given, at, own)
    attack = own.get(at, ONE) + _supports(given, at, p, o.power)
    return Contest(holding, attack, (at,))
