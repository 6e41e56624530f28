"""The band under the map: the phase, each power with its colour and counts, and a key to the symbols.

The counts are of the board the phase leaves: after an adjustment phase's builds and removals,
as the reader will next play it. The key shows the symbols of the phase drawn: moves, supports
(to a move, or a dashed ring round a unit held: only when one is drawn, as convoys) after movement;
builds and removals after adjustments."""
from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine.calendar import PhaseKind
from ..engine.geography import Location, UnitKind
from ..engine.orders import Build, Convoy, Disband, SupportHold
from ..engine.outcomes import Outcome
from ..engine.position import Position, Unit
from ..engine.variant import Variant
from . import style
from .overlay import BUILT, centre_mark, unit_shapes
from .owners import Pattern
from .paint_png import load_font
from .scene import Circle, Line, Polygon, Shape, Text, arrow, cross, dashed_ring


POWERS_PER_ROW = 10  # at most: Youngstown's and Modern's ten fit one row
ROW = 38.0           # each further row of powers (pixels at 1200)
MARGIN = 14.0        # the legend's left and right margin (pixels at 1200)
POWER_GAP = 12.0     # at least this between one power's words and the next power's square (pixels at 1200)
NAME_SIZE, COUNTS_SIZE = 12.0, 10.0   # a power's name and its counts under it (pixels at 1200)


