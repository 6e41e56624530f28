"""Reading an order with the board in hand: which of an order's possible meanings the position allows.

Players write orders for the board in front of them, and the rulebooks say an order with only one
meaning must be followed. `A Liv-Yor` names Liverpool when the army is there and none is in Livonia;
`F Nap-Tyr` is the Tyrrhenian Sea, since a fleet cannot enter Tyrolia; `F Stands` is the power's one
fleet; `E Edi-Nth` is the fleet in Edinburgh. `BoardView.problem` says why one reading of an order
cannot be what the player meant (no such unit, a place the unit cannot reach, a build where none
can be made), or None when it could be. The parser (judge.language.parse) tries each reading of a
line with such words and keeps one only when the board leaves exactly one: never a guess.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..engine import (Build, Convoy, Disband, Hold, Move, Order, Position, Retreat, SupportHold, SupportMove,
                      UnitKind, UnitRef, Variant)
from ..engine.calendar import PhaseKind
from ..engine.homes import home_centres
from ..engine.adjustment import buildable_sites
from ..engine.geography import Location, Terrain
from ..engine.phase import orders_needed
from ..engine.position import DislodgedUnit, Unit


def _loc(loc: Location) -> str:
    """"Vie", "StP/nc" as a player writes them (the reader takes any case)."""
    return str(loc).capitalize()


def _short(unit: Unit) -> str:
    return f"{unit.kind.value} {_loc(unit.location)}"


def _a(kind: UnitKind) -> str:
    name = kind.full_name
    return ("an " if name[0] in "aeiou" else "a ") + name


class BoardView:
    """The part of a position the reader uses; made once per message (or request) and read only."""

    def __init__(self, variant: Variant, position: Position, unordered: frozenset[str] | None = None) -> None:
        """`unordered`: the provinces of the units still without a stored order, if known: the
        examples after a line that does not read come from those first."""
        self.unordered = unordered
        self.variant = variant
        self.board = variant.board
        self.position = position
        self.kind = position.phase.kind
        self.units = {u.location.province: u for u in position.units}
        self.dislodged = {d.unit.location.province: d for d in position.dislodged}
        self._needs = orders_needed(variant, position) if self.kind is PhaseKind.ADJUSTMENT else {}

    def adjusting(self, power: str | None) -> str | None:
        """"build" or "remove": what a bare unit ("F Edi") of this power can only be in this phase;
        "neither" when the power has nothing to adjust; None when the phase or the power is unknown."""
        if self.kind is not PhaseKind.ADJUSTMENT or not power:
            return None
        need = self._needs.get(power)
        return "build" if need and need.builds else "remove" if need and need.removals else "neither"

    def orders_for(self, power: str | None, other: str) -> bool:
        """Whether `power`'s player gives `other`'s orders too: `other` is a vassal of the same
        overlord as `power`, or of `power` itself (the Vassal map: judge.engine.vassals)."""
        lords = self.position.vassals
        return bool(lords and power and other in lords and lords[other] == lords.get(power, power))

    def units_of(self, power: str, kind: UnitKind) -> list[Unit]:
        """The units a phase's order can name by kind alone ("F Stands"): the power's, or its dislodged ones."""
        if self.kind is PhaseKind.RETREAT:
            return [d.unit for d in self.dislodged.values() if d.unit.power == power and d.unit.kind is kind]
        return [u for u in self.units.values() if u.power == power and u.kind is kind]

    def examples(self, power: str) -> tuple[str, ...]:
        """Orders this power could give now, from its own units ("A Vie H", "A Vie - Bud"), to show
        after a line that does not read: a generic example names a unit the player does not have.
        Empty when the power has nothing to order in this phase."""
        if self.kind is PhaseKind.MOVEMENT:
            own = self.units_of(power, UnitKind.ARMY) + self.units_of(power, UnitKind.FLEET)
            for unit in sorted(own, key=lambda u: (self._ordered(u), str(u.location))):
                near = sorted(p for p in self.board.neighbours(unit.location.province)
                              if self.board.can_reach_province(unit.kind, unit.location, p))
                held = f"{_short(unit)} H"
                return (held, f"{_short(unit)} - {near[0].capitalize()}") if near else (held,)
            return ()
        if self.kind is PhaseKind.RETREAT:
            for d in sorted(self.dislodged.values(), key=lambda d: (self._ordered(d.unit), str(d.unit.location))):
                if d.unit.power == power:
                    to = [f"{_short(d.unit)} R {_loc(d.retreats[0])}"] if d.retreats else []
                    return (*to, f"disband {_short(d.unit)}")
            return ()
        need = self._needs.get(power)
        if need and need.builds:
            return tuple(f"build A {_loc(Location(c))}" for c in buildable_sites(self.variant, self.position, power))
        if need and need.removals:
            own = sorted((u for u in self.units.values() if u.power == power), key=lambda u: str(u.location))
            return tuple(f"remove {_short(u)}" for u in own[:2])
        return ()

    def removal_in(self, power: str, province: str) -> str | None:
        """"Remove A Bel": the removal of this power's unit in the province, when it owes removals."""
        unit = self.units.get(province)
        if self.adjusting(power) != "remove" or unit is None or unit.power != power:
            return None
        return f"Remove {_short(unit)}"

    def _ordered(self, unit: Unit) -> bool:
        return self.unordered is not None and unit.location.province not in self.unordered

    def _name(self, province: str) -> str:
        return self.board.province(province).name

    def problem(self, order: Order, power: str | None) -> str | None:
        """Why this reading of the order cannot be what the player meant; None if it can be."""
        if self.kind is PhaseKind.MOVEMENT:
            return self._movement(order, power)
        if self.kind is PhaseKind.RETREAT:
            return self._retreat(order, power)
        return self._adjustment(order, power)

    # -- the unit an order names -----------------------------------------------------------------
    def _unit(self, ref: UnitRef, power: str | None,
              units: Mapping[str, Unit | DislodgedUnit]) -> tuple[Unit | None, str | None]:
        found = units.get(ref.location.province)
        if found is not None and not isinstance(found, Unit):
            found = found.unit  # a dislodged unit
        where = self._name(ref.location.province)
        if found is None:
            return None, f"there is no unit in {where}"
        if power and found.power != power:
            return None, f"the unit in {where} is not {self.variant.power(power).adjective}"
        if ref.power and found.power != ref.power:
            return None, f"the unit in {where} is not {self.variant.power(ref.power).adjective}"
        if ref.kind is not None and ref.kind is not found.kind:
            return None, f"the unit in {where} is {_a(found.kind)}"
        return found, None

    def _enters(self, unit: Unit, province: str) -> str | None:
        """Why `unit` could not move to `province` (by convoy too, for an army); None if it could."""
        terrain = self.board.province(province).terrain
        if unit.kind is UnitKind.FLEET and terrain is Terrain.LAND:
            return f"a fleet cannot enter {self._name(province)}"
        if unit.kind is UnitKind.ARMY and terrain is Terrain.SEA:
            return f"an army cannot enter {self._name(province)}"
        if self.board.can_reach_province(unit.kind, unit.location, province):
            return None
        if (unit.kind is UnitKind.ARMY and self.board.coastal_for_convoy(unit.location.province)
                and self.board.coastal_for_convoy(province)):
            return None  # it may go by convoy
        return f"{_a(unit.kind)} in {self._name(unit.location.province)} cannot reach {self._name(province)}"

    # -- each phase ----------------------------------------------------------------------------------
    def _movement(self, order: Order, power: str | None) -> str | None:
        unit_ref = getattr(order, "unit", None)
        if unit_ref is None or not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
            return None
        unit, why = self._unit(unit_ref, power, self.units)
        if why or unit is None:
            return why
        if isinstance(order, Move):
            return self._enters(unit, order.to.province)
        if isinstance(order, (SupportHold, SupportMove)):
            other, why = self._unit(order.supported, None, self.units)
            if why or other is None:
                return why
            target = order.to.province if isinstance(order, SupportMove) else other.location.province
            if not self.board.can_reach_province(unit.kind, unit.location, target):
                where = self._name(unit.location.province)
                return f"{_a(unit.kind)} in {where} cannot support into {self._name(target)}"
            return self._enters(other, target) if isinstance(order, SupportMove) else None
        if isinstance(order, Convoy):
            if not self.board.can_convoy_from(unit.location.province):
                return f"a fleet in {self._name(unit.location.province)} cannot convoy"
            army, why = self._unit(order.army, None, self.units)
            if why or army is None:
                return why
            if army.kind is not UnitKind.ARMY:
                return f"the unit in {self._name(army.location.province)} is {_a(army.kind)}"
        return None

    def _retreat(self, order: Order, power: str | None) -> str | None:
        if not isinstance(order, (Retreat, Disband)):
            return None
        _unit, why = self._unit(order.unit, power, self.dislodged)
        if why:
            return why.replace("there is no unit", "no unit was dislodged")
        if isinstance(order, Retreat):
            places = {loc.province for loc in self.dislodged[order.unit.location.province].retreats}
            if order.to.province not in places:
                where = self._name(order.unit.location.province)
                return f"the unit in {where} cannot retreat to {self._name(order.to.province)}"
        return None

    def _adjustment(self, order: Order, power: str | None) -> str | None:
        if isinstance(order, Disband):
            return self._unit(order.unit, power, self.units)[1]
        if isinstance(order, Build) and power:
            where = order.location.province
            home = home_centres(self.variant, self.position, power)
            if where not in home:
                return f"{self._name(where)} is not a home centre of {self.variant.power(power).name}"
            if self.position.owners.get(where) != power or where in self.units:
                return f"{self._name(where)} is not free to build in"
            if not self.board.can_stand(order.kind, order.location):
                return f"{_a(order.kind)} cannot stand in {self._name(where)}"
        return None
