"""A scene as a PNG, with Pillow. The result is reduced to a palette of 256 colours: every colour the
scene names (so a power's colour stays exactly its colour), then the commonest of the rest (the
edges of letters). The picture is flat colours and small text, so this halves the bytes unseen."""
from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
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
    _indexed(scene, image).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _indexed(scene: Scene, image: Image.Image) -> Image.Image:
    pixels = np.asarray(image, dtype=np.uint32)
    keys = (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
    uniq, inverse, counts = np.unique(keys.ravel(), return_inverse=True, return_counts=True)
    ground = scene.background.astype(np.uint32)
    named = {int(k) for k in np.unique((ground[..., 0] << 16) | (ground[..., 1] << 8) | ground[..., 2])}
    named.add(_key(scene.paper))
    for shape in scene.shapes:
        for attr in ("fill", "outline", "colour", "halo"):
            colour = getattr(shape, attr, None)
            if colour is not None:
                named.add(_key(colour))
    palette = sorted(named)[:256]
    for i in np.argsort(-counts, kind="stable"):
        if len(palette) >= 256:
            break
        if int(uniq[i]) not in named:
            palette.append(int(uniq[i]))
    table = np.array(palette, dtype=np.int64)
    rgb_table = np.stack([table >> 16, (table >> 8) & 255, table & 255], axis=1)
    rgb_uniq = np.stack([uniq >> 16, (uniq >> 8) & 255, uniq & 255], axis=1).astype(np.int64)
    nearest = np.empty(len(uniq), dtype=np.uint8)
    for start in range(0, len(uniq), 4096):  # each distinct colour to its nearest palette entry
        chunk = rgb_uniq[start:start + 4096]
        distance = ((chunk[:, None, :] - rgb_table[None, :, :]) ** 2).sum(axis=2)
        nearest[start:start + 4096] = distance.argmin(axis=1)
    indexed = Image.fromarray(nearest[inverse].reshape(keys.shape), "P")
    indexed.putpalette(rgb_table.astype(np.uint8).ravel().tolist())
    return indexed


def _key(colour) -> int:
    r, g, b = colour
    return (int(r) << 16) | (int(g) << 8) | int(b)
