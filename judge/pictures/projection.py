"""From latitude and longitude to picture pixels: a Lambert conformal conic and a frame around it.

The variant's layout.json names the projection, the lat/lon box of the map and every province's
points. The frame is the rectangle (in projected km) around the points with a margin for the
provinces round them, inside the box: the widest oceans and far lands are cut so the board is large.
A board that is not geography (Pure, or a board taken from DPjudge's PostScript drawing) is a
`plane`: its points are x and y (y up) in the drawing's own units, and there is no box.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

EARTH_RADIUS_KM = 6371.0
# Room round the outermost points, as a share of the larger side of the rectangle that holds them.
MARGIN_SHARE = 0.07


@dataclass(frozen=True)
class LambertConic:
    """Spherical Lambert conformal conic (km). Conformal, so shapes and local distances stay true."""
    parallels: tuple[float, float]
    central_meridian: float
    origin_latitude: float

    @property
    def _constants(self) -> tuple[float, float, float]:
        p1, p2 = (math.radians(p) for p in self.parallels)
        if math.isclose(p1, p2):
            n = math.sin(p1)
        else:
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = EARTH_RADIUS_KM * f / math.tan(math.pi / 4 + math.radians(self.origin_latitude) / 2) ** n
        return n, f, rho0

    def forward(self, lat: float, lon: float) -> tuple[float, float]:
        n, f, rho0 = self._constants
        rho = EARTH_RADIUS_KM * f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        theta = n * math.radians(lon - self.central_meridian)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        n, f, rho0 = self._constants
        rho = math.copysign(math.hypot(x, rho0 - y), n)
        theta = math.atan2(x, rho0 - y)
        lat = 2 * math.atan((EARTH_RADIUS_KM * f / rho) ** (1 / n)) - math.pi / 2
        return math.degrees(lat), self.central_meridian + math.degrees(theta / n)

    def inverse_arrays(self, x, y):
        """`inverse` over numpy arrays (for sampling a land mask at every pixel)."""
        import numpy as np

        n, f, rho0 = self._constants
        rho = np.copysign(np.hypot(x, rho0 - y), n)
        theta = np.arctan2(x, rho0 - y)
        lat = 2 * np.arctan((EARTH_RADIUS_KM * f / rho) ** (1 / n)) - np.pi / 2
        return np.degrees(lat), self.central_meridian + np.degrees(theta / n)


@dataclass(frozen=True)
class Plane:
    """A board with no geography: a point is (y, x) where a map's is (lat, lon), in the drawing's units."""

    def forward(self, y: float, x: float) -> tuple[float, float]:
        return x, y

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        return y, x

    def inverse_arrays(self, x, y):
        return y, x


def point(entry: dict[str, Any]) -> tuple[float, float]:
    """A layout point as (lat, lon) on a map, or (y, x) on a plane: what the projection takes."""
    return (entry["lat"], entry["lon"]) if "lat" in entry else (entry["y"], entry["x"])


def layout_points(layout: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    """Every point of each province: main place, coasts, seeds."""
    out: dict[str, list[tuple[float, float]]] = {}
    for pid, entry in layout["positions"].items():
        pts = [point(entry)]
        pts += [point(c) for c in entry.get("coasts", {}).values()]
        pts += [tuple(s) for s in entry.get("seeds", ())]
        out[pid] = pts
    return out


def is_plane(layout: dict[str, Any]) -> bool:
    return layout["projection"].get("type") == "plane"


@dataclass(frozen=True)
class Frame:
    """A projection and the rectangle of it shown; pixel (0, 0) is the top left corner."""
    projection: LambertConic | Plane
    west_km: float
    north_km: float
    width_km: float
    height_km: float

    @classmethod
    def from_layout(cls, layout: dict[str, Any]) -> "Frame":
        spec = layout["projection"]
        points = [p for pts in layout_points(layout).values() for p in pts]
        if is_plane(layout):
            xs, ys = zip(*(Plane().forward(a, b) for a, b in points), strict=True)
            # a plane board may ask for more room round its places (Pure's round islands reach past them)
            margin = spec.get("margin", MARGIN_SHARE) * max(max(xs) - min(xs), max(ys) - min(ys))
            return cls(Plane(), min(xs) - margin, max(ys) + margin, max(xs) - min(xs) + 2 * margin,
                       max(ys) - min(ys) + 2 * margin)
        if spec.get("type") != "lambert_conformal_conic":
            raise ValueError(
                f"unknown projection {spec.get('type')!r}; only lambert_conformal_conic and plane are drawn"
            )
        proj = LambertConic(tuple(spec["standard_parallels"]), spec["central_meridian"], spec["latitude_of_origin"])
        box = spec["bounds"]
        # The box's edges are curves once projected: sample them to find the rectangle around them.
        edge = []
        for i in range(41):
            t = i / 40
            lat = box["south"] + t * (box["north"] - box["south"])
            lon = box["west"] + t * (box["east"] - box["west"])
            edge += [(box["south"], lon), (box["north"], lon), (lat, box["west"]), (lat, box["east"])]
        xs, ys = zip(*(proj.forward(la, lo) for la, lo in edge), strict=True)
        px, py = zip(*(proj.forward(la, lo) for la, lo in points), strict=True)
        margin = MARGIN_SHARE * max(max(px) - min(px), max(py) - min(py))
        west, east = max(min(xs), min(px) - margin), min(max(xs), max(px) + margin)
        south, north = max(min(ys), min(py) - margin), min(max(ys), max(py) + margin)
        return cls(proj, west, north, east - west, north - south)

    def height_for(self, width: int) -> int:
        return round(width * self.height_km / self.width_km)

    def km_per_pixel(self, width: int) -> float:
        return self.width_km / width

    def to_pixel(self, lat: float, lon: float, width: int) -> tuple[float, float]:
        x, y = self.projection.forward(lat, lon)
        scale = width / self.width_km
        return (x - self.west_km) * scale, (self.north_km - y) * scale

    def to_latlon(self, px: float, py: float, width: int) -> tuple[float, float]:
        scale = self.width_km / width
        return self.projection.inverse(self.west_km + px * scale, self.north_km - py * scale)
