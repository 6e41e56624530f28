"""Places on a board: provinces, coasts, locations, unit kinds.

These are plain values. A location is a province plus an optional coast; the
coast is a typed value, never a suffix to be split off a string.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import final

from .quick_init import quick_init


class Terrain(enum.Enum):
    # Members are singletons compared by identity, so identity is a valid hash, and it is
    # computed in C: Enum's own __hash__ is a Python function, hot in adjudication.
    __hash__ = object.__hash__

    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


class Coast(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    NORTH = "nc"
    SOUTH = "sc"
    EAST = "ec"
    WEST = "wc"

    @property
    def full_name(self) -> str:
        return {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}[self.value]


class UnitKind(enum.Enum):
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    ARMY = "A"
    FLEET = "F"
    # An army aboard a fleet at sea (Abstraction II's A/F): moves and fights as a fleet.
    ARMY_FLEET = "A/F"

    @property
    def full_name(self) -> str:
        return {"A": "army", "F": "fleet", "A/F": "army aboard fleet"}[self.value]

    @property
    def moves_as_fleet(self) -> bool:
        return self is not UnitKind.ARMY


@final
@dataclass(frozen=True, order=True, slots=True)
class Location:
    province: str
    coast: Coast | None = None

    def __init__(self, province: str, coast: Coast | None = None) -> None:
        self.province = province  # type: ignore[misc]
        self.coast = coast  # type: ignore[misc]

    def __str__(self) -> str:
        return self.province if self.coast is None else f"{self.province}/{self.coast.value}"

    @property
    def bare(self) -> Location:
        return self if self.coast is None else Location(self.province)

    @classmethod
    def parse(cls, text: str) -> Location:
        """Read the data-file spelling `spa/nc` (used only by data loaders and the JSON edge)."""
        province, _, coast = text.strip().lower().partition("/")
        return cls(province, Coast(coast) if coast else None)


quick_init(Location)


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    name: str
    terrain: Terrain
    supply_centre: bool
    coasts: tuple[Coast, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        return self.terrain is Terrain.SEA

    @property
    def is_land(self) -> bool:
        return self.terrain is Terrain.LAND

    @property
    def is_coastal(self) -> bool:
        return self.terrain is Terrain.COAST
