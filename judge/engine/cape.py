"""Half-strength moves round the Cape (DPjudge's `*XXX`: 1900's Suez Canal rules, between the
Mid-Atlantic and Egypt or Hejaz the long way round Africa).

A variant lists these borders, (from, to), from the side a unit moves from. Across one:
- a move has half a unit's strength and its supports' (so does a convoyed army whose last step, from
  the convoying fleets, can only be across it);
- no unit supports (a hold or a move);
- a move cuts no support (dislodging the supporter still stops its support);
- a retreat gives way to another unit retreating to the same province (after any across a weak strait,
  which are weaker still: judge/engine/straits.py).
Movement, the order checks and retreats apply it."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

Borders = frozenset[tuple[str, str]]  # (from province, to province)

STRENGTH = 0.5  # a move's own strength round the Cape (an ordinary move's is 1)


def crosses(borders: Borders, here: str, there: str) -> bool:
    """Is the border from `here` to `there` one round the Cape?"""
    return (here, there) in borders


def lands_round_the_cape(borders: Borders, fleets: Iterable[str], there: str,
                         touches: Callable[[str], frozenset[str]]) -> bool:
    """Does an army convoyed by fleets in these seas land in `there` only across the Cape? `touches`: the
    provinces a sea touches. (No fleet touching `there` at all: not a landing round the Cape.)"""
    last = [sea for sea in fleets if there in touches(sea)]
    return bool(last) and all(crosses(borders, sea, there) for sea in last)


def giving_way(borders: Borders, retreats: Mapping[str, str]) -> frozenset[str]:
    """The retreating units (by the province they retreat from; `retreats`: from -> to) that give way
    because they go round the Cape to a province another unit also retreats to."""
    if not borders:
        return frozenset()
    wanted = Counter(retreats.values())
    return frozenset(here for here, there in retreats.items()
                     if wanted[there] > 1 and crosses(borders, here, there))
