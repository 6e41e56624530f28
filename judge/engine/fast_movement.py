"""The everyday movement phase on a fast path: every order plain, no convoy, no A/F, no ice.

Most phases of a game are such (all of bench/adjudicate.py's): each unit given at most one order,
a hold, a move to the next province or a support that `movement_orders._as_written` takes as
written (or would, but for the kind or coast of the power's own unit left out: "Par - Bur"). For
them this module reads the orders straight into flat tables keyed by province id (who moves where,
who supports whom; no object per order), settles what nothing can change, asks the resolver about
the rest, and builds the `PhaseResult` the general engine (movement.py) would, every outcome again
worked out only when first read (`fast_outcomes`). Anything else (a convoy, a coast to infer, an
order for a unit that is not there or not the power's, two orders for one unit) and it answers None
before deciding anything: the general engine takes the phase.

The rules here are movement.py's with every route by land: a move always has its path, a
head-to-head is simply two moves along one border, no support is kept by the 1982 convoy rule.
tests/test_engine_fast_path.py plays both engines on seeded random phases and wants equal results.
"""
from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from functools import partial
from typing import Protocol

from . import army_fleet
from .fast_outcomes import explain
from .geography import UnitKind
from .orders import Hold, Move, Order, SupportHold, SupportMove
from .outcomes import PhaseResult
from .plain_map import PlainMap, retreat_options
from .position import DislodgedUnit, Position, Unit
from .resolver import Resolver
from .rules import Rules, SupportCoast
from .variant import Variant

_ARMY, _FLEET = UnitKind.ARMY, UnitKind.FLEET


class _HasPower(Protocol):  # an entry of the general engine, a unit here
    @property
    def power(self) -> str: ...


class PlainOrders:
    """A phase's orders as tables keyed by the province of the unit given each (read by `read_plain`)."""
    __slots__ = ("dest", "given", "into", "moves_to", "opposite", "supports")

    def __init__(self) -> None:
        self.given: dict[str, Order] = {}  # every order as written, in the order given
        self.dest: dict[str, str] = {}  # a moving unit -> the province it moves to
        self.moves_to: dict[str, list[str]] = {}  # a province -> the units moving there
        self.supports: dict[str, str] = {}  # a supporting unit -> the unit it supports
        self.into: dict[str, str] = {}  # a unit supporting a move -> where the move goes
        # two moves along one border in opposite directions: each unit's province -> the other's
        self.opposite: dict[str, str] = {}


def adjudicate_plain(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                     rules: Rules) -> PhaseResult | None:
    """The phase's result, or None when it is not an everyday one (the general engine's then)."""
    if variant.frozen is not None or army_fleet.HOOK in variant.hooks:
        return None
    unit_at = position._by_province  # (the unit in each province: read for every order)
    read = read_plain(variant.board.plain, unit_at, orders)
    if read is None:
        return None
    game = PlainRules(read, unit_at, rules)
    answer = game.resolve(position.units)
    return _result(variant, position, orders, rules, game, answer)


