"""A plane board's land and water from DPjudge's own `.ps` drawing: real coasts, not straight ones.

    python -m judge.pictures.ps_land path/to/ancmed.ps ancmed
    python -m judge.pictures.build_cells ancmed

DPjudge's `.ps` boards (MIT, Manus Hand; see judge/variants/importer/DPJUDGE-LICENSE.md) paint the map
in a form: a background rectangle of land or sea, then `Include...` procedures, each filling the
closed outlines of an `Outline...` procedure (`x y m`, `x1 y1 x2 y2 x3 y3 c`, `x y l`, `fk`) in one
colour (SeaBlue, LandBrown, ...), at a scale of its own. Those fills, in order, give land and water.
Imperial's drawing is another form: one procedure of numbered outlines (`ContinentalOutline`, each
closed by `S`), filled with land, but for the numbers its `/Seas [...]` lists (lakes and inland seas),
filled with the sea's colour, over a sea background.
The outlines are moved as the places were spread (`ps_layout.spread`): each point by the mean shift
of the places nearest it, weighted by nearness, so the coasts follow the provinces they bound. The
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
NEAREST = 6          # places whose shift moves an outline's point
CURVE_STEPS = 8      # straight pieces per Bézier curve

Outline = list[tuple[float, float]]


def _procedure(text: str, name: str) -> str:
    start = text.index(f"\n/{name} {{") + 1
    end = text.index("\n} bd", start)
    return text[start:end]


def _outlines(body: str, scale: float) -> list[Outline]:
    """The closed outlines of an `Outline...` procedure, in the form's units."""
    out: list[Outline] = []
    current: Outline = []
    numbers: list[float] = []
    for token in body.split()[2:]:
        if re.fullmatch(r"-?\d+(\.\d+)?", token):
            numbers.append(float(token))
            continue
        if token == "m":
            if len(current) > 2:
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
        elif token in ("fk", "p") and len(current) > 2:
            out.append(current)
            current = []
        numbers = []
    if len(current) > 2:
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
        for name in re.findall(r"\b(Outline\w+)\b", body):
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


def shifter(original: dict[str, tuple[float, float]], spread: dict[str, tuple[float, float]]):
    """points (n, 2) in the drawing's units -> the same points moved as the places near them were."""
    names = sorted(original)
    was = np.array([original[n] for n in names])
    shift = np.array([spread[n] for n in names]) - was

    def move(points: np.ndarray) -> np.ndarray:
        d = np.hypot(points[:, None, 0] - was[None, :, 0], points[:, None, 1] - was[None, :, 1])
        near = np.argsort(d, axis=1)[:, :NEAREST]
        weight = 1 / (np.take_along_axis(d, near, axis=1) ** 2 + 1.0)
        return points + (shift[near] * weight[..., None]).sum(axis=1) / weight.sum(axis=1)[:, None]

    return move


def land_mask(variant_id: str, ps_text: str) -> np.ndarray:
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
    return np.array(image, dtype=bool)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ps", type=Path)
    parser.add_argument("variant")
    args = parser.parse_args(argv)
    land = land_mask(args.variant, args.ps.read_text(encoding="latin-1"))
    out = Path(__file__).resolve().parent.parent / "variants" / args.variant / "land.png"
    Image.fromarray(land).save(out, optimize=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
