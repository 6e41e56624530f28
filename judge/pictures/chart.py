"""The end-of-game chart: each power's supply centres, year by year, as a PNG line chart."""
from __future__ import annotations

import io
from collections.abc import Mapping

from PIL import Image, ImageDraw

from ..engine.variant import Variant
from . import style
from .atlas import power_colours
from .paint_png import load_font


def centre_chart_png(variant: Variant, counts_by_year: Mapping[int, Mapping[str, int]], *,
                     width: int = 900, height: int = 520) -> bytes:
    """counts_by_year: year -> power -> centres held at the end of that year."""
    if not counts_by_year:
        raise ValueError("the chart needs the centre counts of at least one year")
    years = sorted(counts_by_year)
    colours = power_colours(variant)
    top = max([variant.victory_centres] + [n for c in counts_by_year.values() for n in c.values()]) + 2
    k = width / 900
    left, right, upper, lower = 52 * k, 150 * k, 44 * k, 46 * k
    plot_w, plot_h = width - left - right, height - upper - lower
    image = Image.new("RGB", (width, height), style.PAPER)
    draw = ImageDraw.Draw(image)
    font, small = load_font(15 * k), load_font(11 * k, bold=False)

    def at(i: int, n: float) -> tuple[float, float]:
        x = left + (plot_w * i / (len(years) - 1) if len(years) > 1 else plot_w / 2)
        return x, upper + plot_h * (1 - n / top)

    draw.text((left, 14 * k), f"{variant.name}: supply centres by year", fill=style.INK, font=font, anchor="lm")
    step = 2 if top <= 24 else 5
    for n in range(0, top + 1, step):
        y = at(0, n)[1]
        draw.line((left, y, left + plot_w, y), fill=(225, 220, 208), width=1)
        draw.text((left - 8 * k, y), str(n), fill=style.INK, font=small, anchor="rm")
    goal = at(0, variant.victory_centres)[1]
    draw.line((left, goal, left + plot_w, goal), fill=style.FAILED, width=max(1, round(k)))
    draw.text((left + plot_w - 4 * k, goal - 9 * k), f"{variant.victory_centres} to win", fill=style.FAILED,
              font=small, anchor="rm")
    every = max(1, round(len(years) / 12))
    for i, year in enumerate(years):
        x = at(i, 0)[0]
        draw.line((x, upper + plot_h, x, upper + plot_h + 5 * k), fill=style.INK, width=1)
        if i % every == 0 or i == len(years) - 1:
            draw.text((x, upper + plot_h + 16 * k), variant.calendar.year_name(year), fill=style.INK, font=small,
                      anchor="mm")
    draw.rectangle((left, upper, left + plot_w, upper + plot_h), outline=style.INK, width=1)

    final = {p.id: counts_by_year[years[-1]].get(p.id, 0) for p in variant.powers}
    ranked = sorted(variant.powers, key=lambda p: -final[p.id])
    for rank, power in enumerate(ranked):
        colour = colours[power.id]
        # powers with equal counts would hide each other: each line sits a little apart
        shift = (rank - (len(ranked) - 1) / 2) * 2.5 * k
        points = [(x, y + shift) for x, y in (at(i, counts_by_year[yr].get(power.id, 0)) for i, yr in enumerate(years))]
        line = max(2, round(3 * k))
        if len(points) > 1:
            draw.line(points, fill=style.INK, width=line + 2, joint="curve")
            draw.line(points, fill=colour, width=line, joint="curve")
        for x, y in points:
            r = 3.5 * k
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=style.INK)
        ky = upper + 10 * k + rank * 22 * k
        kx = left + plot_w + 16 * k
        draw.rectangle((kx, ky - 6 * k, kx + 14 * k, ky + 6 * k), fill=colour, outline=style.INK)
        draw.text((kx + 20 * k, ky), f"{power.name} {final[power.id]}", fill=style.INK, font=small, anchor="lm")
    out = io.BytesIO()
    image.quantize(colors=64, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()
