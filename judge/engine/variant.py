"""A variant: its board, powers, calendar and the small rule hooks it switches on.

Variants are data files (`judge/variants/<id>/variant.json`). Loading one builds a
read-only `Variant`; callers load it once and pass it around. There is no hidden cache.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any

from .alternative_homes import Alternative, BuildMarks
from .board import Board
from .calendar import Calendar, Phase, Season
from .geography import Coast, Location, Province, Terrain, UnitKind
from .cape import Borders
from .owner_edges import OwnerEdge
from .seasonal import SeasonalSpaces
from .straits import Straits

if TYPE_CHECKING:  # position.py is imported where it is needed: it needs nothing from here
    from .position import Position


@dataclass(frozen=True)
class Power:
    id: str  # e.g. "FRANCE"
    name: str  # "France"
    adjective: str  # "French"
    letter: str  # njudge's power initial for SIGNON Fgame (Chaos: the shortest start of the name, "Ber")
    colour: str
    home_centres: tuple[str, ...]
    starting_units: tuple[tuple[UnitKind, Location], ...]
    # Centres owned at the start when they are not the home centres (DPjudge's OWNS: the Shift maps).
    starting_centres: tuple[str, ...] | None = None
    # Build sites that are no centres, counting only while some home centres are lost (DPjudge's *X: partisans.py)
    partisan_sites: tuple[str, ...] = ()

    @property
    def owned_at_start(self) -> tuple[str, ...]:
        return self.home_centres if self.starting_centres is None else self.starting_centres


@dataclass(frozen=True)
class FrozenSpaces:
    """Spaces where fleets must stand and nothing can be dislodged, in some seasons."""
    provinces: frozenset[str]
    seasons: frozenset[int]


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    description: str
    board: Board
    calendar: Calendar
    powers: tuple[Power, ...]
    victory_centres: int
    unit_kinds: frozenset[UnitKind]
    reconstructed: bool = False
    frozen: FrozenSpaces | None = None
    last_phase: Phase | None = None  # the game ends after this phase, if set
    # Rule hooks a variant switches on by name (e.g. "army_fleet", "centre_exchange", "build_any", "mobilize").
    hooks: frozenset[str] = frozenset()
    # Borders only the owners of some centres may cross (DPjudge's XXX(C,D): Imperial's Bosphorus).
    owner_edges: tuple[OwnerEdge, ...] = ()
    # The year whose adjustments make each power's owned centres its homes (DPjudge's NEWHOMES: 1897).
    new_homes_in: int | None = None
    # Powers nobody plays (DPjudge's DUMMY): never a seat; what becomes of them, the hooks say (dummies.py)
    dummies: frozenset[str] = frozenset()
    # Alternative home centres and hidden builds (DPjudge's @X, ~X; per phase: IN W1939A): alternative_homes.py
    build_marks: tuple[BuildMarks, ...] = ()
    # Spaces open only in some seasons, shut the rest of the year (DPjudge's IN SPRING: WATER ARC: Loeb9)
    seasonal: SeasonalSpaces | None = None
    # Borders a move crosses weakly, (from, to) (DPjudge's ~XXX: Loeb9's straits; judge/engine/straits.py)
    weak_straits: Straits = frozenset()
    # Borders a move crosses at half strength, (from, to) (DPjudge's *XXX: 1900's Cape; judge/engine/cape.py)
    half_strength_borders: Borders = frozenset()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def power(self, power_id: str) -> Power:
        for p in self.powers:
            if p.id == power_id:
                return p
        raise KeyError(power_id)

    @cached_property     # (asked for once a power a phase and more: made once a variant)
    def power_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.powers)

    @property
    def supply_centres(self) -> tuple[str, ...]:
        return tuple(pid for pid, p in self.board.provinces.items() if p.supply_centre)

    def home_power(self, province: str) -> str | None:
        for p in self.powers:
            if province in p.home_centres:
                return p.id
        return None

    def is_frozen(self, province: str, phase: Phase) -> bool:
        return (self.frozen is not None and province in self.frozen.provinces
                and phase.season in self.frozen.seasons)


def parse_unit(text: str) -> tuple[UnitKind, Location]:
    """Data-file spelling of a unit: `A par`, `F stp/sc`, `A/F nth`."""
    kind, _, where = text.strip().partition(" ")
    return UnitKind(kind.upper()), Location.parse(where)


def variant_from_data(data: dict[str, Any]) -> Variant:
    provinces = [
        Province(
            id=p["id"], name=p["name"], terrain=Terrain(p["terrain"]),
            supply_centre=bool(p.get("supply_centre")),
            coasts=tuple(Coast(c) for c in p.get("coasts", ())),
            aliases=tuple(p.get("aliases", ())),
        )
        for p in data["provinces"]
    ]
    board = Board(
        provinces,
        [tuple(e) for e in data["army_edges"]],
        [(Location.parse(a), Location.parse(b)) for a, b in data["fleet_edges"]],
        ports=data.get("ports", ()),
    )
    cal = data["calendar"]
    seasons = tuple(Season(s["name"], s["code"], bool(s.get("adjustments"))) for s in cal["seasons"])
    adjustment = cal.get("adjustment") or {}
    calendar = Calendar(
        seasons=seasons, start_year=cal["start_year"],
        start_season=next((i for i, s in enumerate(seasons) if s.code == cal.get("start_season")), 0),
        adjustment_name=adjustment.get("name"), adjustment_code=adjustment.get("code"),
        year_step=int(cal.get("year_step", 1)), adjustment_every=int(cal.get("adjustment_every", 1)),
        eras=_eras(cal.get("eras"), seasons),
    )
    if cal.get("first_phase"):  # a start other than the first season's movement (W1898A, F1900M)
        first = calendar.parse(cal["first_phase"])
        calendar = replace(calendar, start_year=first.year, start_season=first.season, start_kind=first.kind)
    absent = {a.upper() for a in data.get("absent_powers", ())}
    unknown = absent - {p["id"] for p in data["powers"]}
    if unknown:
        raise ValueError(f"absent powers not in the variant: {', '.join(sorted(unknown))}")
    powers = tuple(
        Power(
            id=p["id"], name=p["name"], adjective=p["adjective"], letter=p["letter"],
            colour=p.get("colour", "#888888"), home_centres=tuple(p["home_centres"]),
            starting_units=tuple(parse_unit(u) for u in p["starting_units"]),
            starting_centres=tuple(p["starting_centres"]) if "starting_centres" in p else None,
            partisan_sites=tuple(p.get("partisan_sites", ())),
        )
        for p in data["powers"] if p["id"] not in absent  # off the board: no units, their centres neutral
    )
    frozen = None
    if data.get("frozen"):
        codes = [s.code for s in seasons]
        frozen = FrozenSpaces(frozenset(data["frozen"]["provinces"]),
                              frozenset(codes.index(c) for c in data["frozen"]["seasons"]))
    variant = Variant(
        id=data["id"], name=data["name"], description=data.get("description", ""),
        board=board, calendar=calendar, powers=powers,
        victory_centres=int(data["victory_centres"]),
        unit_kinds=frozenset(UnitKind[k.upper()] for k in data.get("unit_kinds", ["army", "fleet"])),
        reconstructed=bool(data.get("reconstructed")),
        frozen=frozen,
        last_phase=calendar.parse(data["last_phase"]) if data.get("last_phase") else None,
        hooks=frozenset(data.get("hooks", ())),
        new_homes_in=int(data["new_homes_in"]) if data.get("new_homes_in") is not None else None,
        owner_edges=tuple(OwnerEdge(frozenset(e["between"]), frozenset(e["owners_of"]))
                          for e in data.get("owner_edges", ())),
        dummies=frozenset(d.upper() for d in data.get("dummy_powers", ())),
        build_marks=_build_marks(data, calendar),
        seasonal=_seasonal(data.get("seasonal_spaces"), seasons),
        weak_straits=frozenset((a, b) for a, b in data.get("weak_straits", ())),
        half_strength_borders=frozenset((a, b) for a, b in data.get("half_strength_borders", ())),
        extra={k: v for k, v in data.items() if k.startswith("x_")},
    )
    _check(variant)
    return variant


def _build_marks(data: dict[str, Any], calendar: Calendar) -> tuple[BuildMarks, ...]:
    """Each power's `alternative_homes` and `hidden_builds`, and the ones `in_phase` replaces them
    with in one phase (DPjudge's `IN W1939A`)."""
    def marks(power: str, given: dict[str, Any], phase: Phase | None) -> BuildMarks:
        return BuildMarks(power, tuple(Alternative(a["centre"], frozenset(a.get("instead_of", ())))
                                       for a in given.get("alternative_homes", ())),
                          frozenset(given.get("hidden_builds", ())), phase)
    out = [marks(p["id"], p, None) for p in data["powers"] if "alternative_homes" in p or "hidden_builds" in p]
    out += [marks(m["power"], m, calendar.parse(m["phase"])) for m in data.get("in_phase", ())]
    return tuple(out)


def _eras(eras: list[dict[str, str]] | None, seasons: tuple[Season, ...]) -> tuple[Season, Season] | None:
    """A calendar's eras (before, after), each a name and a phase-code letter; only with one season."""
    if not eras:
        return None
    if len(eras) != 2 or len(seasons) != 1:
        raise ValueError("a calendar of eras has two eras and one season")
    before, after = (Season(e["name"], e["code"]) for e in eras)
    return before, after


def _seasonal(spaces: dict[str, list[str]] | None, seasons: tuple[Season, ...]) -> SeasonalSpaces | None:
    """`{"provinces": [...], "open_in": [season codes]}`: spaces shut but in those seasons."""
    if not spaces:
        return None
    codes = [s.code for s in seasons]
    unknown = set(spaces["open_in"]) - set(codes)
    if unknown:
        raise ValueError(f"seasonal spaces open in seasons the calendar lacks: {', '.join(sorted(unknown))}")
    return SeasonalSpaces(frozenset(spaces["provinces"]), frozenset(codes.index(c) for c in spaces["open_in"]))


def _check(variant: Variant) -> None:
    for edge in variant.owner_edges:
        a, b = sorted(edge.between)
        if b not in variant.board.neighbours(a) or not all(
                variant.board.provinces.get(c) and variant.board.provinces[c].supply_centre for c in edge.owners_of):
            raise ValueError(f"the border {a}-{b} open to owners of {', '.join(sorted(edge.owners_of))} is no border "
                             f"between provinces, or names a province that is no supply centre")
    for m in variant.build_marks:
        homes = set(variant.power(m.power).home_centres)
        named = {a.centre for a in m.alternatives} | {c for a in m.alternatives for c in a.instead_of} | m.hidden
        if not named <= homes:
            raise ValueError(f"{m.power}'s alternative or hidden build sites {', '.join(sorted(named - homes))} "
                             f"are not its home centres")
    for p in variant.seasonal.provinces if variant.seasonal else ():
        if p not in variant.board.provinces:
            raise ValueError(f"seasonal space {p} is not on the board")
    for a, b in sorted(variant.weak_straits):
        if b not in variant.board.neighbours(a):
            raise ValueError(f"the strait {a}-{b} is no border between provinces")
    for a, b in sorted(variant.half_strength_borders):
        if b not in variant.board.neighbours(a):
            raise ValueError(f"the half-strength border {a}-{b} is no border between provinces")
    unknown = variant.dummies - set(variant.power_ids)
    if unknown:
        raise ValueError(f"dummy powers not in the variant: {', '.join(sorted(unknown))}")
    for power in variant.powers:
        for kind, loc in power.starting_units:
            if not variant.board.can_stand(kind, loc):
                raise ValueError(f"{power.name}'s starting {kind.full_name} cannot stand in {loc}")
        for c in power.home_centres:
            if not variant.board.provinces[c].supply_centre:
                raise ValueError(f"home centre {c} of {power.name} is not a supply centre")
        for c in power.partisan_sites:
            if c not in variant.board.provinces or variant.board.provinces[c].supply_centre:
                raise ValueError(f"{power.name}'s partisan site {c} is no province, or is a supply centre")
        for c in power.starting_centres or ():
            if not variant.board.provinces[c].supply_centre:
                raise ValueError(f"{power.name} owns {c} at the start, which is not a supply centre")


def available_variants() -> list[str]:
    root = resources.files("judge") / "variants"
    return sorted(p.name for p in root.iterdir() if (p / "variant.json").is_file())


def load_variant(name: str) -> Variant:
    """Load a packaged variant by its id (`standard`). Only by id: a name comes from mail and from
    `judge adjudicate` requests, and must never open a file it names."""
    key = str(name).strip().lower()
    if key not in available_variants():
        raise KeyError(f"unknown variant {name!r}; known: {', '.join(available_variants())}")
    text = (resources.files("judge") / "variants" / key / "variant.json").read_text(encoding="utf-8")
    return variant_from_data(json.loads(text))


def starting_position(variant: Variant) -> Position:
    from .position import Position, Unit

    units = [Unit(p.id, kind, loc) for p in variant.powers for kind, loc in p.starting_units]
    owners = {c: p.id for p in variant.powers for c in p.owned_at_start}
    return Position(variant.calendar.first_phase, tuple(units), owners)
