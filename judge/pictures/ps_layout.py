"""A plane layout.json from a DPjudge PostScript board: where DPjudge draws each province's unit.

    python -m judge.pictures.ps_layout path/to/ancmed.ps ancmed

DPjudge's `.ps` boards (MIT, Manus Hand; see judge/variants/importer/DPJUDGE-LICENSE.md) open with an
`% INFO` block: one line per province and per split coast, `%  x  y ABBR  Full name`, in PostScript
points with y up. Those places become the variant's `plane` layout (see judge.pictures.plane); the
judge never reads a `.ps` file itself. Run `python -m judge.pictures.build_cells VARIANT` afterwards.
A province the drawing places nowhere (Canton's impassable Nepal) is placed with
`--between nep=asm,cal,del,kas,tib`: at the middle of its neighbours' places. Impassable provinces
the `% INFO` block leaves out but its `% MAP` block places (`% # x y |abbr|---|Name|`: Imperial's
Himalayas, Sahara, lakes) are placed there. `--gap` sets how far apart places are spread, and
`--stretch` makes the drawing taller first (Imperial's wide world: room for 356 provinces). A
`"margin"` put in layout.json's projection by hand (room round the places, of the board's larger
side; else projection.MARGIN_SHARE) is kept when the layout is made again (Pure's round islands).

DPjudge draws some parts of a board much denser than others (Youngstown's Europe is a corner of
Asia), so the places are first spread (`spread`): pushed apart until no two provinces' places are
closer than MIN_GAP of the board's larger side, the board kept the same size, so crowded parts grow
at the expense of empty ones and every cell has room for a unit and its name.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from ..engine import load_variant
from ..engine.variant import Variant

MIN_GAP = 0.048   # of the board's larger side: about 55 px in a 1200 px picture
SPREAD_ROUNDS = 400

INFO_LINE = re.compile(r"%\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(\S+)\s+(.*)")
MAP_LINE = re.compile(r"%\s+#\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+\|(\w+)\|[^|]*\|([^|]+)\|")


def read_info(text: str) -> list[tuple[float, float, str, str]]:
    """The `% INFO` block's lines: (x, y, abbreviation, name)."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("% INFO"):
            inside = True
        elif line.startswith("% MAP") or (inside and not line.startswith("%")):
            break
        elif inside and (m := INFO_LINE.match(line)) and not m[3].startswith("("):
            # (a bracketed abbreviation, Classical's "(R) (RHODES)", places a label, not a province)
            rows.append((float(m[1]), float(m[2]), m[3].lower(), m[4].strip()))
    return rows


def read_map_places(text: str) -> list[tuple[float, float, str, str]]:
    """The `% MAP` block's places (x, y, abbreviation, name): where the drawing names a province that
    holds no unit (Imperial's impassable ones)."""
    return [(float(m[1]), float(m[2]), m[3].lower(), m[4].strip()) for m in MAP_LINE.finditer(text)]


def province_of(variant: Variant, abbreviation: str, name: str) -> str:
    """The variant's id for DPjudge's abbreviation: the same, else the province of that name (the
    importer renames an id that is an order word: Modern's Andorra `and` is `adl`)."""
    board = variant.board.provinces
    if abbreviation in board:
        return abbreviation
    by_name = [pid for pid, p in board.items() if p.name.lower() == name.lower() or abbreviation in p.aliases]
    if len(by_name) != 1:
        raise ValueError(f"{abbreviation} ({name}) is no province of {variant.id}")
    return by_name[0]


def spread(places: dict[str, tuple[float, float]], min_gap: float = MIN_GAP) -> dict[str, tuple[float, float]]:
    """The places pushed apart until no two are closer than `min_gap` of the larger side, rescaled
    each round to the board's first extent (so crowded parts take room from empty ones)."""
    import numpy as np

    names = list(places)
    xy = np.array([places[n] for n in names], dtype=np.float64)
    low, size = xy.min(axis=0), float(np.ptp(xy, axis=0).max()) or 1.0
    xy = (xy - low) / size
    extent = np.ptp(xy, axis=0)
    for _ in range(SPREAD_ROUNDS):
        gap = xy[:, None, :] - xy[None, :, :]
        dist = np.hypot(gap[..., 0], gap[..., 1])
        np.fill_diagonal(dist, np.inf)
        short = dist < min_gap
        if not short.any():
            break
        with np.errstate(invalid="ignore"):   # the diagonal's inf is never short
            push = np.where(short, (min_gap - dist) / 2 / np.maximum(dist, 1e-9), 0.0)
        xy += (gap * push[..., None]).sum(axis=1) * 0.5
        xy = (xy - xy.min(axis=0)) / np.maximum(np.ptp(xy, axis=0), 1e-9) * extent
    return {n: (float(x * size + low[0]), float(y * size + low[1])) for n, (x, y) in zip(names, xy, strict=True)}


