"""A scene as SVG text: the map raster embedded as a PNG image, every unit, order and label as vectors."""
from __future__ import annotations

import base64
import io
from xml.sax.saxutils import escape, quoteattr

from .paint_png import ground_png
from .scene import Circle, Line, Polygon, Scene, Text
from .style import hex_of

_ANCHORS = {"l": "start", "m": "middle", "r": "end"}


def _pts(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _paint(fill, outline, width) -> str:
    out = f'fill="{hex_of(fill)}"' if fill else 'fill="none"'
    if outline:
        out += f' stroke="{hex_of(outline)}" stroke-width="{width:.1f}"'
    return out


def paint_svg(scene: Scene, title: str = "") -> str:
    raster = io.BytesIO()
    # the map's own colours as the palette (median cut took 180 ms); zlib at its default level
    ground_png(scene).save(raster, format="PNG")
    href = "data:image/png;base64," + base64.b64encode(raster.getvalue()).decode("ascii")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
             f'viewBox="0 0 {scene.width} {scene.height}" font-family="DejaVu Sans, Verdana, sans-serif" '
             f'font-weight="bold">',
             f'<title>{escape(title)}</title>' if title else "",
             f'<rect width="{scene.width}" height="{scene.height}" fill="{hex_of(scene.paper)}"/>',
             f'<image width="{scene.width}" height="{scene.map_height}" href="{href}" '
             'style="image-rendering:pixelated"/>']
    for shape in scene.shapes:
        if isinstance(shape, Circle):
            (x, y), r = shape.centre, shape.radius
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {_paint(shape.fill, shape.outline, shape.width)}/>'
            )
        elif isinstance(shape, Polygon):
            parts.append(f'<polygon points="{_pts(shape.points)}" {_paint(shape.fill, shape.outline, shape.width)}/>')
        elif isinstance(shape, Line):
            dash = f' stroke-dasharray="{shape.dash:.1f}"' if shape.dash else ""
            parts.append(f'<polyline points="{_pts(shape.points)}" fill="none" stroke="{hex_of(shape.colour)}" '
                         f'stroke-width="{shape.width:.1f}" stroke-linecap="round" stroke-linejoin="round"{dash}/>')
        elif isinstance(shape, Text):
            x, y = shape.at
            weight = "" if shape.bold else ' font-weight="normal"'
            where = (f'x="{x:.1f}" y="{y:.1f}" font-size="{shape.size:.1f}" '
                     f'text-anchor="{_ANCHORS[shape.anchor[0]]}" dominant-baseline="central"{weight}')
            if shape.halo:  # a copy underneath, outlined: not every renderer knows paint-order
                parts.append(f'<text {where} fill="none" stroke={quoteattr(hex_of(shape.halo))} '
                             f'stroke-width="2.5" stroke-linejoin="round">{escape(shape.text)}</text>')
            parts.append(f'<text {where} fill="{hex_of(shape.fill)}">{escape(shape.text)}</text>')
    parts.append("</svg>")
    return "\n".join(p for p in parts if p)
