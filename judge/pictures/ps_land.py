"""A plane board's land and water from DPjudge's own `.ps` drawing: real coasts, not straight ones.

    python -m judge.pictures.ps_land path/to/ancmed.ps ancmed
    python -m judge.pictures.ps_land path/to/pure.ps pure --lanes IncludeRays
    python -m judge.pictures.build_cells ancmed

DPjudge's `.ps` boards (MIT, Manus Hand; see judge/variants/importer/DPJUDGE-LICENSE.md) paint the map
in a form: a background rectangle of land or sea, then `Include...` procedures, each filling the
closed outlines of an `Outline...` procedure (`x y m`, `x1 y1 x2 y2 x3 y3 c`, `x y l`, `fk`) in one
colour (SeaBlue, LandBrown, ...), at a scale of its own. Those fills, in order, give land and water.
Imperial's drawing is another form: one procedure of numbered outlines (`ContinentalOutline`, each
closed by `S`), filled with land, but for the numbers its `/Seas [...]` lists (lakes and inland seas),
filled with the sea's colour, over a sea background.
Pure's drawing is round islands (`x y r from to a`, arcs) joined to the middle by stroked rays:
`--lanes IncludeRays` draws those rays as narrow land, so every island's cell reaches the middle.
The outlines are moved as the places were spread (`ps_layout.spread`), by a thin-plate spline through
the places (`shifter`), so the coasts follow the provinces they bound and grow with them. The
result is stored as `judge/variants/<id>/land.png` (one bit a pixel, at the cells' width and frame);
the judge never reads a `.ps` file, and the cells are grown over this ground as over the land mask.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from ..engine import load_variant
from .atlas import CELLS_WIDTH, load_layout
from .projection import Frame
from .ps_layout import read_info

WATER_COLOURS = ("SeaBlue", "WaterBlue", "LakeBlue", "SeaColor")
LAND_COLOURS = ("LandBrown", "IceGrey", "MountainGrey")
SMOOTHING = 0.0      # the spline passes through every place exactly
CURVE_STEPS = 8      # straight pieces per Bézier curve
ARC_STEPS = 72       # straight pieces per circle
LANE_WIDTH = 12      # pixels at the cells' width: a lane wide enough to show its owner's colour

Outline = list[tuple[float, float]]


def _procedure(text: str, name: str) -> str:
    start = text.index(f"\n/{name} {{") + 1
    end = text.index("\n} bd", start)
    return text[start:end]


def _outlines(body: str, scale: float, least: int = 3) -> list[Outline]:
    """The closed outlines of an `Outline...` procedure, in the form's units (`least`: 2 for the
    open lines of a stroked procedure). `x y r from to a` is an arc (Pure's round islands)."""
    out: list[Outline] = []
    current: Outline = []
    numbers: list[float] = []
    for token in body.split()[2:]:
        if re.fullmatch(r"-?\d+(\.\d+)?", token):
            numbers.append(float(token))
            continue
        if token == "m":
            if len(current) >= least:
                out.append(current)
            current = [(numbers[-2], numbers[-1])]
        elif token == "l":
            current.append((numbers[-2], numbers[-1]))
        elif token == "c" and current:
            (x0, y0), (x1, y1, x2, y2, x3, y3) = current[-1], numbers[-6:]
            for t in np.linspace(0, 1, CURVE_STEPS + 1)[1:]:
                u = 1 - t
                current.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
        elif token == "a":
            cx, cy, radius, start, end = numbers[-5:]
            turns = np.radians(np.linspace(start, end if end > start else end + 360, ARC_STEPS + 1))
            current += list(zip(cx + radius * np.cos(turns), cy + radius * np.sin(turns), strict=True))
        elif token in ("fk", "p") and len(current) >= least:
            out.append(current)
            current = []
        numbers = []
    if len(current) >= least:
        out.append(current)
    return [[(x * scale, y * scale) for x, y in o] for o in out]


def fills(text: str) -> tuple[bool, list[tuple[bool, Outline]]]:
    """(is the background water, [(is water, outline)] in the order painted)."""
    start = text.index("/PaintProc {")   # the map form's (Imperial defines pdfmark's execform before it)
    form = text[start:text.index(">> def", start)]
    background = re.search(r"(\w+) (?:[-\d. ]+ rectfill|clippath fill)", form)[1]
    painted = []
    for include in re.findall(r"\b(Include\w+)\b", form):
        body = _procedure(text, include)
        filled = re.search(r"/fk \{\s*p\s*s (\w+) f r", body)
        if filled is None or filled[1] not in WATER_COLOURS + LAND_COLOURS:   # borders, rivers, arrows, boxes
            continue
        scaled = re.search(r"([\d.]+) [\d.]+ x", body)
        scale = float(scaled[1]) if scaled else 1.0
        for name in re.findall(r"\b((?:Outline|Shape)\w+)\b", body):   # (Pure names its outlines Shape...)
            painted += [(filled[1] in WATER_COLOURS, o) for o in _outlines(_procedure(text, name), scale)]
    if not painted and (numbered := re.search(r"/Seas \[([\d ]*)\] def", form)):
        painted = _numbered(text, form, {int(n) for n in numbered[1].split()})
    return background in WATER_COLOURS, painted


def _numbered(text: str, form: str, seas: set[int]) -> list[tuple[bool, Outline]]:
    """Imperial's form: the outlines of the first `...Outline` procedure the form calls after its
    `/Seas` list, numbered from 0 by the `S` closing each; those numbered in `seas` are water."""
    name = re.search(r"\b(\w+Outline)\b", form[form.index("/Seas ["):])[1]
    objects = re.split(r"\bS\b", _procedure(text, name).partition("{")[2])
    # _outlines skips a procedure's first two words (its name and brace): each object is given them
    return [(number in seas, o) for number, body in enumerate(objects) for o in _outlines(f"/{name} {{ {body}", 1.0)]


def lanes(text: str, names: list[str]) -> list[Outline]:
    """The lines a stroked `Include...` procedure draws (Pure's dashed rays joining its islands to the
    middle), each as an open line in the form's units."""
    out = []
    for include in names:
        for name in re.findall(r"\b(Shape\w+|Outline\w+)\b", _procedure(text, include)):
            out += _outlines(_procedure(text, name), 1.0, least=2)
    return out


def shifter(original: dict[str, tuple[float, float]], spread: dict[str, tuple[float, float]]):
    """points (n, 2) in the drawing's units -> the same points moved as the places were: a thin-plate
    spline through the places (each place moved exactly to where it was spread, the space between
    them bent smoothly). A mean of the nearest places' shifts (the first way) undid the spreading
    where places are dense: a coast between places pushed apart moved by their average, so
    Youngstown's Britain and Japan stayed as small as drawn while their provinces' places grew apart,
    and their cells became slivers too thin for a name."""
    names = sorted(original)
    was = np.array([original[n] for n in names], dtype=np.float64)
    now = np.array([spread[n] for n in names], dtype=np.float64)
    low, size = was.min(axis=0), float(np.ptp(was, axis=0).max()) or 1.0
    anchors = (was - low) / size

    def kernel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r2 = (a[:, None, 0] - b[None, :, 0]) ** 2 + (a[:, None, 1] - b[None, :, 1]) ** 2
        return np.where(r2 > 0, 0.5 * r2 * np.log(np.maximum(r2, 1e-300)), 0.0)

    n = len(names)
    affine = np.hstack([np.ones((n, 1)), anchors])
    system = np.zeros((n + 3, n + 3))
    system[:n, :n] = kernel(anchors, anchors) + SMOOTHING * np.eye(n)
    system[:n, n:], system[n:, :n] = affine, affine.T
    weights = np.linalg.solve(system, np.vstack([now - was, np.zeros((3, 2))]))

    def move(points: np.ndarray) -> np.ndarray:
        out = np.empty_like(points, dtype=np.float64)
        for start in range(0, len(points), 4096):      # bounded memory for long outlines
            at = (points[start:start + 4096] - low) / size
            basis = np.hstack([kernel(at, anchors), np.ones((len(at), 1)), at])
            out[start:start + 4096] = points[start:start + 4096] + basis @ weights
        return out

    return move


def land_mask(variant_id: str, ps_text: str, lanes_from: list[str] | None = None) -> np.ndarray:
    """`lanes_from`: stroked procedures whose lines become land lanes, drawn over everything else
    (Pure: its rays, so that every island's cell reaches the middle where all of them meet)."""
    variant = load_variant(variant_id)
    layout = load_layout(variant_id)
    frame = Frame.from_layout(layout)
    rows = read_info(ps_text)
    original = {a: (x, y) for x, y, a, _ in rows if "/" not in a}
    spread = {}
    for abbreviation in original:   # the layout's id for DPjudge's abbreviation (as ps_layout names them)
        from .ps_layout import province_of
        name = next(n for _, _, a, n in rows if a == abbreviation)
        pid = province_of(variant, abbreviation, re.sub(r"\s*\(.*\)$", "", name))
        spread[abbreviation] = (layout["positions"][pid]["x"], layout["positions"][pid]["y"])
    move = shifter(original, spread)
    height = frame.height_for(CELLS_WIDTH)
    water_first, painted = fills(ps_text)
    image = Image.new("1", (CELLS_WIDTH, height), 0 if water_first else 1)
    draw = ImageDraw.Draw(image)
    for is_water, outline in painted:
        moved = move(np.array(outline))
        pixels = [frame.to_pixel(y, x, CELLS_WIDTH) for x, y in moved]
        draw.polygon(pixels, fill=0 if is_water else 1)
    for line in lanes(ps_text, lanes_from or []):
        draw.line([frame.to_pixel(y, x, CELLS_WIDTH) for x, y in move(np.array(line))], fill=1, width=LANE_WIDTH)
    return np.array(image, dtype=bool)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ps", type=Path)
    parser.add_argument("variant")
    parser.add_argument("--lanes", action="append", default=[], metavar="IncludeNAME",
                        help="a stroked procedure whose lines are drawn as land lanes (Pure's IncludeRays)")
    args = parser.parse_args(argv)
    land = land_mask(args.variant, args.ps.read_text(encoding="latin-1"), args.lanes)
    out = Path(__file__).resolve().parent.parent / "variants" / args.variant / "land.png"
    Image.fromarray(land).save(out, optimize=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
