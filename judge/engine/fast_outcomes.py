"""Every order's outcome in a phase the fast path played (judge.engine.fast_movement), and why.

`movement_results._explain` and `_verdict` for a phase of plain orders: read from the settled
decisions (keyed by province id) when the outcomes are first asked for, with the provinces named
again, in the order the general engine lists them (the orders as given, then the holds the judge
gives units with none).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .orders import Convoy, Hold, Order, UnitRef
from .outcomes import Outcome, Reason, Why
from .position import Position

if TYPE_CHECKING:  # fast_movement.py imports this module
    from .fast_movement import PlainRules

_MOVED, _HELD, _SUPPORTED, _CONVOYED = Reason.MOVED, Reason.HELD, Reason.SUPPORTED, Reason.CONVOYED


def explain(game: PlainRules, names: tuple[str, ...], position: Position, answer: dict[int, bool],
            dislodged_by: dict[int, int]) -> tuple[Outcome, ...]:
    """`names`: each province id's name; `dislodged_by`: a dislodged unit's province -> its attacker's."""
    dest, supports, power_of = game.dest, game.supports, game.power_of
    outcomes: list[Outcome] = []
    for p, given in game.given.items():
        power = power_of[p]
        assert power is not None  # (every unit given an order is there)
        a = dislodged_by.get(p)
        attacker = None if a is None else names[a]
        if dest[p] >= 0:
            if answer[p]:
                outcomes.append(Outcome(power, given, True, _MOVED))
            else:
                outcomes.append(_bounced(game, names, answer, p, power, given, attacker))
        elif supports[p] >= 0:
            if not game.matching[p]:
                outcomes.append(Outcome(power, given, False, Reason.SUPPORT_UNMATCHED, None, (), (), attacker))
            elif answer[p]:
                outcomes.append(Outcome(power, given, True, _SUPPORTED))
            else:
                c = game.cutter(p)
                cutter = attacker or (names[c] if c >= 0 else None)
                outcomes.append(Outcome(power, given, False, Reason.SUPPORT_CUT, None, (),
                                        (cutter,) if cutter else (), attacker))
        elif attacker is None:  # (a convoying fleet is never dislodged here: `fast_convoys`)
            outcomes.append(Outcome(power, given, True, _CONVOYED if type(given) is Convoy else _HELD))
        else:
            outcomes.append(Outcome(power, given, False, Reason.DISLODGED, None, (), (attacker,), attacker))
    unit_at = position._by_province
    for p in game.idle:  # the units given no order hold, by the judge's order
        u = unit_at[names[p]]
        hold = Hold(UnitRef(u.location, u.kind))
        a = dislodged_by.get(p)
        if a is None:
            outcomes.append(Outcome(u.power, hold, True, _HELD, None, (), (), None, True))
        else:
            outcomes.append(Outcome(u.power, hold, False, Reason.DISLODGED, None, (), (names[a],), names[a], True))
    return tuple(outcomes)


def _bounced(game: PlainRules, names: tuple[str, ...], answer: dict[int, bool], p: int, power: str, given: Order,
             attacker: str | None) -> Outcome:
    """A move that did not move: who was in the way (`movement_results._move_failed`); `attacker`: where
    the unit that dislodged it came from, if one did."""
    dest = game.dest[p]
    # the unit in the way where the move goes, if one stayed there (-1: none)
    occupant = dest if game.power_of[dest] is not None and not (game.dest[dest] >= 0 and answer[dest]) else -1
    rivals = game.moves_to[dest] or ()
    if len(rivals) == 1:  # (the usual case: no other move there)
        involving: tuple[str, ...] = (names[occupant],) if occupant >= 0 else ()
        why = Why.OWN_UNIT if occupant >= 0 and game.power_of[occupant] == power else None
    else:
        others = {q for q in rivals if q != p}
        if occupant >= 0:
            others.add(occupant)
        involving, why = tuple(names[q] for q in sorted(others)), None  # (ids sort as their names)
    return Outcome(power, given, False, Reason.BOUNCED, why, (), involving, attacker)
