"""Orders as frozen values, one class per kind of order.

The parser builds these once, at the edge; the engine never reads order text. A
unit named in an order is a `UnitRef`: where it is, and whatever else the player
wrote about it (kind, power). The engine checks those against the position.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import final

from .quick_init import quick_init

from .geography import Location, UnitKind


@final
@dataclass(frozen=True, slots=True)
class UnitRef:
    location: Location
    kind: UnitKind | None = None  # None: the player did not say
    power: str | None = None  # a foreign unit named in a support, e.g. "S RUSSIAN A War"

    def __init__(self, location: Location, kind: UnitKind | None = None, power: str | None = None) -> None:
        self.location = location  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.power = power  # type: ignore[misc]


quick_init(UnitRef)


@final
@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef

    def __init__(self, unit: UnitRef) -> None:
        self.unit = unit  # type: ignore[misc]


quick_init(Hold)


@final
@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    to: Location
    via_convoy: bool = False
    # Sea provinces the player named in the route form `A Lon-Nth-Nwy`; a hint, not a rule.
    route: tuple[str, ...] = ()

    def __init__(self, unit: UnitRef, to: Location, via_convoy: bool = False, route: tuple[str, ...] = ()) -> None:
        self.unit = unit  # type: ignore[misc]
        self.to = to  # type: ignore[misc]
        self.via_convoy = via_convoy  # type: ignore[misc]
        self.route = route  # type: ignore[misc]


quick_init(Move)


@final
@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitRef
    supported: UnitRef

    def __init__(self, unit: UnitRef, supported: UnitRef) -> None:
        self.unit = unit  # type: ignore[misc]
        self.supported = supported  # type: ignore[misc]


quick_init(SupportHold)


@final
@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitRef
    supported: UnitRef
    to: Location

    def __init__(self, unit: UnitRef, supported: UnitRef, to: Location) -> None:
        self.unit = unit  # type: ignore[misc]
        self.supported = supported  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


quick_init(SupportMove)


@final
@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    to: Location

    def __init__(self, unit: UnitRef, army: UnitRef, to: Location) -> None:
        self.unit = unit  # type: ignore[misc]
        self.army = army  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


quick_init(Convoy)


@final
@dataclass(frozen=True, slots=True)
class Embark:
    """An army boards an adjacent fleet at sea before movement (Abstraction II): `A Lon embarks F Eng`."""
    unit: UnitRef
    fleet: UnitRef

    def __init__(self, unit: UnitRef, fleet: UnitRef) -> None:
        self.unit = unit  # type: ignore[misc]
        self.fleet = fleet  # type: ignore[misc]


quick_init(Embark)


@final
@dataclass(frozen=True, slots=True)
class Disembark:
    """The army aboard an A/F lands on a coast next to `unit`'s sea: `A/F Mao disembarks A Por`.

    `unit` names the sea the army lands from: where the A/F is, or where its fleet moves this month.
    """
    unit: UnitRef
    to: Location

    def __init__(self, unit: UnitRef, to: Location) -> None:
        self.unit = unit  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


quick_init(Disembark)


@final
@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    to: Location

    def __init__(self, unit: UnitRef, to: Location) -> None:
        self.unit = unit  # type: ignore[misc]
        self.to = to  # type: ignore[misc]


quick_init(Retreat)


@final
@dataclass(frozen=True, slots=True)
class Disband:
    """Disband in a retreat phase, or remove in an adjustment phase."""
    unit: UnitRef

    def __init__(self, unit: UnitRef) -> None:
        self.unit = unit  # type: ignore[misc]


quick_init(Disband)


@final
@dataclass(frozen=True, slots=True)
class Build:
    kind: UnitKind
    location: Location

    def __init__(self, kind: UnitKind, location: Location) -> None:
        self.kind = kind  # type: ignore[misc]
        self.location = location  # type: ignore[misc]


quick_init(Build)


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy | Embark | Disembark
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Disband | Waive
Order = Hold | Move | SupportHold | SupportMove | Convoy | Embark | Disembark | Retreat | Disband | Build | Waive
