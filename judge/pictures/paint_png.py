"""A scene as a PNG, drawn with Pillow. The result is reduced to a palette of 256 colours: every colour
the scene names (so a power's colour stays exactly its colour), then the commonest of the rest (the
edges of letters). The picture is flat colours and small text, so this halves the bytes unseen. The
board under the units and orders is drawn, reduced and packed once and kept (`_board`); each picture
looks up and packs (png_bands) only what its own shapes changed."""
from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import style
from .png_bands import png_bytes, touched_bands, unpacked
from .scene import Circle, Line, Polygon, Scene, Shape, Text


def load_font(size: float, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at this size (whole pixels), read once a process: the board's names asked for it anew
    for every picture, each time a file read and parsed (half of laying out a standard board's names)."""
    return _font(max(6, round(size)), bold)


@functools.cache     # a few sizes a board; shared by the painting threads, as the label masks' fonts were
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    files = style.FONT_FILES if bold else style.FONT_FILES[1:]
    for name in files:
        if Path(name).is_file():
            return ImageFont.truetype(name, size)
    return ImageFont.load_default(size=size)


def _dashed(points, dash: float):
    """Split a polyline into the pieces of a dashed line."""
    pieces = []
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):   # each point with the next: one fewer
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length:
            a = t / length
            b = min(t + dash, length) / length
            pieces.append(((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)))
            t += 2 * dash
    return pieces


# A label drawn once as masks (its halo, its letters) and pasted in its colours wherever it stands:
# FreeType drew the same ~200 labels anew for every picture, a third of its painting time. The key
# holds the fraction of a pixel the label starts at, which Pillow's drawing depends on, so a pasted
# label is the very pixels Pillow would draw (and a board's labels stand in the same place each time).
_TextKey = tuple[str, int, bool, bool, str, float, float]
_masks: dict[_TextKey, tuple[tuple[int, int], Image.Image | None, Image.Image]] = {}
_MASKS_KEPT = 20_000       # labels are few per variant; titles and moving labels differ: start again past this


def _text_masks(key: _TextKey) -> tuple[tuple[int, int], Image.Image | None, Image.Image]:
    """(where the mask's corner is from the label's whole-pixel point, halo mask or None, letters mask).
    Two couriers may paint at once: a lost race draws a label twice, nothing worse."""
    found = _masks.get(key)
    if found is not None:
        return found
    text, size, bold, halo, anchor, fx, fy = key
    font = load_font(size, bold)
    stroke = 1 if halo else 0
    left, top, right, bottom = font.getbbox(text, anchor=anchor, stroke_width=stroke)
    ox, oy = max(2, 2 - left), max(2, 2 - top)
    box = (ox + max(right, 0) + 2, oy + max(bottom, 0) + 2)
    letters = Image.new("L", box, 0)
    ImageDraw.Draw(letters).text((ox + fx, oy + fy), text, fill=255, font=font, anchor=anchor)
    outline = None
    if halo:
        outline = Image.new("L", box, 0)
        ImageDraw.Draw(outline).text((ox + fx, oy + fy), text, fill=255, font=font, anchor=anchor, stroke_width=1)
    if len(_masks) >= _MASKS_KEPT:
        _masks.clear()
    found = _masks[key] = ((-ox, -oy), outline, letters)
    return found


def _paste_text(image: Image.Image, shape: Text) -> None:
    x, y = shape.at
    (dx, dy), outline, letters = _text_masks((shape.text, max(6, round(shape.size)), shape.bold,
                                              shape.halo is not None, shape.anchor, x % 1, y % 1))
    at = (math.floor(x) + dx, math.floor(y) + dy)
    if outline is not None:
        image.paste(tuple(shape.halo), at, outline)
    image.paste(tuple(shape.fill), at, letters)


# The board layer (the map and the shapes that come with the board: passages, centres, names) drawn
# once and kept with its pixels' keys and palette entries, keyed by everything it is drawn from (the
# map's classes and their colours, the shapes themselves), so a picture of the same board (the same
# variant and ownership: a rush of games in one season) draws only its units and orders on a copy
# and looks up only the pixels they changed. Drawing is a function of the pixels and the board's
# shapes come first in every scene, so the RGB picture is the one drawn afresh.
_BoardKey = tuple[object, ...]


@dataclass(frozen=True)
class _Board:
    image: Image.Image       # RGB: the map, the board's shapes on it, the legend's paper (never drawn on)
    raw: np.ndarray          # its pixels as Pillow keeps them (`_raw`), read-only
    entries: np.ndarray      # each pixel's palette entry, read-only
    palette: tuple[int, ...]  # the keys of those entries: the board's named colours, then its commonest others
    packed: list[bytes | None]  # the entries packed band by band when first needed (png_bands): a picture
    #                             packs anew only those it touched


_boards: OrderedDict[_BoardKey, tuple[np.ndarray, _Board]] = OrderedDict()
_BOARDS_KEPT = 8        # about 13 MB each at 1200 pixels (Imperial's 2000: 30 MB)
_boards_lock = threading.Lock()
# Palette entries a board leaves to each picture's own colours: its units', orders' and legend's
# (named: about 20 on any board) and the edges of their letters
PICTURE_ENTRIES = 64


def _board(scene: Scene) -> _Board:
    """The scene's board, from the kept ones when it was drawn before."""
    if scene.ground_classes is None or not scene.board:
        return _made_board(scene)
    classes, colours = scene.ground_classes
    # `classes` is the atlas's, kept with the entry (so its id names it while the entry lives)
    key = (id(classes), colours.tobytes(), scene.width, scene.height, scene.paper, tuple(scene.shapes[:scene.board]))
    with _boards_lock:
        found = _boards.get(key)
        if found is not None and found[0] is classes:
            _boards.move_to_end(key)
            return found[1]
    board = _made_board(scene)
    with _boards_lock:
        _boards[key] = (classes, board)
        while len(_boards) > _BOARDS_KEPT:
            _boards.popitem(last=False)
    return board


def _made_board(scene: Scene) -> _Board:
    ground = _ground_keys(scene)
    image = Image.new("RGB", (scene.width, scene.height), scene.paper)
    image.paste(_image_of(ground), (0, 0))
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes[:scene.board]:
        _draw(image, draw, shape)
    raw = _raw(image)
    keys = _as_keys(raw)
    top, paper = scene.map_height, _key(scene.paper)
    changed = np.empty(keys.shape, dtype=bool)
    changed[:top] = keys[:top] != ground
    changed[top:] = keys[top:] != paper
    named = {_key(c) for c in scene.ground_colours} if scene.ground_colours else set(np.unique(ground).tolist())
    named |= _named(scene.shapes[:scene.board]) | {paper}
    palette = sorted(named)[:256]
    uniq, inverse, counts = _tally(keys[changed])
    _add_commonest(palette, uniq, counts, max(len(palette), 256 - PICTURE_ENTRIES))
    table = np.array(palette, dtype=np.int64)
    rgb_table = _rgb(table)
    entries = np.empty(keys.shape, dtype=np.uint8)
    entries[top:] = _nearest(np.array([paper]), table, rgb_table)[0]
    if scene.ground_classes is not None:     # each class's entry, then every pixel's by its class
        classes, colours = scene.ground_classes
        np.take(_nearest(_keys_of(colours), table, rgb_table), classes, out=entries[:top])
    else:
        colours, where = np.unique(ground, return_inverse=True)
        entries[:top] = _nearest(colours, table, rgb_table)[where.reshape(ground.shape)]
    entries[changed] = _nearest(uniq, table, rgb_table)[inverse]
    for kept in (raw, entries):
        kept.flags.writeable = False
    return _Board(image, raw, entries, tuple(palette), unpacked(scene.height))


def _named(shapes: Sequence[Shape]) -> set[int]:
    """The keys of every colour the shapes name (a few dozen colours among hundreds of shapes: each
    keyed once)."""
    colours: set[style.Rgb | None] = set()
    for shape in shapes:
        if isinstance(shape, Line):
            colours.add(shape.colour)
        elif isinstance(shape, Text):
            colours.update((shape.fill, shape.halo))
        else:
            colours.update((shape.fill, shape.outline))
    return {_key(c) for c in colours if c is not None}


def _tally(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each value once (sorted), where each of `values` is among them, and how often each occurs: numpy's
    unique with its inverse and counts, a quarter faster on a picture's ~30,000 changed pixels of a
    few hundred colours (it sorts them all; this sorts the few hundred and searches)."""
    uniq = np.unique(values)
    where = np.searchsorted(uniq, values)
    return uniq, where, np.bincount(where, minlength=len(uniq))


def _add_commonest(palette: list[int], uniq: np.ndarray, counts: np.ndarray, up_to: int) -> None:
    """`palette` grown to `up_to` entries with the commonest of `uniq` it lacks."""
    have = set(palette)
    for i in np.argsort(-counts, kind="stable"):
        if len(palette) >= up_to:
            break
        if int(uniq[i]) not in have:
            palette.append(int(uniq[i]))


def _draw(image: Image.Image, draw: ImageDraw.ImageDraw, shape: Shape) -> None:
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
        _paste_text(image, shape)


def paint_png(scene: Scene) -> bytes:
    board = _board(scene)
    image = board.image.copy()
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes[scene.board:]:
        _draw(image, draw, shape)
    entries, palette, changed = _indexed(scene, board, image)
    return png_bytes(entries, palette, board.packed, touched_bands(changed, scene.width))


def _indexed(scene: Scene, board: _Board, image: Image.Image) -> tuple[np.ndarray, bytes, np.ndarray]:
    """The picture's palette entries, the palette (red, green, blue of each entry) and the flat
    indices of the pixels the picture's own shapes changed. The palette is at most 256 colours: the
    board's, then every colour those shapes name, then the commonest others of the pixels they
    changed. Only those pixels are looked up (each its nearest entry); every other keeps the board's."""
    raw = _raw(image)
    changed = np.flatnonzero(raw != board.raw)
    uniq, inverse, counts = _tally(_as_keys(raw.ravel()[changed]))
    palette = list(board.palette)
    palette += sorted(_named(scene.shapes[scene.board:]) - set(palette))[:256 - len(palette)]
    _add_commonest(palette, uniq, counts, 256)
    table = np.array(palette, dtype=np.int64)
    rgb_table = _rgb(table)
    entries = board.entries.copy()
    entries.ravel()[changed] = _nearest(uniq, table, rgb_table)[inverse]
    return entries, rgb_table.astype(np.uint8).ravel().tobytes(), changed


def _nearest(keys: np.ndarray, table: np.ndarray, rgb_table: np.ndarray) -> np.ndarray:
    """Each 24-bit colour's palette entry: its own if the palette has it (the first such), else the
    nearest (the squared distance, in whole numbers; ties to the first). Channel by channel, without
    a matrix product: BLAS's threads, when the cores were busy, at times made the product of a rush's
    ~2,000 colours by the palette 10-17 ms of CPU (at other times 1.6, as this way is always: measured
    2026-11-27 at load 8-12), and whole numbers need no argument for exactness."""
    keys = np.asarray(keys, dtype=np.int64)
    out = np.empty(len(keys), dtype=np.uint8)
    order = np.argsort(table, kind="stable")
    at = np.searchsorted(table[order], keys)
    found = (at < len(table)) & (table[order][np.minimum(at, len(table) - 1)] == keys)
    out[found] = order[at[found]]
    if not found.all():
        rgb, palette = _rgb(keys[~found]).astype(np.int32), rgb_table.astype(np.int32)
        distance = np.zeros((len(rgb), len(palette)), dtype=np.int32)
        for channel in range(3):
            apart = np.subtract.outer(rgb[:, channel], palette[:, channel])
            apart *= apart
            distance += apart
        out[~found] = distance.argmin(axis=1)
    return out


def _ground_keys(scene: Scene) -> np.ndarray:
    """The background's pixels as 24-bit keys, from its classes when the scene has them."""
    if scene.ground_classes is not None:
        classes, colours = scene.ground_classes
        return np.take(_keys_of(colours).astype(np.uint32), classes)
    return _keys(Image.fromarray(scene.map_pixels(), "RGB"))


def _image_of(keys: np.ndarray) -> Image.Image:
    """The RGB image of 24-bit keys (`_key`), read by Pillow as `_raw` pixels: the map made from its
    classes' keys, which the board needs anyway, not from their red, green and blue (a third of the
    time of a board not kept)."""
    packed = (keys.astype(np.uint32) | np.uint32(0xFF000000)).astype("<u4")
    return Image.frombytes("RGB", (keys.shape[1], keys.shape[0]), packed.tobytes(), "raw", "RGBX")


def _keys_of(colours: np.ndarray) -> np.ndarray:
    """(n, 3) uint8 colours as 24-bit keys (see `_key`)."""
    c = colours.astype(np.int64)
    return c[:, 0] | (c[:, 1] << 8) | (c[:, 2] << 16)


def ground_png(scene: Scene) -> Image.Image:
    """The map under the shapes with a palette of its own colours (exact), for the SVG's raster."""
    image = Image.fromarray(scene.map_pixels(), "RGB")
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
    return _as_keys(_raw(image))


def _raw(image: Image.Image) -> np.ndarray:
    """Each pixel of an RGB image as Pillow keeps it, four bytes: red, green, blue and a fourth that
    says nothing (compared as they are, two pixels of one colour are equal: Pillow fills it the same)."""
    return np.frombuffer(image.tobytes("raw", "RGBX"), dtype=np.uint32).reshape(image.height, image.width)


def _as_keys(packed: np.ndarray) -> np.ndarray:
    """`_raw`'s pixels as 24-bit keys."""
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
