"""Hidden builds (DPjudge's `~X` home centres: Zeus's USA in New York or California in Winter 1939):
kept from every other reader until the next movement phase is played, as DPjudge does.

The engine marks such a build's outcome (`Why.BUILT_HIDDEN`, judge/engine/alternative_homes.py).
Until a movement phase has been played after it, the unit is left out of what anyone but its own
power's player and the game's masters read: the adjustment's results (the build's line), the
position (its unit), HISTORY, and the board's picture, which shows no hidden unit to anybody (as
DPjudge's map). The movement phase's results then show its order like any other, and from then on
nothing is cut. Works over the games layer's plain JSON, like judge.games.fog.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.calendar import PhaseKind
from ..engine.orders import Order
from ..engine.outcomes import Outcome, Why
from ..engine.phase import check_orders
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.variant import Variant
from .answers import GameState, PlayedPhase

HIDDEN = Why.BUILT_HIDDEN.value


@dataclass(frozen=True)
class Veil:
    """The hidden builds not yet revealed (power -> units as a position writes them, `A NYO`), and
    the powers whose own they may be shown to (empty: nobody's)."""
    units: Mapping[str, frozenset[str]]
    readers: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return any(units for power, units in self.units.items() if power not in self.readers)

    def _hides(self, power: str, unit: str) -> bool:
        return power not in self.readers and unit.upper() in self.units.get(power, frozenset())

    def result(self, r: Mapping[str, Any]) -> dict[str, Any]:
        """One phase's stored result without the hidden builds' lines."""
        return {**r, "outcomes": [o for o in r["outcomes"]
                                  if not (o.get("why") == HIDDEN and self._hides(o["power"], built_unit(o)))]}

    def board(self, position: Position) -> Position:
        """The engine's position without the hidden units: what the reader's orders are checked on."""
        if not self:
            return position
        return position.with_(units=tuple(u for u in position.units if not self._hides(u.power, str(u))))

    def position(self, pos: Mapping[str, Any]) -> dict[str, Any]:
        """A position's JSON without the hidden units."""
        return {**pos, "units": {p: [u for u in us if not self._hides(p, u)] for p, us in pos["units"].items()}}


def built_unit(outcome: Mapping[str, Any]) -> str:
    """The unit a stored build outcome made, as a position writes it (`BUILD A NYO` -> `A NYO`)."""
    return str(outcome["order"]).upper().removeprefix("BUILD ").strip()


def unrevealed(variant: Variant, played: Iterable[Sequence[Mapping[str, Any]]]) -> dict[str, frozenset[str]]:
    """The hidden builds not yet revealed: each power's units built hidden in the phases played since
    the last movement phase played. `played`: each processing's stored results, oldest first."""
    found: dict[str, set[str]] = {}
    if any(m.hidden for m in variant.build_marks):
        for results in reversed(list(played)):
            for result in reversed(results):
                if variant.calendar.parse(result["phase"]).kind is PhaseKind.MOVEMENT:
                    return {p: frozenset(us) for p, us in found.items()}
                for o in result["outcomes"]:
                    if o.get("why") == HIDDEN and o.get("succeeded"):
                        found.setdefault(o["power"], set()).add(built_unit(o))
    return {p: frozenset(us) for p, us in found.items()}


def in_file(variant: Variant, db: Any) -> dict[str, frozenset[str]]:
    """The hidden builds not yet revealed in a game file (its phases played and kept); none for a
    variant without hidden builds (its file not read)."""
    if not any(m.hidden for m in variant.build_marks):
        return {}
    return unrevealed(variant, [tuple(json.loads(r[0])["results"]) for r in db.execute(
        "SELECT result FROM phases WHERE processed_at IS NOT NULL AND rolled_back = 0 AND result IS NOT NULL"
        " ORDER BY seq")])


def problems_seen(variant: Variant, position: Position, units: Mapping[str, frozenset[str]], power: str,
                  mine: Sequence[Order], rules: Rules, problems: Sequence[Outcome]) -> list[Outcome]:
    """What of this power's orders cannot be carried out, as it may be told: with units built hidden
    from it, checked on the board without them (a support of one is void to it, as of an empty
    province), lest the reply or its being "in" tell they are there. `problems`: as things are."""
    veil = Veil(units, frozenset({power}))
    if not veil:
        return [p for p in problems if p.power == power]
    return [p for p in check_orders(variant, veil.board(position), {power: mine}, rules) if p.power == power]


def played(rows: Iterable[PlayedPhase]) -> list[tuple[Mapping[str, Any], ...]]:
    """HISTORY's rows as `unrevealed` reads them: the results of each phase played and kept."""
    return [r.results for r in rows if r.processed_at and not r.rolled_back]


def veil_for(variant: Variant, status: GameState, units: Mapping[str, frozenset[str]],
             account: str | None, powers: Iterable[str] | None = None) -> Veil:
    """What `account` may not read of these hidden builds: nothing once the game has ended or for
    its master; else every power's but its own (`powers`: the ones a notice was written for)."""
    if not units or status.status == "finished" or (account is not None and account == status.master):
        return Veil({})
    own = powers if powers is not None else (p for p, info in status.powers.items()
                                             if account is not None and info.account == account)
    return Veil(units, frozenset(own))


def veiled_history(veil: Veil, rows: Iterable[PlayedPhase]) -> list[PlayedPhase]:
    """HISTORY's rows with the hidden builds cut."""
    return [replace(r, position=veil.position(r.position), results=tuple(veil.result(x) for x in r.results))
            for r in rows]
