"""The board as a read-only graph: provinces, army edges and fleet edges per coast.

Built once from a variant's data file (see `judge.engine.variant`) and then only read.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TypeVar, cast

from .geography import Coast, Location, Province, Terrain, UnitKind
from .graph import Graph
from .plain_map import PlainMap

_NOWHERE: Mapping[str, tuple[Location, ...]] = MappingProxyType({})
_NONE: frozenset[str] = frozenset()
# what distances are counted between: provinces, or a fleet's locations
_Place = TypeVar("_Place", str, Location)
_NO_LOCATIONS: frozenset[Location] = frozenset()


class Board:
    def __init__(
        self,
        provinces: Iterable[Province],
        army_edges: Iterable[tuple[str, str]],
        fleet_edges: Iterable[tuple[Location, Location]],
        ports: Iterable[str] = (),
    ) -> None:
        self.provinces: Mapping[str, Province] = MappingProxyType({p.id: p for p in provinces})
        army: dict[str, set[str]] = {pid: set() for pid in self.provinces}
        fleet: dict[Location, set[Location]] = {}
        for p, q in army_edges:
            self._check_province(p)
            self._check_province(q)
            army[p].add(q)
            army[q].add(p)
        for a, b in fleet_edges:
            self._check_location(a)
            self._check_location(b)
            fleet.setdefault(a, set()).add(b)
            fleet.setdefault(b, set()).add(a)
        self._army = {k: frozenset(v) for k, v in army.items()}
        self._fleet = {k: frozenset(v) for k, v in fleet.items()}
        # Province-level neighbours for any kind of unit: used for distances and retreat checks.
        nbrs: dict[str, set[str]] = {pid: set(army[pid]) for pid in self.provinces}
        for a, bs in fleet.items():
            for b in bs:
                nbrs[a.province].add(b.province)
        self._neighbours = MappingProxyType({k: frozenset(v) for k, v in nbrs.items()})
        by_sea: dict[str, set[str]] = {pid: set() for pid in self.provinces}
        for a, bs in fleet.items():
            for b in bs:
                by_sea[a.province].add(b.province)
        self._fleet_provinces = {k: frozenset(v) for k, v in by_sea.items()}
        # the same map on integers, for the convoy searches over whole sets of seas
        self.graph = Graph(self.provinces, self._fleet_provinces)
        # Each province's bare location, made once: the order reader names one in nearly every order.
        self._bare = MappingProxyType({pid: Location(pid) for pid in self.provinces})
        # What adjudication asks for every order, answered once per map (the board is read-only).
        terrain = {pid: p.terrain for pid, p in self.provinces.items()}
        self.seas = frozenset(pid for pid, t in terrain.items() if t is Terrain.SEA)
        self.coastal = frozenset(pid for pid, t in terrain.items() if t is Terrain.COAST)
        # DPjudge's PORT: a coast whose fleet may convoy as if it were at sea (AncMed's Baleares)
        self.ports = frozenset(ports)
        for pid in self.ports:
            if pid not in self.coastal:
                raise ValueError(f"port {pid!r} is not a coastal province")
        self.convoy_waters = self.seas | self.ports
        self._army_can_stand = frozenset(pid for pid, t in terrain.items() if t in (Terrain.LAND, Terrain.COAST))
        # where an army may move by land, each step checked once: no sea, nowhere impassable
        # (plain dicts, private and never changed: a mappingproxy's lookup costs twice a dict's)
        self._army_steps = {pid: frozenset(n for n in army[pid] if n in self._army_can_stand) for pid in self.provinces}
        reach: dict[Location, dict[str, list[Location]]] = {}
        for a, bs in fleet.items():
            for b in sorted(bs, key=str):
                reach.setdefault(a, {}).setdefault(b.province, []).append(b)
        # fleet location -> province -> the coasts (or bare location) of it the fleet can move to
        # keyed by (province, coast), not by Location: a tuple of a str and an enum hashes and compares
        # in C, a Location (a dataclass) in Python, and adjudication asks this for every fleet's order
        self._fleet_reach_by = {(a.province, a.coast): {p: tuple(locs) for p, locs in by.items()}
                                for a, by in reach.items()}
        # the same answers as flat tables, for the everyday movement phase (judge.engine.fast_movement)
        self.plain = PlainMap(self)

    # -- validation of the data ------------------------------------------------------
    def _check_province(self, pid: str) -> None:
        if pid not in self.provinces:
            raise ValueError(f"unknown province {pid!r} in map data")

    def _check_location(self, loc: Location) -> None:
        self._check_province(loc.province)
        prov = self.provinces[loc.province]
        if loc.coast is not None and loc.coast not in prov.coasts:
            raise ValueError(f"{prov.name} has no {loc.coast.full_name}")
        if loc.coast is None and prov.coasts:
            raise ValueError(f"fleet edge at {prov.name} must name a coast")

    # -- queries ------------------------------------------------------------------------
    def province(self, pid: str) -> Province:
        return self.provinces[pid]

    def location(self, province: str) -> Location:
        """The province's bare location (no coast); any province id, on this map or not."""
        loc = self._bare.get(province)
        return loc if loc is not None else Location(province)

    def army_neighbours(self, province: str) -> frozenset[str]:
        return self._army.get(province, _NONE)

    def army_steps(self, province: str) -> frozenset[str]:
        """The provinces an army in `province` may move to by land."""
        return self._army_steps.get(province, _NONE)

    def fleet_neighbours(self, loc: Location) -> frozenset[Location]:
        return self._fleet.get(loc, _NO_LOCATIONS)

    def neighbours(self, province: str) -> frozenset[str]:
        """Provinces that touch this one by any border a unit can cross."""
        return self._neighbours.get(province, _NONE)

    def fleet_province_neighbours(self, province: str) -> frozenset[str]:
        """Provinces a fleet somewhere in `province` could reach, coasts ignored."""
        return self._fleet_provinces.get(province, _NONE)

    def can_reach_province(self, kind: UnitKind, loc: Location, province: str) -> bool:
        """Could this unit move into some part of `province`? (What a support needs.)"""
        if kind is UnitKind.ARMY:
            return province in self._army.get(loc.province, ()) and province not in self.seas
        return province in self._fleet_reach_by.get((loc.province, loc.coast), _NOWHERE)

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        prov = self.provinces[province]
        if prov.coasts:
            return tuple(Location(province, c) for c in prov.coasts)
        return (Location(province),) if Location(province) in self._fleet else ()

    def can_stand(self, kind: UnitKind, loc: Location) -> bool:
        if kind is UnitKind.ARMY:
            return loc.coast is None and loc.province in self._army_can_stand
        prov = self.provinces.get(loc.province)
        if prov is None or prov.terrain is Terrain.IMPASSABLE:
            return False
        if kind is UnitKind.ARMY_FLEET:
            return prov.terrain is Terrain.SEA
        return loc in self._fleet

    def can_move(self, kind: UnitKind, src: Location, dst: Location) -> bool:
        """One step by land (army) or along a coast or sea (fleet), ignoring convoys."""
        if kind is UnitKind.ARMY:
            return dst.coast is None and dst.province in self._army.get(src.province, ())
        return dst in self._fleet.get(src, ())

    def fleet_can_reach_province(self, src: Location, province: str) -> tuple[Location, ...]:
        """The coasts (or bare location) of `province` a fleet at `src` can move to."""
        return self._fleet_reach_by.get((src.province, src.coast), _NOWHERE).get(province, ())

    def can_convoy_from(self, province: str) -> bool:
        """A fleet may convoy from a sea, or from a port (DPjudge's PORT)."""
        return province in self.convoy_waters

    def coastal_for_convoy(self, province: str) -> bool:
        """An army may be convoyed from or to a coastal province."""
        return province in self.coastal

    def distances_from(self, sources: Iterable[_Place],
                       step: Callable[[_Place], Iterable[_Place]] | None = None) -> dict[_Place, int]:
        """Breadth-first distances (in moves) from any of `sources`, by `step` (default: any border,
        between provinces; a fleet's steps between locations are given as `fleet_neighbours`)."""
        if step is None:
            step = cast(Callable[[_Place], Iterable[_Place]], self.neighbours)
        dist: dict[_Place, int] = {}
        queue: deque[_Place] = deque()
        for s in sources:
            if s not in dist:
                dist[s] = 0
                queue.append(s)
        while queue:
            here = queue.popleft()
            for nxt in step(here):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def is_symmetric(self) -> bool:
        return all(a in self._army[b] for a, bs in self._army.items() for b in bs) and all(
            a in self._fleet.get(b, ()) for a, bs in self._fleet.items() for b in bs
        )

    def coasts_of(self, province: str) -> tuple[Coast, ...]:
        return self.provinces[province].coasts
