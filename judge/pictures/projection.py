"""From latitude and longitude to picture pixels: a Lambert conformal conic and a frame around it.

The variant's layout.json names the projection, the lat/lon box of the map and every province's
points. The frame is the rectangle (in projected km) around the points with a margin for the
provinces round them, inside the box: the widest oceans and far lands are cut so the board is large.
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
class Frame:
    """A projection and the rectangle of it shown; pixel (0, 0) is the top left corner."""
    projection: LambertConic
    west_km: float
    north_km: float
    width_km: float
    height_km: float

    @classmethod
    def from_layout(cls, layout: dict[str, Any]) -> "Frame":
        spec = layout["projection"]
        if spec.get("type") != "lambert_conformal_conic":
            raise ValueError(f"unknown projection {spec.get('type')!r}; only lambert_conformal_conic is drawn")
        proj = LambertConic(tuple(spec["standard_parallels"]), spec["central_meridian"], spec["latitude_of_origin"])
        box = spec["bounds"]
        # The box's edges are curves once projected: sample them to find the rectangle around them.
        edge = []
        for i in range(41):
            t = i / 40
            lat = box["south"] + t * (box["north"] - box["south"])
            lon = box["west"] + t * (box["east"] - box["west"])
            edge += [(box["south"], lon), (box["north"], lon), (lat, box["west"]), (lat, box["east"])]
        xs, ys = zip(*(proj.forward(la, lo) for la, lo in edge))
        points = []
        for entry in layout["positions"].values():
            points.append((entry["lat"], entry["lon"]))
            points += [(c["lat"], c["lon"]) for c in entry.get("coasts", {}).values()]
            points += [tuple(s) for s in entry.get("seeds", ())]
        px, py = zip(*(proj.forward(la, lo) for la, lo in points))
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
