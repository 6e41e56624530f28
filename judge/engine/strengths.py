"""How strong each side was where a move failed or a unit was dislodged, read back from a movement
phase's outcomes (so results stored before this module have them too, and both engines' outcomes give
the same numbers).

The DATC's strengths (section 5), counted from the supports the outcomes say were given: a move's
attack is 1 and each support given to it (a support by the power whose unit stays in the way not
counted); a rival move's prevent is 1 and its supports; a unit that stays holds with 1 and each
support given to it holding, one whose move failed with 1, and one coming the other way defends
with 1 and its supports. A prevent the engine set to nothing (a rival that lost a head-to-head) is
counted as its supports say: the reader is told the numbers that were on the board.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .orders import Move, SupportHold, SupportMove
from .outcomes import Outcome, Reason
from .variant import Variant


@dataclass(frozen=True, slots=True)
class Contest:
    """One unit's struggle: its own strength, the strongest against it, and where the units of that
    strength stood (provinces, sorted)."""
    own: int
    against: int
    by: tuple[str, ...]

    @property
    def beaten(self) -> bool:
        return self.against > self.own


@dataclass(frozen=True, slots=True)
class Strengths:
    """A unit's contests in one phase: its move that bounced, and the attack that dislodged it."""
    bounced: Contest | None = None
    dislodged: Contest | None = None


def counted_here(variant: Variant) -> bool:
    """Do these counts hold on this board? Not where some border gives a move less than a unit's own
    strength (a weak strait, the Cape: judge/engine/straits.py, cape.py): read back from the outcomes
    alone, such a move would be told stronger than it was, so no strengths are told there."""
    return not variant.weak_straits and not variant.half_strength_borders


def contests(outcomes: Sequence[Outcome]) -> dict[str, Strengths]:
    """The unit's province -> its contests, for every move that bounced (not on its own unit) and every
    unit dislodged, in a movement phase's outcomes."""
    by_province = {o.order.unit.location.province: o for o in outcomes
                   if o.reason is not Reason.ILLEGAL and hasattr(o.order, "unit")}
    given = [o for o in outcomes if o.reason is Reason.SUPPORTED]
    out: dict[str, Strengths] = {}
    for p, o in by_province.items():
        bounced = dislodged = None
        if o.reason is Reason.BOUNCED and o.why is None and isinstance(o.order, Move) and o.involving:
            bounced = _bounced(p, o.order, by_province, given)
        if o.dislodged_from is not None and o.dislodged_from in by_province:
            dislodged = _dislodged(p, o, by_province[o.dislodged_from], given)
        if bounced or dislodged:
            out[p] = Strengths(bounced, dislodged)
    return out


def _supports(given: Iterable[Outcome], unit: str, to: str | None, leave_out: str | None = None) -> int:
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
    return n


def _staying(province: str, by_province: Mapping[str, Outcome]) -> str | None:
    """The power of the unit in `province` if it stays there (held, or its move failed)."""
    o = by_province.get(province)
    if o is None or (isinstance(o.order, Move) and o.succeeded):
        return None
    return o.power


def _attack(p: str, move: Move, by_province: Mapping[str, Outcome], given: Sequence[Outcome]) -> int:
    return 1 + _supports(given, p, move.to.province, _staying(move.to.province, by_province))


def _holding(q: str, by_province: Mapping[str, Outcome], given: Sequence[Outcome], against: str) -> int:
    """The strength of the unit in q keeping out a move from `against`: defend, hold, or a failed move's 1."""
    o = by_province[q]
    if isinstance(o.order, Move):
        return 1 + _supports(given, q, against) if o.order.to.province == against else 1
    return 1 + _supports(given, q, None)


def _bounced(p: str, move: Move, by_province: Mapping[str, Outcome], given: Sequence[Outcome]) -> Contest:
    dest = move.to.province
    rivals: dict[str, int] = {}
    for q in (x.lower() for x in by_province[p].involving):
        if q not in by_province:
            continue
        if q == dest:
            rivals[q] = _holding(q, by_province, given, p)
        else:
            rivals[q] = 1 + _supports(given, q, dest)
    against = max(rivals.values(), default=0)
    return Contest(_attack(p, move, by_province, given), against,
                   tuple(sorted(q for q, n in rivals.items() if n == against)))


def _dislodged(p: str, o: Outcome, attacker: Outcome, given: Sequence[Outcome]) -> Contest:
    assert isinstance(attacker.order, Move)
    at = attacker.order.unit.location.province
    by_province = {p: o, at: attacker}
    own = _holding(p, by_province, given, at)
    attack = 1 + _supports(given, at, p, o.power)
    return Contest(own, attack, (at,))
