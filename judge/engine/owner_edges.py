"""Borders open only to the owners of some centres (DPjudge's `XXX(C,D)`: Imperial's Bosphorus, which
only the owner of Constantinople's fleets cross straight from the Black Sea to the Aegean).

The border stays on the board (a picture draws it, distances count it); what a unit may do across it
is asked here, for its power and the centres owned now: move, support, retreat."""
from __future__ import annotations

from dataclasses import dataclass

from .position import Position


@dataclass(frozen=True)
class OwnerEdge:
    between: frozenset[str]     # the two provinces
    owners_of: frozenset[str]   # the centres a power must own, all of them, to cross


def closed_to(edges: tuple[OwnerEdge, ...], position: Position, power: str, here: str, there: str) -> tuple[str, ...]:
    """The centres this power lacks to cross between `here` and `there` now (empty: it may cross, or
    the border is an ordinary one)."""
    got = position.owners
    for edge in edges:
        if edge.between == {here, there}:
            return tuple(sorted(c for c in edge.owners_of if got.get(c) != power))
    return ()
