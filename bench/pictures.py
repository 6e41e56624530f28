"""Board pictures: time per picture (median and p95 of repeated renders) and the PNG's size.

Goals: legible at 1200 px and under 200 KB (issue 7; Imperial's 356 provinces at its own 2000 px); at
most 120 ms per 1200 px PNG (issue 15: the ratio to that budget is printed; the first picture of an
atlas also works out what every later one shares, so it is timed apart). Measures, per variant: loading the atlas from
its precomputed cells file, against growing the cells afresh from the land mask (what a variant
without a cells file costs; run with --grow, it takes a minute); rendering the opening position;
rendering a phase with orders (PNG and SVG). Run: .venv/bin/python bench/pictures.py [--grow] [VARIANT ...]
(the drawn boards: bench/pictures.py youngstown pure ancmed modern loeb9)
"""
from __future__ import annotations

import statistics
import sys
import time
from functools import partial

from judge.engine import FIFTH, load_variant, process_phase, starting_position
from judge.engine.calendar import PhaseKind
from judge.order_reading import read_order_lines
from judge.pictures import load_atlas, render_png, render_svg
from judge.pictures.atlas import grow_from_mask, load_layout
from judge.pictures.projection import Frame
from judge.sample_cli import SAMPLE


def timed(fn, rounds: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return times, result


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


BUDGET_MS = 120.0


def report(name: str, times: list[float], size: int | None = None, budget: bool = False) -> None:
    extra = f"  {size / 1024:6.1f} KB" if size is not None else ""
    if budget:
        extra += f"  {statistics.median(times) / BUDGET_MS:.2f} of the 120 ms budget"
    print(f"{name:<44} median {statistics.median(times):7.1f} ms  p95 {p95(times):7.1f} ms{extra}")


def main(argv: list[str]) -> None:
    # imperial: the largest board (16-bit cells); variants named on the command line instead of these
    for variant_id in [a for a in argv if not a.startswith("--")] or ("standard", "abstraction2", "imperial"):
        variant = load_variant(variant_id)
        load_times, atlas = timed(partial(load_atlas, variant), 5)
        report(f"{variant_id}: load atlas (cells file)", load_times)
        if "--grow" in argv:
            layout = load_layout(variant_id)
            times, _ = timed(lambda v=variant, lay=layout: grow_from_mask(v, lay, Frame.from_layout(lay)), 1)
            report(f"{variant_id}: grow cells from the land mask", times)
            print(f"{'':<44} ratio grow/load {statistics.median(times) / statistics.median(load_times):.0f}")
        position = starting_position(variant)
        times, _ = timed(partial(render_png, variant, position, atlas=atlas), 1)
        report(f"{variant_id}: first picture of a fresh atlas", times)
        times, png = timed(partial(render_png, variant, position, atlas=atlas), 15)
        # at the board's own width (Imperial's world: wider, layout.json's `picture`)
        report(f"{variant_id}: opening, PNG {atlas.picture_width} px", times, len(png), budget=True)
        if variant_id == "standard":
            orders = {p: read_order_lines(variant, PhaseKind.MOVEMENT, lines)[0] for p, lines in SAMPLE[0].items()}
            result = process_phase(variant, position, orders, FIFTH).result
            times, png = timed(partial(render_png, variant, position, result, atlas=atlas), 15)
            report(f"{variant_id}: S1901M with orders, PNG 1200 px", times, len(png), budget=True)
            times, svg = timed(partial(render_svg, variant, position, result, atlas=atlas), 9)
            report(f"{variant_id}: S1901M with orders, SVG", times, len(svg.encode()))
            times, png = timed(partial(render_png, variant, position, result, atlas=atlas, width=2400), 5)
            report(f"{variant_id}: S1901M with orders, PNG 2400 px", times, len(png))


if __name__ == "__main__":
    main(sys.argv[1:])
