"""The state of a game between phases: units, centre owners, phase, dislodged units."""
from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import final

from .quick_init import quick_init
from types import MappingProxyType

from .calendar import Phase
from .geography import Location, UnitKind


@final
@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    kind: UnitKind
    location: Location

    def __init__(self, power: str, kind: UnitKind, location: Location) -> None:
        self.power = power  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.location = location  # type: ignore[misc]

    def __str__(self) -> str:
        return f"{self.kind.value} {self.location}"


quick_init(Unit)


@final
@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    unit: Unit
    attacker_from: str  # province the dislodging attack came from
    retreats: tuple[Location, ...]  # where it may retreat; empty: it can only disband
    # its power gave no orders in the move (civil disorder): disbanded without a retreat
    civil_disorder: bool = False

    def __init__(self, unit: Unit, attacker_from: str, retreats: tuple[Location, ...],
                 civil_disorder: bool = False) -> None:
        self.unit = unit  # type: ignore[misc]
        self.attacker_from = attacker_from  # type: ignore[misc]
        self.retreats = retreats  # type: ignore[misc]
        self.civil_disorder = civil_disorder  # type: ignore[misc]


quick_init(DislodgedUnit)


# units in order of power, then province: the fields got in C for every unit of every position
_POWER = operator.attrgetter("power")
_PROVINCE = operator.attrgetter("location.province")


def _in_order(units: Iterable[Unit]) -> tuple[Unit, ...]:
    # by province, then (a stable sort) by power: two sorts on one field each, no key tuples made
    return tuple(sorted(sorted(units, key=_PROVINCE), key=_POWER))


def _in_order_at(at: dict[str, Unit]) -> tuple[Unit, ...]:
    # `_in_order` for units keyed by their provinces: the keys sorted as they are (the province of each
    # unit not read through a key function: compiled, those reads were most of the sort's time)
    return tuple(sorted([at[p] for p in sorted(at)], key=_POWER))


@dataclass(frozen=True, slots=True)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    owners: Mapping[str, str]  # supply centre -> power; unowned centres are absent
    dislodged: tuple[DislodgedUnit, ...] = ()
    # each power's home centres where they were reassigned during the game (judge.engine.homes:
    # DPjudge's NEWHOMES); None: the variant's
    homes: Mapping[str, tuple[str, ...]] | None = None
    # each vassal (a dummy power) and the power that controls it (judge.engine.vassals: DPjudge's
    # VASSAL_DUMMIES); None: no power is anyone's vassal
    vassals: Mapping[str, str] | None = None
    _by_province: dict[str, Unit] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._place_units(self.units)
        object.__setattr__(self, "owners", MappingProxyType(dict(sorted(self.owners.items()))))
        object.__setattr__(self, "dislodged", tuple(self.dislodged))
        if self.homes is not None:
            object.__setattr__(self, "homes", MappingProxyType(
                {p: tuple(sorted(cs)) for p, cs in sorted(self.homes.items())}))
        if self.vassals is not None:
            object.__setattr__(self, "vassals", MappingProxyType(dict(sorted(self.vassals.items()))) or None)

    def _place_units(self, given: Iterable[Unit]) -> None:
        # one unit a province, so the province decides between units of one power
        units = _in_order(given)
        by_province = {u.location.province: u for u in units}
        if len(by_province) != len(units):
            provinces = [u.location.province for u in units]
            twice = next(p for p in provinces if provinces.count(p) > 1)
            raise ValueError(f"two units in {twice}")
        object.__setattr__(self, "units", units)
        # a plain dict (private, never changed): every order looks its unit up here
        object.__setattr__(self, "_by_province", by_province)

    @classmethod
    def following(cls, before: Position, phase: Phase, units: Iterable[Unit],
                  dislodged: tuple[DislodgedUnit, ...] = ()) -> Position:
        """The position after a phase of `before` in which no centre changed hands (a movement): the
        same as `Position(phase, units, before.owners, dislodged)`, but `before`'s owners, read-only
        and in order already, are shared rather than copied and sorted again."""
        after: Position = getattr(cls, "__new__")(cls)  # noqa: B009  (looked up when run: mypyc refuses both object.__new__ and cls.__new__ here)
        after._place_units(units)
        after._follow(before, phase, dislodged)
        return after

    @classmethod
    def following_at(cls, before: Position, phase: Phase, at: dict[str, Unit],
                     dislodged: tuple[DislodgedUnit, ...] = ()) -> Position:
        """`following`, the units given as the new position's table of the unit in each province (its
        keys the units' provinces, one unit each: the caller's to make sure), kept as it is."""
        after: Position = getattr(cls, "__new__")(cls)  # noqa: B009  (looked up when run: mypyc refuses both object.__new__ and cls.__new__ here)
        object.__setattr__(after, "units", _in_order_at(at))
        object.__setattr__(after, "_by_province", at)
        after._follow(before, phase, dislodged)
        return after

    @classmethod
    def moved_on(cls, before: Position, phase: Phase) -> Position:
        """`before`'s board in `phase`, no unit dislodged: the same as `following(before, phase,
        before.units)`, its units and their table shared, already in order (a retreat phase with
        nobody to retreat, as most moves leave)."""
        after: Position = getattr(cls, "__new__")(cls)  # noqa: B009  (as in `following`)
        object.__setattr__(after, "units", before.units)
        object.__setattr__(after, "_by_province", before._by_province)
        after._follow(before, phase, ())
        return after

    def _follow(self, before: Position, phase: Phase, dislodged: tuple[DislodgedUnit, ...]) -> None:
        """The rest of a position made by `following`: `before`'s owners shared, not copied."""
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "owners", before.owners)
        object.__setattr__(self, "dislodged", dislodged)
        object.__setattr__(self, "homes", before.homes)
        object.__setattr__(self, "vassals", before.vassals)

    def unit_in(self, province: str) -> Unit | None:
        return self._by_province.get(province)

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    def centres_of(self, power: str) -> tuple[str, ...]:
        return tuple(c for c, p in self.owners.items() if p == power)

    def with_(self, *, phase: Phase | None = None, units: Iterable[Unit] | None = None,
              owners: Mapping[str, str] | None = None,
              dislodged: Iterable[DislodgedUnit] | None = None,
              homes: Mapping[str, tuple[str, ...]] | None = None,
              vassals: Mapping[str, str] | None = None) -> Position:
        """This position with the parts named changed."""
        return Position(self.phase if phase is None else phase, self.units if units is None else tuple(units),
                        self.owners if owners is None else owners,
                        self.dislodged if dislodged is None else tuple(dislodged),
                        self.homes if homes is None else homes,
                        self.vassals if vassals is None else vassals)

    @classmethod
    def build(cls, phase: Phase, units: Iterable[Unit], owners: Mapping[str, str],
              dislodged: Iterable[DislodgedUnit] = ()) -> Position:
        return cls(phase, tuple(units), dict(owners), tuple(dislodged))
