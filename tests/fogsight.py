"""What a power sees under fog of war, worked out for the tests from the board alone (not by
judge.games.fog): its units' provinces and every province next to them, and its centres' provinces,
before or after a phase; and which provinces a text names."""
from __future__ import annotations

import re

from judge.engine import load_variant

STANDARD = load_variant("standard")


def sight(position, powers, variant=STANDARD) -> set[str]:
    seen = set()
    for unit in [*position.units, *(d.unit for d in position.dislodged)]:
        if unit.power in powers:
            seen |= {unit.location.province, *variant.board.neighbours(unit.location.province)}
    return seen | {c for c, owner in position.owners.items() if owner in powers}


def unseen(before, after, powers, variant=STANDARD) -> set[str]:
    return set(variant.board.provinces) - sight(before, powers, variant) - sight(after, powers, variant)


def mentions(text: str, provinces, variant=STANDARD) -> list[str]:
    """The provinces named in `text`, by full name or by their abbreviation in capitals (time zones
    such as Europe/Berlin, in which deadlines are shown, are not places on the board)."""
    text = re.sub(r"\b[A-Z][a-z]+/[A-Za-z_]+", "", text)
    found = []
    for p in provinces:
        name = variant.board.province(p).name
        if re.search(rf"(?<!\w)({re.escape(name)}|{p.upper()})(?!\w)", text):
            found.append(p)
    return sorted(found)