def read_plain(plain: PlainMap, unit_at: Mapping[str, Unit],
               orders: Mapping[str, Sequence[Order]]) -> PlainOrders | None:
    """Every order into the tables, if every one is plain (as `_as_written` has it, or as it has it
    but for its own unit's kind or coast left out) and each unit has at most one; else None. One
    loop, every check written out: this is the phase's busiest code."""
    out = PlainOrders()
    given_at, dest, moves_to, supports, into = out.given, out.dest, out.moves_to, out.supports, out.into
    opposite = out.opposite
    army_steps, army_near, army_supports = plain.army_steps, plain.army_near, plain.army_supports
    fleet_reach, fleet_reach_coast = plain.fleet_reach, plain.fleet_reach_coast
    try:  # (a province a table does not hold, or no unit where one is named: not an everyday phase)
        for power, power_orders in orders.items():
            for given in power_orders:
                kind = type(given)
                if kind is not Move and kind is not Hold and kind is not SupportHold and kind is not SupportMove:
                    return None
                ref = given.unit  # type: ignore[union-attr]  # one of the four kinds above
                at = ref.location
                p = at.province
                unit = unit_at[p]
                # the power's own unit, named as it is or without its kind or coast (the general engine
                # reads those as the unit that is there, DATC 4.B.5); another kind or coast named is its to read
                if unit.power != power or ref.power is not None \
                        or (ref.kind is not unit.kind and ref.kind is not None) \
                        or (at.coast is not unit.location.coast and at.coast is not None):
                    return None
                given_at[p] = given
                if kind is Hold:
                    continue
                ukind = unit.kind
                coast = unit.location.coast
                if kind is Move:
                    to = given.to  # type: ignore[union-attr]
                    q = to.province
                    if ukind is _ARMY:
                        if to.coast is not None or given.via_convoy or q not in army_steps[p]:  # type: ignore[union-attr]
                            return None
                    elif ukind is _FLEET:
                        reach = (fleet_reach[p] if coast is None else fleet_reach_coast[(p, coast)])[q]
                        if given.via_convoy or given.route:  # type: ignore[union-attr]
                            return None
                        # the order names the way in (a coast to choose or to infer is the general engine's)
                        c = to.coast
                        if reach[0].coast is not c and (c is None or all(loc.coast is not c for loc in reach)):
                            return None
                    else:
                        return None
                    dest[p] = q
                    if dest.get(q) == p:
                        opposite[p], opposite[q] = q, p
                    rivals = moves_to.get(q)
                    if rivals is None:
                        moves_to[q] = [p]
                    else:
                        rivals.append(p)
                    continue
                # a support: of a unit that is there, into a province this unit could enter (no coast named)
                t = given.supported.location.province  # type: ignore[union-attr]
                target = unit_at[t]
                if t == p:
                    return None
                reachable: Container[str]  # where this unit could move: a set, or a fleet's table by province
                if ukind is _ARMY:
                    reachable = army_supports[p]
                elif ukind is _FLEET:
                    reachable = fleet_reach[p] if coast is None else fleet_reach_coast[(p, coast)]
                else:
                    return None
                if kind is SupportHold:
                    if t not in reachable:
                        return None
                else:
                    to = given.to  # type: ignore[union-attr]
                    q = to.province
                    if to.coast is not None or q == p or q == t or q not in reachable:
                        return None
                    # ... and the supported unit could make the move itself
                    tkind = target.kind
                    if tkind is _ARMY:
                        if q not in army_near[t]:
                            return None
                    elif tkind is not _FLEET or q not in (
                            fleet_reach[t] if target.location.coast is None
                            else fleet_reach_coast[(t, target.location.coast)]):
                        return None
                    into[p] = q
                supports[p] = t
    except KeyError:
        return None
    if len(given_at) != sum(map(len, orders.values())):
        return None  # a unit given two orders (the later replaced the earlier here)
    return out


def supports_given(supporters: Sequence[str] | None, holders: Mapping[str, _HasPower], r: Resolver[str],
                   exclude_power: str | None = None) -> int:
    """How many of these supports are given, any of `exclude_power`'s left out (the general engine's
    count too: `holders` are its entries there, the units here)."""
    if not supporters:
        return 0
    known = r.answers  # most supports are settled: read them without a call
    n = 0
    for s in supporters:
        if exclude_power is not None and holders[s].power == exclude_power:
            continue
        given = known.get(s)
        if given is None:
            given = r.resolve(s)
        if given:
            n += 1
    return n


def is_dislodged(p: str, dest: Mapping[str, str], moves_to: Mapping[str, Sequence[str]], r: Resolver[str]) -> bool:
    """Is the unit in p dislodged: it did not move away, and a move into p succeeded? (Both engines'.)"""
    if p in dest and r.resolve(p):
        return False
    known = r.answers
    for q in moves_to.get(p, ()):
        moves = known.get(q)
        if moves is None:
            moves = r.resolve(q)
        if moves:
            return True
    return False


