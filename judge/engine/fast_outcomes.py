"""Every order's outcome in a phase the fast path played (judge.engine.fast_movement), and why.

`movement_results._explain` and `_verdict` for a phase of plain orders: read from the settled
decisions when the outcomes are first asked for, in the order the general engine lists them (the
orders as given, then the holds the judge gives units with none).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .orders import Hold, Order, UnitRef
from .outcomes import Outcome, Reason, Why
from .position import Unit

if TYPE_CHECKING:  # fast_movement.py imports this module
    from .fast_movement import PlainRules

_MOVED, _HELD, _SUPPORTED = Reason.MOVED, Reason.HELD, Reason.SUPPORTED


def explain(game: PlainRules, units: Sequence[Unit], answer: Mapping[str, bool],
            dislodged_by: Mapping[str, str]) -> tuple[Outcome, ...]:
    unit_at, dest, supports = game.unit_at, game.dest, game.supports
    outcomes: list[Outcome] = []
    for p, given in game.given.items():
        power = unit_at[p].power
        attacker = dislodged_by.get(p)
        if p in dest:
            if answer[p]:
                outcomes.append(Outcome(power, given, True, _MOVED))
            else:
                outcomes.append(_bounced(game, answer, p, power, given, attacker))
        elif p in supports:
            if p not in game.matching:
                outcomes.append(Outcome(power, given, False, Reason.SUPPORT_UNMATCHED, None, (), (), attacker))
            elif answer[p]:
                outcomes.append(Outcome(power, given, True, _SUPPORTED))
            else:
                cutter = attacker or game.cutter(p)
                outcomes.append(Outcome(power, given, False, Reason.SUPPORT_CUT, None, (),
                                        (cutter,) if cutter else (), attacker))
        elif attacker is None:
            outcomes.append(Outcome(power, given, True, _HELD))
        else:
            outcomes.append(Outcome(power, given, False, Reason.DISLODGED, None, (), (attacker,), attacker))
    if len(game.given) < len(unit_at):
        for u in units:  # the units given no order hold, by the judge's order
            p = u.location.province
            if p in game.given:
                continue
            hold = Hold(UnitRef(u.location, u.kind))
            attacker = dislodged_by.get(p)
            if attacker is None:
                outcomes.append(Outcome(u.power, hold, True, _HELD, None, (), (), None, True))
            else:
                outcomes.append(Outcome(u.power, hold, False, Reason.DISLODGED, None, (), (attacker,), attacker, True))
    return tuple(outcomes)


def _bounced(game: PlainRules, answer: Mapping[str, bool], p: str, power: str, given: Order,
             attacker: str | None) -> Outcome:
    """A move that did not move: who was in the way (`movement_results._move_failed`); `attacker`: where
    the unit that dislodged it came from, if one did."""
    dest = game.dest[p]
    occupant = dest if dest in game.unit_at and not (dest in game.dest and answer[dest]) else None
    rivals = game.moves_to[dest]
    if len(rivals) == 1:  # (the usual case: no other move there)
        involving: tuple[str, ...] = (occupant,) if occupant else ()
        why = Why.OWN_UNIT if occupant and game.unit_at[occupant].power == power else None
    else:
        others = {q for q in rivals if q != p}
        if occupant:
            others.add(occupant)
        involving, why = tuple(sorted(others)), None
    return Outcome(power, given, False, Reason.BOUNCED, why, (), involving, attacker)
