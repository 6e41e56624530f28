"""Colours and patterns for boards with more powers than colours that stand apart (Chaos's 34).

A layout.json with `"owners": "colour and pattern"` gets each power's picture colour from PALETTE,
chosen so that powers whose home centres are near each other (neighbours, or one province between)
differ most, and a pattern (plain, stripes one way, the other way, crossed) so that no two powers
share both colour and pattern: Brest and Paris side by side are told apart by colour, the three
powers sharing red by their stripes. Colour differences are CIE76 ΔE (`delta_e`).
"""
from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType

from ..engine.variant import Variant
from .style import Rgb, hex_rgb, territory_tint

# Units' colours that stand apart from land, sea and the grey off the board (ΔE >= 50), and whose
# owned-land tints stand apart from those grounds (ΔE >= 19) and from each other (ΔE >= 13).
PALETTE: tuple[str, ...] = ("#d22f2f", "#1f3a93", "#00a0c8", "#222222", "#2e9b43", "#9b59b6", "#f2d024",
                            "#e67e22", "#8b4513", "#ff69b4", "#808000", "#00ced1", "#4b0082")


class Pattern(Enum):
    """How a power's owned land is hatched, over its tint, in the power's own colour."""
    PLAIN = "plain"
    SLASH = "slash"            # stripes rising to the right
    BACKSLASH = "backslash"    # stripes falling to the right
    CROSS = "cross"            # both


PATTERNS = tuple(Pattern)


def lab(rgb: Rgb) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour, D65 white."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e(a: Rgb, b: Rgb) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, above 20 plainly different colours."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def near_powers(variant: Variant, steps: int = 2) -> dict[str, set[str]]:
    """power -> the powers with a home centre at most `steps` moves from one of its own."""
    board = variant.board
    home_of = {c: p.id for p in variant.powers for c in p.home_centres}
    near: dict[str, set[str]] = {p.id: set() for p in variant.powers}
    for power in variant.powers:
        reached = set(power.home_centres)
        for _ in range(steps):
            reached |= {n for r in reached for n in board.neighbours(r)}
        near[power.id] = {home_of[c] for c in reached if c in home_of} - {power.id}
    return near


def distinct_owners(variant: Variant) -> tuple[Mapping[str, Rgb], Mapping[str, Pattern]]:
    """Each power's colour and pattern: the most crowded powers first, each takes the colour whose
    tint is furthest (ΔE) from the tints of the near powers already coloured, the least used colour
    on a tie; then the powers sharing a colour take the patterns in turn."""
    near = near_powers(variant)
    colours = [hex_rgb(c) for c in PALETTE]
    tints = [territory_tint(c) for c in colours]
    if len(variant.powers) > len(colours) * len(PATTERNS):
        raise ValueError(f"{variant.id} has {len(variant.powers)} powers: more than "
                         f"{len(colours) * len(PATTERNS)} colours and patterns can tell apart")
    chosen: dict[str, int] = {}
    used = [0] * len(colours)
    for power in sorted(variant.power_ids, key=lambda p: (-len(near[p]), p)):
        coloured = [chosen[n] for n in near[power] if n in chosen]
        best = max(range(len(colours)), key=lambda i: (
            min((delta_e(tints[i], tints[c]) for c in coloured), default=999.0) if used[i] < len(PATTERNS) else -1.0,
            -used[i], -i))
        chosen[power] = best
        used[best] += 1
    patterns: dict[str, Pattern] = {}
    taken = [0] * len(colours)
    for power in variant.power_ids:
        patterns[power] = PATTERNS[taken[chosen[power]]]
        taken[chosen[power]] += 1
    return (MappingProxyType({p: colours[chosen[p]] for p in variant.power_ids}), MappingProxyType(patterns))
