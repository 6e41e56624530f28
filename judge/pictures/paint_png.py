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
    # zlib's default level: optimize=True (level 9 and a second pass) costs 70 ms for 10 % fewer bytes
    _indexed(scene, image).save(out, format="PNG")
    return out.getvalue()


def _indexed(scene: Scene, image: Image.Image) -> Image.Image:
    """The picture with a palette of at most 256 colours, each pixel its nearest. Only the pixels the
    shapes changed (and the legend) are counted: the rest are the background's own colours, named."""
    top = scene.map_height
    keys = _keys(image)
    changed = np.ones(keys.shape, dtype=bool)
    changed[:top] = keys[:top] != _keys(Image.fromarray(scene.background, "RGB"))
    uniq, counts = np.unique(keys[changed], return_counts=True)
    named = {_key(c) for c in scene.ground_colours} if scene.ground_colours else set(
        np.unique(_keys(Image.fromarray(scene.background, "RGB"))).tolist())
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
    # each colour in the picture to its nearest palette entry, by a lookup table over all 2^24
    # colours (np.empty maps only the pages the picture's colours touch): the palette's own colours
    # to themselves, the others (names past the 256th, letters' edges) by distance
    lookup = np.empty(1 << 24, dtype=np.uint8)
    others = np.setdiff1d(np.union1d(uniq, np.array(sorted(named), dtype=np.int64)), table)
    rgb_table = _rgb(table)
    if len(others):  # squared distances as |a|^2 - 2ab + |b|^2: one small matrix product
        rgb_others = _rgb(others)
        distance = (rgb_others ** 2).sum(axis=1)[:, None] - 2 * rgb_others @ rgb_table.T \
            + (rgb_table ** 2).sum(axis=1)[None, :]
        lookup[others] = distance.argmin(axis=1)
    lookup[table] = np.arange(len(table), dtype=np.uint8)
    indexed = Image.fromarray(np.take(lookup, keys), "P")
    indexed.putpalette(rgb_table.astype(np.uint8).ravel().tobytes())
    return indexed


def ground_png(scene: Scene) -> Image.Image:
    """The map under the shapes with a palette of its own colours (exact), for the SVG's raster."""
    image = Image.fromarray(scene.background, "RGB")
    colours = sorted(_key(c) for c in scene.ground_colours)
    if not colours or len(colours) > 256:
        return image.quantize(colors=64, dither=Image.Dither.NONE)
    table = np.array(colours, dtype=np.int64)
    lookup = np.empty(1 << 24, dtype=np.uint8)
    lookup[table] = np.arange(len(table), dtype=np.uint8)
    indexed = Image.fromarray(np.take(lookup, _keys(image)), "P")
    indexed.putpalette(_rgb(table).astype(np.uint8).ravel().tobytes())
    return indexed


def _keys(image: Image.Image) -> np.ndarray:
    """Each pixel of an RGB image as one 24-bit integer (see `_key`)."""
    packed = np.frombuffer(image.tobytes("raw", "RGBX"), dtype=np.uint32).reshape(image.height, image.width)
    return packed & 0xFFFFFF if np.little_endian else _swap(packed)


def _swap(packed: np.ndarray) -> np.ndarray:
    return packed.byteswap() >> 8


def _key(colour) -> int:
    r, g, b = colour
    return int(r) | (int(g) << 8) | (int(b) << 16)


def _rgb(keys: np.ndarray) -> np.ndarray:
    """(n, 3) float64 red, green, blue of 24-bit keys (floats: exact, and matrix products are fast)."""
    keys = keys.astype(np.int64)
    return np.stack([keys & 255, (keys >> 8) & 255, keys >> 16], axis=1).astype(np.float64)
