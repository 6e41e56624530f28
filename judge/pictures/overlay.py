"""Supply centres, names, units and the phase's orders, as shapes over the map.

Every unit stands on its province's main place (a fleet on a split coast on that coast's place);
each name sits under its place, after the supply-centre mark when the province has one. Orders:
moves are solid arrows in the power's colour (a convoyed army's arrow runs through its fleets),
supports dashed lines to the move they support (or a dashed ring round the unit they hold, never
to be taken for a dislodged unit's solid red ring), convoys a
blue ring round the fleet, and a failed order gets a red cross where it stopped.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType


from ..engine.geography import Coast, Location, Terrain, UnitKind
from ..engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove
from ..engine.outcomes import Outcome
from ..engine.position import DislodgedUnit, Position, Unit
from ..engine.variant import Variant
from . import style
from .atlas import Atlas
from .label_places import Box, Label, Name, place_labels
from .passages import far_ends
from .paint_png import load_font
from .scene import Circle, Line, Point, Polygon, Shape, Text, along, arrow, cross, dashed_ring, towards


BUILT = (250, 210, 40)   # the ring round a unit just built
# A passage longer than this (pixels at 1200) is named at both ends rather than drawn across the board.
LONG_PASSAGE = 180.0
HALO = 1.0               # pixels of outline round a name's letters
NOTE_SHARE, NOTE_ROW = 0.9, 1.15   # a far end's note: its size, and its rows' spacing, as shares of its name's size
MARK_GAP = 1.0           # pixels between a supply centre's mark and the letters under it


class Places:
    """Pixel positions at one picture width."""

    def __init__(self, atlas: Atlas, width: int) -> None:
        self.atlas = atlas
        self.scale = width / atlas.width

    def of(self, loc: Location) -> Point:
        key = str(loc) if f"{loc}" in self.atlas.places else loc.province
        x, y = self.atlas.places[key]
        return x * self.scale, y * self.scale

    def province_at(self, point: Point) -> str | None:
        """The province whose cell holds this pixel of the picture (None: off the board)."""
        x, y = int(point[0] / self.scale), int(point[1] / self.scale)
        cells = self.atlas.cells
        if not (0 <= y < cells.shape[0] and 0 <= x < cells.shape[1]):
            return None
        label = int(cells[y, x])
        return self.atlas.provinces[label - 1] if 1 <= label <= len(self.atlas.provinces) else None

    def unit(self, unit: Unit) -> Point:
        """Where a unit stands: a fleet in a province with one coast on that shore, else `of`."""
        spot = self.atlas.fleet_places.get(unit.location.province)
        if unit.kind is UnitKind.FLEET and spot is not None and unit.location.coast is None:
            return self.scaled(spot)
        return self.of(unit.location)

    def scaled(self, point: tuple[float, float]) -> Point:
        return point[0] * self.scale, point[1] * self.scale

    def size(self, pixels_at_1200: float) -> float:
        """A symbol's size (a unit, a mark, a name, a line): scaled with the picture, at the board's share."""
        return self.length(pixels_at_1200) * self.atlas.symbols

    def length(self, pixels_at_1200: float) -> float:
        """A length on the board itself, scaled with the picture."""
        return pixels_at_1200 * self.scale * self.atlas.width / 1200


def unit_shapes(unit: Unit, at: Point, colour: style.Rgb, radius: float, *, outline: style.Rgb = style.INK,
                ring_width: float = 1.5) -> list[Shape]:
    x, y = at
    ink = style.ink_on(colour)
    if unit.kind is UnitKind.ARMY:
        return [Circle(at, radius, colour, outline, ring_width),
                Text((x, y), "A", radius * 1.25, ink)]
    r = radius
    hull = ((x - 1.35 * r, y - 0.6 * r), (x + 1.35 * r, y - 0.6 * r), (x + 0.85 * r, y + 0.75 * r),
            (x - 0.85 * r, y + 0.75 * r))
    letters = "F" if unit.kind is UnitKind.FLEET else "A/F"
    return [Polygon(hull, colour, outline, ring_width),
            Text((x, y + 0.05 * r), letters, radius * (1.2 if letters == "F" else 0.9), ink)]


def far_note(other: str) -> str:
    """The note under a province's name naming the far end of a passage not drawn across the board."""
    return f"↔{other.upper()}"


