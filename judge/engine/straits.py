"""Weak moves across straits (DPjudge's `~XXX`: Loeb9's Cordoba-North Africa and Naples-Sicily).

A strait is a border a variant lists as one, from the side a unit moves from (DPjudge marks the
adjacency on that side's line). Across it:
- a move has no strength of its own, only its supports: unsupported, it enters a province only if
  nothing else is there or contests it, and cuts no support; with one support it still does not
  dislodge a unit that holds;
- no unit supports (a hold or a move);
- a retreat gives way: where another unit retreats to the same province, the one crossing the strait
  is disbanded and the other retreats (if it alone is left).
Which side a crossing is on is asked here; movement, the order checks and retreats apply it."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

Straits = frozenset[tuple[str, str]]  # (from province, to province)

STRENGTH = 0  # a move's own strength across a strait (an ordinary move's is 1)


def crosses(straits: Straits, here: str, there: str) -> bool:
    """Is the border from `here` to `there` a strait?"""
    return (here, there) in straits


def giving_way(straits: Straits, retreats: Mapping[str, str]) -> frozenset[str]:
    """The retreating units (by the province they retreat from; `retreats`: from -> to) that give way
    because they cross a strait to a province another unit also retreats to."""
    if not straits:
        return frozenset()
    wanted = Counter(retreats.values())
    return frozenset(here for here, there in retreats.items()
                     if wanted[there] > 1 and crosses(straits, here, there))