class PlainRules:
    """movement.py's `MovementRules` for a phase of plain orders: the same decisions, every route by land."""
    __slots__ = ("dest", "given", "into", "matching", "moves_to", "opposite", "supports", "supports_of",
                 "unit_at")

    def __init__(self, read: PlainOrders, unit_at: Mapping[str, Unit], rules: Rules) -> None:
        self.unit_at = unit_at
        self.given, self.dest, self.moves_to = read.given, read.dest, read.moves_to
        self.supports, self.into, self.opposite = read.supports, read.into, read.opposite
        dest = self.dest
        # supported unit -> the supporters whose support matches what it does
        supports_of: dict[str, list[str]] = {}
        matching: set[str] = set()
        must_name = rules.support_coast is SupportCoast.MUST_NAME
        into, given = self.into, self.given
        for s, t in self.supports.items():
            to = into.get(s)
            if to is None:  # a support to hold: of a unit that does not move
                if t in dest:
                    continue
            # of a move: the one ordered (and, read strictly, naming the coast the move names)
            elif dest.get(t) != to or must_name and given[t].to.coast is not None:  # type: ignore[union-attr]
                continue
            matching.add(s)
            if t in supports_of:
                supports_of[t].append(s)
            else:
                supports_of[t] = [s]
        self.supports_of, self.matching = supports_of, matching

    def resolve(self, units: Sequence[Unit]) -> dict[str, bool]:
        """Every decision, each unit's in the order the general engine asks them (its entries')."""
        # (the resolver is not kept: it holds this object's methods, and a cycle of references would
        # leave every phase's tables to the garbage collector, which then runs far more often)
        r: Resolver[str] = Resolver(self.adjudicate, self.backup)
        r.settle_unasked(self._unopposed())
        known = r.answers
        for p in self.given:
            if p not in known:
                r.resolve(p)
        if len(known) < len(self.unit_at):  # units with no order hold; some may be attacked
            for u in units:
                p = u.location.province
                if p not in known:
                    r.resolve(p)
        return known

    def _unopposed(self) -> dict[str, bool]:
        """`MovementRules.settle_unopposed`'s answers: the decisions nothing else can change."""
        unit_at, dest, moves_to, supported = self.unit_at, self.dest, self.moves_to, self.supports_of
        unattacked = unit_at.keys() - dest.keys() - moves_to.keys()
        answers = dict.fromkeys(unattacked, True)
        answers.update(dict.fromkeys(unattacked & self.supports.keys() - self.matching, False))
        for p, to in dest.items():
            if to not in unit_at:
                if len(moves_to[to]) == 1:
                    answers[p] = True
                elif p not in supported:
                    answers[p] = False  # strength 1 against rivals into an empty province
            elif to not in dest and p not in supported:
                answers[p] = False  # strength 1 against a unit that stays
        return answers

    def _supports(self, p: str, r: Resolver[str], exclude_power: str | None = None) -> int:
        return supports_given(self.supports_of.get(p), self.unit_at, r, exclude_power)

    def adjudicate(self, p: str, r: Resolver[str]) -> bool:
        if p in self.dest:
            return self._move_succeeds(p, r)
        if p in self.supports:
            return p in self.matching and not self._dislodged(p, r) and self.cutter(p) is None
        return not self._dislodged(p, r)

    def _move_succeeds(self, p: str, r: Resolver[str]) -> bool:
        """`MovementRules._move_succeeds` with the strengths written in, asking the resolver the same
        questions in the same order (a guess read twice is recorded twice, as there)."""
        dest_of, unit_at, opposite = self.dest, self.unit_at, self.opposite
        dest = dest_of[p]
        occupant = unit_at.get(dest)
        # the attack strength
        if occupant is None or (dest in dest_of and p not in opposite and r.resolve(dest)):
            attack = 1 + self._supports(p, r)
        elif occupant.power == unit_at[p].power:
            return False  # a power cannot dislodge its own unit
        else:
            attack = 1 + self._supports(p, r, occupant.power)
        h2h = opposite.get(p)
        if h2h is not None:
            if attack <= 1 + self._supports(h2h, r):  # the defend strength of the unit coming the other way
                return False
        elif occupant is not None:  # the hold strength of the unit there (none there: 0)
            if dest in dest_of:
                if attack <= (0 if r.resolve(dest) else 1):
                    return False
            elif attack <= 1 + self._supports(dest, r):
                return False
        for q in self.moves_to[dest]:
            if q == p:
                continue
            # the prevent strength of each rival: none if it lost a head-to-head
            h2h = opposite.get(q)
            if (h2h is None or not r.resolve(h2h)) and attack <= 1 + self._supports(q, r):
                return False
        return True

    def _dislodged(self, p: str, r: Resolver[str]) -> bool:
        return is_dislodged(p, self.dest, self.moves_to, r)

    def cutter(self, p: str) -> str | None:
        """The province of a unit that cuts this support, if any: any other power's unit moving
        against it, but from where the supported move goes."""
        power, into, unit_at = self.unit_at[p].power, self.into.get(p), self.unit_at
        for q in self.moves_to.get(p, ()):
            if unit_at[q].power != power and q != into:
                return q
        return None

    def backup(self, cycle: Sequence[str], r: Resolver[str]) -> None:
        """With no convoy there is no paradox: a cycle the guesses cannot settle is circular movement."""
        for p in cycle:
            if p in self.dest:
                r.settle(p, True)


