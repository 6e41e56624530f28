"""Colours and sizes of the pictures, in one place. Sizes are pixels at 1200 px wide."""
from __future__ import annotations

Rgb = tuple[int, int, int]

SEA = (170, 203, 232)
OPEN_WATER = (182, 211, 236)     # water no sea province holds: lakes, the far ocean
LAND = (236, 226, 196)
UNPLAYABLE = (210, 210, 204)     # land off the board (Ireland on the standard map, the map's edges): cool grey
IMPASSABLE = (178, 178, 172)     # a province no unit may enter (Switzerland)
FROZEN = (236, 246, 252)
FOG_LAND = (164, 160, 152)       # fog of war: land the reader's powers do not see
FOG_SEA = (150, 160, 172)        # ... and sea
FROZEN_HATCH = (140, 186, 214)
IMPASSABLE_HATCH = (120, 118, 112)
LAND_BORDER = (108, 88, 66)
COAST = (62, 98, 136)
SEA_BORDER = (92, 134, 178)
INK = (24, 24, 24)
PAPER = (250, 248, 242)
FAILED = (204, 0, 0)
DISLODGED = (204, 0, 0)
RETREAT = (226, 110, 0)
SUPPORT = (40, 40, 40)
CONVOY = (20, 70, 160)

UNIT_RADIUS = 9.0
SC_RADIUS = 4.5
LABEL_SIZE = 11.0
LINE = 3.0
LEGEND_HEIGHT = 112.0

FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def hex_rgb(text: str) -> Rgb:
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def hex_of(rgb: Rgb) -> str:
    return "#%02x%02x%02x" % rgb


def luminance(rgb: Rgb) -> float:
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(rgb: Rgb) -> Rgb:
    """Black or white, whichever reads better on this fill."""
    return INK if luminance(rgb) > 0.45 else (255, 255, 255)


def mix(a: Rgb, b: Rgb, share_b: float) -> Rgb:
    return tuple(round(x * (1 - share_b) + y * share_b) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def territory_tint(power_colour: Rgb) -> Rgb:
    """The fill of a centre a power owns: its colour washed into the land; a near-white power gets white."""
    if luminance(power_colour) > 0.85:
        return (255, 255, 255)
    return mix(LAND, power_colour, 0.42)

# Names keep a thin outline of these so borders and arrows do not cut through them.
LAND_HALO = (250, 246, 234)
SEA_HALO = (206, 224, 242)
