"""A scene as a PNG, with Pillow. The result is reduced to a palette of at most 128 colours: the
picture is flat colours and small text, so this loses nothing a reader sees and halves the bytes."""
from __future__ import annotations

import io
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from . import style
from .scene import Circle, Line, Polygon, Scene, Text


def load_font(size: float, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    files = style.FONT_FILES if bold else style.FONT_FILES[1:]
    for name in files:
        if Path(name).is_file():
            return ImageFont.truetype(name, max(6, round(size)))
    return ImageFont.load_default(size=max(6, round(size)))


def _dashed(points, dash: float):
    """Split a polyline into the pieces of a dashed line."""
    pieces = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length:
            a = t / length
            b = min(t + dash, length) / length
            pieces.append(((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)))
            t += 2 * dash
    return pieces


def paint_png(scene: Scene) -> bytes:
    image = Image.new("RGB", (scene.width, scene.height), scene.paper)
    image.paste(Image.fromarray(scene.background, "RGB"), (0, 0))
    draw = ImageDraw.Draw(image)
    fonts: dict[tuple[int, bool], ImageFont.FreeTypeFont] = {}
    for shape in scene.shapes:
        if isinstance(shape, Circle):
            (x, y), r = shape.centre, shape.radius
            draw.ellipse((x - r, y - r, x + r, y + r), fill=shape.fill, outline=shape.outline,
                         width=max(1, round(shape.width)))
        elif isinstance(shape, Polygon):
            draw.polygon(list(shape.points), fill=shape.fill, outline=shape.outline, width=max(1, round(shape.width)))
        elif isinstance(shape, Line):
            width = max(1, round(shape.width))
            if shape.dash:
                for piece in _dashed(shape.points, shape.dash):
                    draw.line(piece, fill=shape.colour, width=width)
            else:
                draw.line(list(shape.points), fill=shape.colour, width=width, joint="curve")
        elif isinstance(shape, Text):
            key = (max(6, round(shape.size)), shape.bold)
            if key not in fonts:
                fonts[key] = load_font(*key)
            draw.text(shape.at, shape.text, fill=shape.fill, font=fonts[key], anchor=shape.anchor,
                      stroke_width=1 if shape.halo else 0, stroke_fill=shape.halo)
    out = io.BytesIO()
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, format="PNG", optimize=True)
    return out.getvalue()
