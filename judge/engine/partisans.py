"""Partisan build sites (DPjudge's `*X` on a power's line: 1900's Siberia, for Russia's emergency
measures).

While a power owns at least one of its home centres but not all of them, each of its partisan sites
lets it keep one unit more than it has centres, and is one of its build sites (a province that is no
supply centre, so nobody owns it: a build there needs it only empty). Once it owns all its home centres
again, or none, the extra units go in the next adjustments as any excess does."""
from __future__ import annotations

from .homes import home_centres
from .position import Position
from .variant import Variant


def active_sites(variant: Variant, position: Position, power: str) -> tuple[str, ...]:
    """This power's partisan sites that count now (none unless it holds some but not all of its homes)."""
    sites = variant.power(power).partisan_sites
    if not sites:
        return ()
    homes = home_centres(variant, position, power)
    held = sum(1 for c in homes if position.owners.get(c) == power)
    return sites if 0 < held < len(homes) else ()
