"""Orders as frozen values, one class per kind of order.

The parser builds these once, at the edge; the engine never reads order text. A
unit named in an order is a `UnitRef`: where it is, and whatever else the player
wrote about it (kind, power). The engine checks those against the position.
"""
from __future__ import annotations

from dataclasses import dataclass

from .quick_init import quick_init

from .geography import Location, UnitKind


@quick_init
@dataclass(frozen=True, slots=True)
class UnitRef:
    location: Location
    kind: UnitKind | None = None  # None: the player did not say
    power: str | None = None  # a foreign unit named in a support, e.g. "S RUSSIAN A War"


@quick_init
@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef


@quick_init
@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    to: Location
    via_convoy: bool = False
    # Sea provinces the player named in the route form `A Lon-Nth-Nwy`; a hint, not a rule.
    route: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitRef
    supported: UnitRef


@quick_init
@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitRef
    supported: UnitRef
    to: Location


@quick_init
@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    to: Location


@quick_init
@dataclass(frozen=True, slots=True)
class Embark:
    """An army boards an adjacent fleet at sea before movement (Abstraction II): `A Lon embarks F Eng`."""
    unit: UnitRef
    fleet: UnitRef


@quick_init
@dataclass(frozen=True, slots=True)
class Disembark:
    """The army aboard an A/F lands on a coast next to `unit`'s sea: `A/F Mao disembarks A Por`.

    `unit` names the sea the army lands from: where the A/F is, or where its fleet moves this month.
    """
    unit: UnitRef
    to: Location


@quick_init
@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    to: Location


@quick_init
@dataclass(frozen=True, slots=True)
class Disband:
    """Disband in a retreat phase, or remove in an adjustment phase."""
    unit: UnitRef


@quick_init
@dataclass(frozen=True, slots=True)
class Build:
    kind: UnitKind
    location: Location


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy | Embark | Disembark
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Disband | Waive
Order = Hold | Move | SupportHold | SupportMove | Convoy | Embark | Disembark | Retreat | Disband | Build | Waive