def plane_layout(variant: Variant, ps_text: str, source: str,
                 between: Mapping[str, Sequence[str]] = MappingProxyType({}), min_gap: float = MIN_GAP,
                 stretch: float = 1.0) -> dict:
    """`between`: a province the drawing places no unit in (Canton's impassable Nepal) put at the
    middle of the places of the provinces named (its neighbours on DPjudge's map). `stretch`: the
    drawing made this much taller first (a wide board of many provinces gets room)."""
    rows = read_info(ps_text)
    placed = {province_of(variant, a.partition("/")[0], re.sub(r"\s*\(.*\)$", "", n)) for _, _, a, n in rows}
    for x, y, abbreviation, name in read_map_places(ps_text):   # only where the INFO block places nothing
        try:
            pid = province_of(variant, abbreviation, name)
        except ValueError:      # a second label of one province (Imperial's "Rocky Mountains 2")
            continue
        if pid not in placed:
            rows.append((x, y, pid, name))
            placed.add(pid)
    for pid, around in between.items():
        xys = [(x, y) for x, y, a, _ in rows if a in around]
        if len(xys) != len(around):
            raise ValueError(f"{source} places no unit in one of {', '.join(around)}")
        rows.append((sum(x for x, _ in xys) / len(xys), sum(y for _, y in xys) / len(xys), pid,
                     variant.board.provinces[pid].name))
    rows = [(x, y * stretch, abbreviation, name) for x, y, abbreviation, name in rows]
    mains = spread({abbreviation: (x, y) for x, y, abbreviation, _ in rows if "/" not in abbreviation}, min_gap)
    moved = []
    for x, y, abbreviation, name in rows:   # a coast moves with its province
        pid = abbreviation.partition("/")[0]
        ox, oy = next((px, py) for px, py, a, _ in rows if a == pid)
        nx, ny = mains[pid]
        moved.append((round(x - ox + nx, 1), round(y - oy + ny, 1), abbreviation, name))
    positions: dict[str, dict] = {}
    for x, y, abbreviation, name in moved:
        pid, _, coast = abbreviation.partition("/")
        pid = province_of(variant, pid, re.sub(r"\s*\(.*\)$", "", name))
        if coast:
            positions.setdefault(pid, {}).setdefault("coasts", {})[coast] = {"x": x, "y": y}
        else:
            positions.setdefault(pid, {}).update({"x": x, "y": y})
    missing = set(variant.board.provinces) - {p for p, e in positions.items() if "x" in e}
    if missing:
        raise ValueError(f"{source} places no unit in {', '.join(sorted(missing))}")
    return {
        "variant": variant.id,
        "about": f"A plane board: each province's place (and each split coast's) is where DPjudge's {source} "
                 "draws its unit, x and y in PostScript points, y up, spread so that crowded parts have room. "
                 "Made by python -m judge.pictures.ps_layout; the cells are grown from these places by "
                 "judge.pictures.plane. `colours` (optional, kept when made again): the picture's colours for "
                 "powers whose own would look like another's or like the sea. `seeds` (optional, kept when made "
                 "again): more points [y, x] a province's cell grows from, where its place alone leaves it too "
                 "small.",
        "projection": {"type": "plane", "source": f"DPjudge {source} (MIT, Manus Hand)"},
        "positions": dict(sorted(positions.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ps", type=Path)
    parser.add_argument("variant")
    parser.add_argument("--between", action="append", default=[], metavar="PROV=A,B,C",
                        help="place a province the drawing leaves out at the middle of these provinces' places")
    parser.add_argument("--gap", type=float, default=MIN_GAP,
                        help=f"how far apart places are spread, of the board's larger side (default {MIN_GAP})")
    parser.add_argument("--stretch", type=float, default=1.0,
                        help="make the drawing this much taller before spreading (room on a wide board)")
    args = parser.parse_args(argv)
    variant = load_variant(args.variant)
    between = {k.lower(): v.lower().split(",") for k, _, v in (b.partition("=") for b in args.between)}
    layout = plane_layout(variant, args.ps.read_text(encoding="latin-1"), args.ps.name, between, args.gap, args.stretch)
    out = Path(__file__).resolve().parent.parent / "variants" / variant.id / "layout.json"
    if out.is_file():   # chosen by hand, these stay: colours, seeds, picture size, room, a margin (Pure)
        before = json.loads(out.read_text(encoding="utf-8"))
        layout = {**layout, **{k: v for k, v in before.items() if k in ("colours", "picture", "room")}}
        for pid, entry in before["positions"].items():
            if "seeds" in entry and pid in layout["positions"]:
                layout["positions"][pid]["seeds"] = entry["seeds"]
        if "margin" in before["projection"]:
            layout["projection"]["margin"] = before["projection"]["margin"]
    lines = ",\n".join(f"  {json.dumps(pid)}: {json.dumps(entry)}" for pid, entry in layout["positions"].items())
    head = {k: v for k, v in layout.items() if k != "positions"}
    out.write_text(json.dumps(head, indent=1)[:-2] + ',\n "positions": {\n' + lines + "\n }\n}\n", encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