def _result(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules,
            game: PlainRules, answer: Mapping[str, bool]) -> PhaseResult:
    """`movement_results.movement_results` for a plain phase: the board after it, its dislodged units
    and standoffs; the outcomes bound to be worked out when first read."""
    unit_at, dest, given = game.unit_at, game.dest, game.given
    moved = [p for p in dest if answer[p]]
    dislodged_by: dict[str, str] = {}
    for p in moved:
        d = dest[p]
        if d in unit_at and not (d in dest and answer[d]):
            dislodged_by[d] = p
    # the board after the move: who stayed, and who arrived (where the unit there left or was dislodged)
    gone = dislodged_by.keys() | moved
    after_at = {p: u for p, u in unit_at.items() if p not in gone}
    for p in moved:
        u = unit_at[p]
        after_at[dest[p]] = Unit(u.power, u.kind, given[p].to)  # type: ignore[union-attr]
    if len(after_at) != len(unit_at) - len(dislodged_by):  # (as `Position` checks: never two units in one place)
        raise ValueError("two units in one province after the move")
    occupied = after_at.keys()
    opposite = game.opposite
    contested = {q for p, q in dest.items() if not answer[p] and p not in opposite}
    standoffs = tuple(sorted(contested - occupied))
    next_phase = variant.calendar.next_phase(position.phase)
    dislodged: list[DislodgedUnit] = []
    if dislodged_by:
        plain = variant.board.plain
        blocked = occupied | set(standoffs)
        for p, attacker in sorted(dislodged_by.items()):
            unit = unit_at[p]
            if rules.civil_disorder_disbands_dislodged and not orders.get(unit.power):
                dislodged.append(DislodgedUnit(unit, attacker, (), True))
                continue
            kind = unit.kind
            options = plain.army_retreats.get(p) if kind is _ARMY else \
                plain.fleet_retreats.get((p, unit.location.coast)) if kind is _FLEET else None
            if options is None:  # (a unit the map has no place for: asked of the board as the general engine does)
                options = retreat_options(variant.board, unit.kind, unit.location)
            dislodged.append(DislodgedUnit(unit, attacker, tuple(
                loc for loc in options if loc.province not in blocked and loc.province != attacker)))
    after = Position.following_at(position, next_phase, after_at, tuple(dislodged))
    outcomes = partial(explain, game, position.units, answer, dislodged_by)
    return PhaseResult(position.phase, outcomes, after, tuple(dislodged), standoffs)

