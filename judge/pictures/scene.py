"""What a picture is made of: a background raster and simple shapes on it, drawn by two painters
(`paint_png` with Pillow, `paint_svg` as SVG text) so both formats show the same thing."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .style import Rgb

Point = tuple[float, float]


@dataclass(frozen=True)
class Circle:
    centre: Point
    radius: float
    fill: Rgb | None
    outline: Rgb | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: Rgb | None
    outline: Rgb | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    colour: Rgb
    width: float
    dash: float = 0.0  # length of dashes and gaps; 0 is a solid line


@dataclass(frozen=True)
class Text:
    at: Point
    text: str
    size: float
    fill: Rgb
    halo: Rgb | None = None  # an outline of this colour keeps text readable on any fill
    anchor: str = "mm"       # Pillow's anchors: l/m/r then t/m/b... only "lm", "mm" and "rm" are used
    bold: bool = True


Shape = Circle | Polygon | Line | Text


@dataclass
class Scene:
    width: int
    height: int
    map_height: int
    # (map_height, width, 3) uint8: the map; the legend is below it. None: colours[classes] of
    # `ground_classes`, made when first asked (`map_pixels`): the SVG's raster asks, the PNG painter never does
    background: np.ndarray | None
    paper: Rgb
    shapes: list[Shape] = field(default_factory=list)
    ground_colours: frozenset[Rgb] = frozenset()  # every colour in `background` (when known)
    # (classes, colours): `background` is colours[classes], each pixel's class (when known)
    ground_classes: tuple[np.ndarray, np.ndarray] | None = None
    board: int = 0      # the first `board` shapes are the board's own (passages, centres, names): see paint_png

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)

    def map_pixels(self) -> np.ndarray:
        """`background`, made from `ground_classes` if it was not given."""
        if self.background is None:
            if self.ground_classes is None:
                raise ValueError("a scene needs its background or its ground classes")
            classes, colours = self.ground_classes
            self.background = np.take(colours, classes, axis=0)
        return self.background


def arrow(start: Point, end: Point, colour: Rgb, width: float, *, dash: float = 0.0,
          head: float = 10.0, outline: Rgb | None = None, stop_short: float = 0.0) -> list[Shape]:
    """A line with a triangular head at `end`, `stop_short` pixels before it."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return []
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * stop_short, y1 - uy * stop_short)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    half = head * 0.55
    wing1 = (base[0] - uy * half, base[1] + ux * half)
    wing2 = (base[0] + uy * half, base[1] - ux * half)
    out: list[Shape] = []
    if outline is not None:
        out.append(Line((start, base), outline, width + 2.5, dash))
    out.append(Line((start, base), colour, width, dash))
    out.append(Polygon((tip, wing1, wing2), colour, outline or colour, 1.0))
    return out


def cross(centre: Point, size: float, colour: Rgb, width: float) -> list[Shape]:
    x, y = centre
    return [Line(((x - size, y - size), (x + size, y + size)), (255, 255, 255), width + 2.5),
            Line(((x - size, y + size), (x + size, y - size)), (255, 255, 255), width + 2.5),
            Line(((x - size, y - size), (x + size, y + size)), colour, width),
            Line(((x - size, y + size), (x + size, y - size)), colour, width)]


def dashed_ring(centre: Point, radius: float, colour: Rgb, width: float, *, outline: Rgb | None = None,
                dashes: int = 8) -> list[Shape]:
    """A ring of `dashes` arcs with gaps as long between them: a support's dashes bent round a unit,
    which no solid ring (a dislodged unit's) can be taken for, whatever the colours."""
    x, y = centre
    arcs = []
    for i in range(dashes):
        start = 2 * math.pi * i / dashes
        steps = [start + math.pi / dashes * k / 4 for k in range(5)]   # half the step drawn, half left open
        arcs.append(tuple((x + radius * math.cos(a), y + radius * math.sin(a)) for a in steps))
    out: list[Shape] = [Line(arc, outline, width + 2) for arc in arcs] if outline is not None else []
    return out + [Line(arc, colour, width) for arc in arcs]


def along(start: Point, end: Point, share: float) -> Point:
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def towards(start: Point, end: Point, distance: float) -> Point:
    length = math.hypot(end[0] - start[0], end[1] - start[1]) or 1.0
    return along(start, end, min(distance / length, 1.0))