@dataclass(frozen=True)
class PowerGrid:
    """Where the legend's powers go: `per_row` to a row, each column's left edge in `lefts` (pixels)."""
    per_row: int
    lefts: tuple[float, ...]

    def rows(self, powers: int) -> int:
        return max(1, -(-powers // self.per_row))


def power_grid(variant: Variant, width: int) -> PowerGrid:
    """As many powers to a row as fit (POWERS_PER_ROW at most), the rows as even as they can be: each
    column as wide as its widest power (its square, then its name or its counts, measured with the
    font that draws them) so that no name runs into the next column (Void's 36 powers, named after
    seas and provinces: "Mid Atlantic Ocean"). Columns are spaced evenly where that leaves each room."""
    centres = sum(1 for p in variant.board.provinces.values() if p.supply_centre)
    return _power_grid(tuple(p.name for p in variant.powers), centres, width)


@functools.cache     # measured once a board and width: every picture of a game asks
def _power_grid(names: tuple[str, ...], centres: int, width: int) -> PowerGrid:
    k = width / 1200
    room = width - 2 * MARGIN * k
    counts = load_font(COUNTS_SIZE * k, bold=False).getlength(f"{centres} centres, {centres} units")
    name_font = load_font(NAME_SIZE * k)
    words = 2.4 * style.UNIT_RADIUS * k + POWER_GAP * k      # the square before the words, the gap after
    needs = [words + max(name_font.getlength(name), counts) for name in names]
    per_row, columns = _columns(needs, room)
    if max(columns) <= room / per_row:    # evenly spaced, as every board with short names
        return PowerGrid(per_row, tuple(MARGIN * k + j * room / per_row for j in range(per_row)))
    spare = max(room - sum(columns), 0.0) / per_row
    lefts = itertools.accumulate((c + spare for c in columns[:-1]), initial=MARGIN * k)
    return PowerGrid(per_row, tuple(lefts))


def _columns(needs: Sequence[float], room: float) -> tuple[int, list[float]]:
    """The most powers to a row (POWERS_PER_ROW at most, the rows even) whose columns, each as wide as
    the most its powers need, fit the room side by side; one to a row when none do."""
    for most in range(min(POWERS_PER_ROW, len(needs)), 1, -1):
        per_row = -(-len(needs) // -(-len(needs) // most))        # the rows as even as they can be
        columns = [max(needs[j::per_row]) for j in range(per_row)]
        if sum(columns) <= room:
            return per_row, columns
    return 1, [max(needs, default=0.0)]


def legend_height(variant: Variant, width: int) -> int:
    rows = power_grid(variant, width).rows(len(variant.powers))
    return round((style.LEGEND_HEIGHT + (rows - 1) * ROW) * width / 1200)


def legend(variant: Variant, colours: Mapping[str, style.Rgb], position: Position, title: str, top: float,
           width: int, frozen: bool, with_orders: bool, counted: frozenset[str] | None = None,
           outcomes: Sequence[Outcome] = (), patterns: Mapping[str, Pattern] | None = None,
           shut: bool = False) -> list[Shape]:
    """`counted`: the powers whose centres and units are told (fog of war); None: every power.
    `outcomes`: the phase's, whose builds and removals the unit counts include. `patterns`: each
    power's hatching of its land (a board of many powers), shown as a swatch of that land."""
    adjusting = position.phase.kind is PhaseKind.ADJUSTMENT
    units = units_after(position, outcomes if adjusting else ())
    k = width / 1200
    shapes: list[Shape] = [Line(((0, top + 0.5), (width, top + 0.5)), style.INK, max(1.0, 1.5 * k))]
    shapes.append(Text((MARGIN * k, top + 16 * k), title, 15 * k, style.INK, anchor="lm"))
    grid = power_grid(variant, width)
    rows = grid.rows(len(variant.powers))
    r = style.UNIT_RADIUS * k
    for i, power in enumerate(variant.powers):
        x = grid.lefts[i % grid.per_row]
        y = top + (44 + (i // grid.per_row) * ROW) * k
        colour = colours[power.id]
        if patterns and power.id in patterns:
            shapes += swatch((x + r, y), r, colour, patterns[power.id])
        else:
            shapes += unit_shapes(Unit(power.id, UnitKind.ARMY, Location("legend")), (x + r, y), colour, r)
        shapes.append(Text((x + 2.4 * r, y - 5 * k), power.name, NAME_SIZE * k, style.INK, anchor="lm"))
        counts = (
            f"{_count(len(position.centres_of(power.id)), 'centre')}, "
            f"{_count(units.get(power.id, 0), 'unit')}"
            if counted is None or power.id in counted
            else "unseen"
        )
        shapes.append(Text((x + 2.4 * r, y + 9 * k), counts, COUNTS_SIZE * k, (70, 70, 70), anchor="lm",
                            bold=False))
    y = top + (86 + (rows - 1) * ROW) * k
    x = MARGIN * k
    small = 11 * k

    def item(label: str, drawn: list[Shape], room: float) -> None:
        nonlocal x
        shapes.extend(drawn)
        shapes.append(Text((x + room, y), label, small, style.INK, anchor="lm", bold=False))
        x += room + len(label) * small * 0.62 + 18 * k

    grey = (150, 150, 150)
    item("army", unit_shapes(Unit("", UnitKind.ARMY, Location("legend")), (x + r, y), grey, r), 2.4 * r)
    item("fleet", unit_shapes(Unit("", UnitKind.FLEET, Location("legend")), (x + 1.4 * r, y), grey, r), 3.0 * r)
    if UnitKind.ARMY_FLEET in variant.unit_kinds:
        item("army at sea", unit_shapes(Unit("", UnitKind.ARMY_FLEET, Location("legend")), (x + 1.4 * r, y),
                                        grey, r), 3.0 * r)
    sc = style.SC_RADIUS * k
    item("centre, neutral / owned", centre_mark((x + sc, y), None, sc) + centre_mark((x + 3.5 * sc, y),
         (150, 150, 150), sc), 5.5 * sc)
    line = style.LINE * k
    if with_orders and adjusting:
        unit = Unit("", UnitKind.ARMY, Location("legend"))
        item("built", [Circle((x + 1.7 * r, y), r * 1.7, None, style.INK, line + 2),
                       Circle((x + 1.7 * r, y), r * 1.7, None, BUILT, line)]
             + unit_shapes(unit, (x + 1.7 * r, y), grey, r), 3.8 * r)
        item("removed", unit_shapes(unit, (x + r, y), grey, r) + cross((x + r, y), r * 0.9, style.FAILED, line),
             2.4 * r)
        item("failed", cross((x + 0.6 * r, y), 0.6 * r, style.FAILED, line), 1.6 * r)
    elif with_orders:
        item("move", arrow((x, y), (x + 30 * k, y), grey, line, head=r * 1.3, outline=style.INK), 34 * k)
        item("support", [Line(((x, y), (x + 26 * k, y)), style.INK, line + 2, dash=line * 2),
                         Line(((x, y), (x + 26 * k, y)), grey, line, dash=line * 2),
                         Circle((x + 26 * k, y), line * 1.2, grey, style.INK, 1.0)], 32 * k)
        drawn = {type(o.order) for o in outcomes}     # the rarer keys only when the picture has them
        if SupportHold in drawn or not outcomes:
            held = Unit("", UnitKind.ARMY, Location("legend"))
            item("held by support", unit_shapes(held, (x + 1.6 * r, y), grey, r)
                 + dashed_ring((x + 1.6 * r, y), r * 1.6, grey, line, outline=style.INK), 3.6 * r)
        if Convoy in drawn or not outcomes:
            item("convoy", [Circle((x + 1.75 * r, y), 1.75 * r, None, style.CONVOY, line * 0.8)], 3.8 * r)
        item("failed", cross((x + 0.6 * r, y), 0.6 * r, style.FAILED, line), 1.6 * r)
    if not adjusting:   # no unit is dislodged in an adjustment phase
        item("dislodged, retreats to", [Circle((x + 1.2 * r, y), 1.2 * r, None, style.DISLODGED, 2.5),
                                        Line(((x + 2.6 * r, y), (x + 5.5 * r, y)), style.RETREAT, line * 0.7,
                                             dash=line * 1.2),
                                        Circle((x + 6.0 * r, y), 0.45 * r, None, style.RETREAT, line * 0.7)],
             6.8 * r)
    if frozen:
        hatch = [Line(((x + i * 4 * k, y + 6 * k), (x + i * 4 * k + 12 * k, y - 6 * k)), style.FROZEN_HATCH,
                      max(1.0, k)) for i in range(4)]
        item("frozen", [Circle((x + 10 * k, y), 0.1, None)] + hatch, 30 * k)
    if shut:   # a seasonal space shut this season (Loeb9's Arctic Ocean in Fall and Winter)
        hatch = [Line(((x + i * 4 * k, y + 6 * k), (x + i * 4 * k + 12 * k, y - 6 * k)), style.IMPASSABLE_HATCH,
                      max(1.0, k)) for i in range(4)]
        item("impassable this season", [Circle((x + 10 * k, y), 0.1, None)] + hatch, 30 * k)
    return shapes


def swatch(at: tuple[float, float], r: float, colour: style.Rgb, pattern: Pattern) -> list[Shape]:
    """A square of a power's owned land, as the map paints it: its tint, hatched in its pattern, edged
    in its units' colour."""
    x, y = at
    square = ((x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r))
    shapes: list[Shape] = [Polygon(square, style.territory_tint(colour), colour, max(1.5, r / 4))]
    width = max(1.0, r / 6)
    a = r * 0.85                    # the stripes keep inside the square's edge
    for c in (-a, 0.0, a):          # three stripes each way: u + v = c (rising), u - v = c (falling)
        u0, u1 = max(-a, c - a), min(a, c + a)
        if pattern in (Pattern.SLASH, Pattern.CROSS):
            shapes.append(Line(((x + u0, y + c - u0), (x + u1, y + c - u1)), colour, width))
        if pattern in (Pattern.BACKSLASH, Pattern.CROSS):
            shapes.append(Line(((x + u0, y + u0 - c), (x + u1, y + u1 - c)), colour, width))
    return shapes


def units_after(position: Position, outcomes: Sequence[Outcome]) -> dict[str, int]:
    """Each power's units once these builds and removals are made (removing an army at sea leaves
    its fleet: one unit still)."""
    counts = {p: len(position.units_of(p)) for p in {u.power for u in position.units}}
    for o in outcomes:
        if o.succeeded and isinstance(o.order, Build):
            counts[o.power] = counts.get(o.power, 0) + 1
        elif o.succeeded and isinstance(o.order, Disband):
            gone = position.unit_in(o.order.unit.location.province)
            counts[o.power] = counts.get(o.power, 0) - (gone is None or gone.kind is not UnitKind.ARMY_FLEET)
    return counts


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