def centre_mark(at: Point, owner_colour: style.Rgb | None, radius: float) -> list[Shape]:
    if owner_colour is None:  # a neutral centre: a ring with a dot
        return [Circle(at, radius, style.PAPER, style.INK, max(1.0, radius / 3.5)),
                Circle(at, radius / 2.6, style.INK)]
    return [Circle(at, radius, owner_colour, style.INK, max(1.0, radius / 3.5))]


class Overlay:
    def __init__(self, variant: Variant, atlas: Atlas, position: Position, width: int,
                 hidden: frozenset[str] = frozenset()) -> None:
        self.variant = variant
        self.position = position
        self.hidden = hidden          # fog of war: provinces drawn without name or centre
        self.places = Places(atlas, width)
        self.colour = atlas.colours
        self.r = self.places.size(style.UNIT_RADIUS)
        self.line = self.places.size(style.LINE)
        self.label_size = self.places.size(style.LABEL_SIZE)
        self.label_dy = self.r + self.label_size * 0.75  # names sit this far below their place
        self.shapes: list[Shape] = []
        self.failures: list[Shape] = []  # drawn last, over everything
        # province -> the far ends of its long passages, named under its name (whose place keeps room)
        self.far = far_ends(atlas.passages, LONG_PASSAGE * atlas.width / 1200)
        self.labels = self._label_boxes()

    # -- the board -----------------------------------------------------------------------------
    def _label_boxes(self) -> Mapping[str, Label]:
        """Each name's place and size (label_places): wholly inside its own cell, clear of every place a
        unit may stand and of the other names. The same for every picture of the variant at this
        width, so worked out once per atlas."""
        key = ("labels", self.places.scale)
        cache = self.places.atlas.cache
        if key not in cache:
            cache[key] = MappingProxyType(self._place_labels())
        return cache[key]

    def _place_labels(self) -> dict[str, Label]:
        atlas = self.places.atlas
        # no unit ever stands in an impassable province: its name may lie on its place (its hatched cell)
        spots = [self.places.of(Location(p)) for p, prov in self.variant.board.provinces.items()
                 if prov.terrain is not Terrain.IMPASSABLE]
        spots += [self.places.of(Location(p, c)) for p, prov in self.variant.board.provinces.items()
                  for c in prov.coasts]
        spots += [self.places.scaled(spot) for _, spot in sorted(atlas.fleet_places.items())]
        names = [Name(pid, atlas.label(pid), self.places.of(Location(pid)),
                      functools.partial(self._name_box, pid.upper(), province.supply_centre,
                                        notes=tuple(far_note(o) for o in self.far.get(pid, ()))),
                      province.supply_centre,
                      functools.partial(self._name_box, pid.upper(), province.supply_centre)
                      if pid in self.far else None)
                 for pid, province in self.variant.board.provinces.items() if pid in atlas.provinces]
        coasts = []
        for pid, province in self.variant.board.provinces.items():
            for coast in province.coasts:
                letters = self._coast_letters(pid, coast)
                (x, y), font = letters.at, load_font(round(letters.size))
                left, top, right, bottom = font.getbbox(letters.text, anchor=letters.anchor)
                coasts.append((x + left, y + top, x + right, y + bottom))
        return place_labels(atlas.cells, self.places.scale, names, spots, self.label_size, self.label_dy, self.r,
                            coasts)

    def _coast_letters(self, province: str, coast: Coast) -> Text:
        """A split coast's `nc`, `sc` beside its ring (the names keep clear of it)."""
        cx, cy = self.places.of(Location(province, coast))
        return Text((cx + self.r * 0.55, cy + self.r * 0.9), coast.value, self.label_size, (30, 60, 110),
                    halo=style.PAPER, anchor="lm")

    def _name_box(self, text: str, centre: bool, size: float, stacked: bool, with_halo: bool,
                  notes: tuple[str, ...] = ()) -> Box:
        """A name's box at this font size round the point it is centred on, its halo's pixel included
        (`with_halo`); a supply centre's mark before the letters, or above them (`stacked`); the `notes`
        under it (its long passages' far ends, one a row) included."""
        box = self._letters_box(text, centre, size, stacked, HALO if with_halo else 0.0)
        for row, note in enumerate(notes, 1):
            left, _, right, bottom = load_font(round(size * NOTE_SHARE), bold=False).getbbox(note, anchor="mm")
            half = max(-left, right) + box.pad
            box = Box(min(box.left, -half), box.top, max(box.right, half),
                      max(box.bottom, row * size * NOTE_ROW + bottom + box.pad), box.pad)
        return box

    def _letters_box(self, text: str, centre: bool, size: float, stacked: bool, halo: float) -> Box:
        font = load_font(round(size))
        sc_r = self.places.size(style.SC_RADIUS)
        if centre and stacked:
            left, top, right, bottom = font.getbbox(text, anchor="mm")
            half = max(-left, right, sc_r) + halo
            return Box(-half, top - MARK_GAP - 2 * sc_r - halo, half, bottom + halo, halo)
        if centre:
            _, top, right, bottom = font.getbbox(text, anchor="lm")
            half = (sc_r * 2.6 + right) / 2 + halo
            return Box(-half, min(top, -sc_r) - halo, half, max(bottom, sc_r) + halo, halo)
        left, top, right, bottom = font.getbbox(text, anchor="mm")
        half = max(-left, right) + halo
        return Box(-half, top - halo, half, bottom + halo, halo)

    # -- the board -----------------------------------------------------------------------------
    def passages(self) -> None:
        """Dashed lines across straits and canals, reaching a little into both provinces. A passage
        longer than LONG_PASSAGE (Youngstown's oceans off the board, joined round the world) is not
        drawn across the board: each end gets the other's name, `↔OBJ`, under its own."""
        for province, others in self.far.items():
            for row, other in enumerate(others, 1):
                self._far_end(province, other, row)
        for p in self.places.atlas.passages:
            if p.b in self.far.get(p.a, ()):
                continue
            (x0, y0), (x1, y1) = (self.places.scaled(p.start), self.places.scaled(p.end))
            mid = ((x0 + x1) / 2, (y0 + y1) / 2)
            gap = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            half = max(gap / 2 + self.r * 0.6, self.r)
            ux, uy = ((x1 - x0) / gap, (y1 - y0) / gap) if gap else (1.0, 0.0)
            a, b = (mid[0] - ux * half, mid[1] - uy * half), (mid[0] + ux * half, mid[1] + uy * half)
            colour = style.COAST if p.by_sea else style.LAND_BORDER
            self.shapes.append(Line((a, b), colour, self.places.size(2.0), dash=self.places.size(3.0)))

    def _far_end(self, province: str, other: str, row: int) -> None:
        """`↔OTHER` under `province`'s name, in its `row` (one for each such passage it has)."""
        x, y, _, size, _ = self.labels[province]
        sea = self.variant.board.provinces[province].is_sea
        self.shapes.append(Text((x, y + row * size * NOTE_ROW), far_note(other), size * NOTE_SHARE,
                                style.COAST if sea else style.LAND_BORDER,
                                halo=style.SEA_HALO if sea else style.LAND_HALO, bold=False))

    def board(self) -> None:
        sc_r = self.places.size(style.SC_RADIUS)
        for pid, province in self.variant.board.provinces.items():
            if pid in self.hidden:
                continue
            x, y, half_w, size, stacked = self.labels[pid]
            text = pid.upper()
            ink = (30, 60, 110) if province.is_sea else style.INK
            halo = style.SEA_HALO if province.is_sea else style.LAND_HALO
            if province.supply_centre and stacked:     # the mark above the letters
                owner = self.position.owners.get(pid)
                top = load_font(round(size)).getbbox(text, anchor="mm")[1]
                self.shapes += centre_mark((x, y + top - MARK_GAP - sc_r), self.colour[owner] if owner else None, sc_r)
                self.shapes.append(Text((x, y), text, size, ink, halo=halo))
            elif province.supply_centre:
                owner = self.position.owners.get(pid)
                mark_x = x - half_w + sc_r
                self.shapes += centre_mark((mark_x, y), self.colour[owner] if owner else None, sc_r)
                self.shapes.append(Text((mark_x + sc_r * 1.6, y), text, size, ink, halo=halo, anchor="lm"))
            else:
                self.shapes.append(Text((x, y), text, size, ink, halo=halo))
            for coast in province.coasts:
                ring = Circle(self.places.of(Location(pid, coast)), self.r * 0.4, style.PAPER, style.COAST, 1.5)
                self.shapes += [ring, self._coast_letters(pid, coast)]

    def units(self) -> None:
        for unit in self.position.units:
            self.shapes += unit_shapes(unit, self.places.unit(unit), self.colour[unit.power], self.r)

    def dislodged(self, items: Iterable[DislodgedUnit], *, offset: bool) -> None:
        """Dislodged units with dotted lines to where each may retreat. In a retreat phase the unit is
        drawn beside the one that took its place; after a movement phase it is still in its place."""
        for d in items:
            at = self.dislodged_point(d.unit, offset)
            for loc in d.retreats:
                dest = self._target(loc)
                end = towards(dest, at, self._short(loc, at))
                self.shapes.append(Line((towards(at, dest, self.r), end), style.RETREAT, self.line * 0.7,
                                        dash=self.line * 1.2))
                self.shapes.append(Circle(end, self.r * 0.4, style.PAPER, style.RETREAT, self.line * 0.7))
            if offset:
                self.shapes += unit_shapes(d.unit, at, self.colour[d.unit.power], self.r * 0.85,
                                           outline=style.DISLODGED, ring_width=2.5)
            else:
                self.shapes.append(Circle(at, self.r * 1.55, None, style.DISLODGED, 2.5))

    def dislodged_point(self, unit: Unit, offset: bool) -> Point:
        x, y = self.places.unit(unit)
        return (x + self.r * 1.3, y - self.r * 1.3) if offset else (x, y)

    # -- the orders ------------------------------------------------------------------------------
    def orders(self, outcomes: Iterable[Outcome]) -> None:
        outcomes = list(outcomes)
        convoys = [o for o in outcomes if isinstance(o.order, Convoy)]
        moves = {o.order.unit.location.province: o for o in outcomes if isinstance(o.order, Move)}
        for o in outcomes:
            order = o.order
            colour = self.colour.get(o.power, style.INK)
            if isinstance(order, Move):
                self._move(o, colour, convoys)
            elif isinstance(order, SupportMove):
                self._support_move(o, colour, moves)
            elif isinstance(order, SupportHold):
                self._support_hold(o, colour)
            elif isinstance(order, Convoy):
                self._convoy(o, moves)
            elif isinstance(order, Retreat):
                self._retreat(o, colour)
            elif isinstance(order, Disband):
                self._disband(o)
            elif isinstance(order, Build):
                self._build(o, colour)
            elif isinstance(order, Hold) and not o.succeeded and not o.dislodged_from:
                self._fail(self._from(order.unit.location))
        self.shapes += self.failures

    def _fail(self, at: Point) -> None:
        self.failures += cross(at, self.r * 0.6, style.FAILED, self.line)

    def _target(self, loc: Location) -> Point:
        """Where an order into `loc` points: at the unit there, else at the province's name (in a
        crowded corner an empty place is nearer another province's name than its own), unless the
        name stands outside the province's cell: then at its place."""
        unit = self.position.unit_in(loc.province)
        if unit is not None:
            return self.places.unit(unit)
        if loc.coast is not None or not self._name_inside(loc.province):
            return self.places.of(loc)
        x, y, _, _, _ = self.labels[loc.province]
        return x, y

    def _name_inside(self, province: str) -> bool:
        x, y, _, _, _ = self.labels[province]
        return self.places.province_at((x, y)) == province

    def _short(self, loc: Location, coming_from: Point) -> float:
        """How far before `_target` a line from `coming_from` stops: clear of the unit there, or at
        the edge of the province's name (its box, plus a little room), but with its tip inside the
        province's cell."""
        end = self._target(loc)
        if self.position.unit_in(loc.province) is not None or loc.coast is not None:
            short = self.r * 0.9
        elif not self._name_inside(loc.province):
            short = self.r * 0.4
        else:
            x, y, half_w, size, _ = self.labels[loc.province]
            dx, dy = abs(coming_from[0] - x), abs(coming_from[1] - y)
            length = (dx * dx + dy * dy) ** 0.5 or 1.0
            half_h = size * 0.6
            short = min(half_w / dx if dx else float("inf"), half_h / dy if dy else float("inf")) * length + self.line
        return self._within(loc.province, end, coming_from, short)

    def _within(self, province: str, end: Point, start: Point, short: float) -> float:
        """`short`, or less, so that the point `short` before `end` on the line from `start` lies in
        the province's cell (when `end` does): an arrow never stops in the province before."""
        length = ((end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2) ** 0.5
        if length < 1 or self.places.province_at(end) != province:
            return short
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        step = max(self.places.scale, 0.5)
        while short > 0 and self.places.province_at((end[0] - ux * short, end[1] - uy * short)) != province:
            short -= step
        return max(short, 0.0)

    def _from(self, loc: Location) -> Point:
        unit = self.position.unit_in(loc.province)
        return self.places.unit(unit) if unit else self.places.of(loc)

    def _move(self, o: Outcome, colour: style.Rgb, convoys: list[Outcome]) -> None:
        order: Move = o.order  # type: ignore[assignment]
        start, end = self._from(order.unit.location), self._target(order.to)
        mine = [c for c in convoys if c.order.army.location.province == order.unit.location.province
                and c.order.to.province == order.to.province]
        # the route the army took: through fleets that stayed, if they make one
        held = [c.order.unit.location.province for c in mine if c.succeeded]
        route = self._convoy_route(order.unit.location.province, order.to.province, held) or self._convoy_route(
            order.unit.location.province, order.to.province, [c.order.unit.location.province for c in mine])
        path = [start, *(self._from(Location(f)) for f in route), end]
        outline = style.INK
        for a, b in zip(path[:-2], path[1:-1], strict=True):
            self.shapes += [Line((a, b), outline, self.line + 2.5), Line((a, b), colour, self.line)]
        tail = towards(path[-2], path[-1], self.r) if len(path) == 2 else path[-2]
        short = self._short(order.to, path[-2])
        self.shapes += arrow(tail, end, colour, self.line, head=self.r * 1.3, outline=outline, stop_short=short)
        if not o.succeeded:  # on the shaft, just behind the head
            self._fail(towards(end, path[-2], short + self.r * 1.9))

    def _convoy_route(self, army: str, to: str, fleets: list[str]) -> list[str]:
        """The shortest chain of these fleets from the army to its destination (none if there is none)."""
        board = self.variant.board
        paths: dict[str, list[str]] = {f: [f] for f in fleets if f in board.neighbours(army)}
        queue = list(paths)
        while queue:
            here = queue.pop(0)
            if to in board.neighbours(here):
                return paths[here]
            for f in fleets:
                if f not in paths and f in board.neighbours(here):
                    paths[f] = paths[here] + [f]
                    queue.append(f)
        return []

    def _support_move(self, o: Outcome, colour: style.Rgb, moves: Mapping[str, Outcome]) -> None:
        order: SupportMove = o.order  # type: ignore[assignment]
        start = self._from(order.unit.location)
        supported = self._from(order.supported.location)
        target = self._target(order.to)
        end = along(supported, target, 0.62)
        line = (towards(start, end, self.r), end)
        self.shapes += [Line(line, style.INK, self.line + 2, dash=self.line * 2),
                        Line(line, colour, self.line, dash=self.line * 2),
                        Circle(end, self.line * 1.2, colour, style.INK, 1.0)]
        if not o.succeeded:
            self._fail(along(start, end, 0.5))

    def _support_hold(self, o: Outcome, colour: style.Rgb) -> None:
        order: SupportHold = o.order  # type: ignore[assignment]
        start = self._from(order.unit.location)
        held = self._from(order.supported.location)
        end = towards(held, start, self.r * 1.6)
        line = (towards(start, end, self.r), end)
        self.shapes += [Line(line, style.INK, self.line + 2, dash=self.line * 2),
                        Line(line, colour, self.line, dash=self.line * 2)]
        # a dashed ring, as the support's line is dashed: a solid ring is a dislodged unit's
        self.shapes += dashed_ring(held, self.r * 1.6, colour, self.line, outline=style.INK)
        if not o.succeeded:
            self._fail(along(start, end, 0.5))

    def _convoy(self, o: Outcome, moves: Mapping[str, Outcome]) -> None:
        order: Convoy = o.order  # type: ignore[assignment]
        at = self._from(order.unit.location)
        self.shapes += [Circle(at, self.r * 1.75, None, style.CONVOY, self.line * 0.8)]
        army_move = moves.get(order.army.location.province)
        if army_move is None or army_move.order.to.province != order.to.province:
            # the army was not ordered along this convoy: show what the fleet offered
            end = self._target(order.to)
            self.shapes.append(Line((towards(at, end, self.r * 1.75), end), style.CONVOY, self.line * 0.8,
                                    dash=self.line))
        if not o.succeeded:
            self._fail((at[0] + self.r * 1.2, at[1] - self.r * 1.2))

    def _retreat(self, o: Outcome, colour: style.Rgb) -> None:
        order: Retreat = o.order  # type: ignore[assignment]
        unit = next((d.unit for d in self.position.dislodged
                     if d.unit.location.province == order.unit.location.province), None)
        start = self.dislodged_point(unit, True) if unit else self.places.unit(order.unit)
        end = self._target(order.to)
        short = self._short(order.to, start)
        self.shapes += arrow(towards(start, end, self.r), end, colour, self.line, head=self.r * 1.3,
                             outline=style.INK, stop_short=short)
        if not o.succeeded:
            self._fail(towards(end, start, short + self.r * 1.9))

    def _disband(self, o: Outcome) -> None:
        loc = o.order.unit.location
        dislodged = next((d.unit for d in self.position.dislodged if d.unit.location.province == loc.province), None)
        at = self.dislodged_point(dislodged, True) if dislodged else self._from(loc)
        self.failures += cross(at, self.r * 0.9, style.FAILED, self.line)

    def _build(self, o: Outcome, colour: style.Rgb) -> None:
        order: Build = o.order  # type: ignore[assignment]
        unit = Unit(o.power, order.kind, order.location)
        at = self.places.unit(unit)
        self.shapes += [Circle(at, self.r * 1.7, None, style.INK, self.line + 2),
                        Circle(at, self.r * 1.7, None, BUILT, self.line)]
        self.shapes += unit_shapes(unit, at, colour, self.r)
        if not o.succeeded:
            self._fail(at)
