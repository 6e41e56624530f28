"""The everyday movement phase on a fast path: every order plain, convoys only plain ones, no A/F, no ice.

Most phases of a game are such (all of bench/adjudicate.py's): each unit given at most one order,
a hold, a move to the next province or a support that `movement_orders._as_written` takes as
written (or would, but for the kind or coast of the power's own unit left out: "Par - Bur"). For
them this module reads the orders straight into flat tables indexed by province id (`PlainMap`'s:
who moves where, who supports whom; no object per order), checking each against the map's rows,
settles what nothing can change, asks the resolver about the rest (its decisions keyed by the id of
the unit's province), and builds the `PhaseResult` the general engine (movement.py) would, with the
names back in it, every outcome again worked out only when first read (`fast_outcomes`). A convoy
is taken when nothing can undo it (`fast_convoys`: its fleets at sea, legal, matched and never to be dislodged).
Anything else (another convoy, a coast to infer, an order for a unit that is not there or not the
power's, two orders for one unit) and it answers None before deciding anything: the general engine
takes the phase.

The rules here are movement.py's with every route fixed before the phase is decided: a move always
has its path (by land, or by a plain convoy), a head-to-head is simply two moves by land along one
border, no support is kept by the 1982 convoy rule.
tests/test_engine_fast_path.py plays both engines on seeded random phases and wants equal results.
In the tables below -1 stands for none (no move, no support, no unit coming the other way).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import partial
from typing import Protocol

from . import army_fleet
from .fast_convoys import convoys_are_plain
from .fast_outcomes import explain
from .geography import Location, UnitKind
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from .outcomes import PhaseResult
from .plain_map import PlainMap, retreat_options
from .position import DislodgedUnit, Position, Unit
from .resolver import Resolver
from .rules import Rules, SupportCoast
from .seasonal import shut_now
from .variant import Variant

_ARMY, _FLEET = UnitKind.ARMY, UnitKind.FLEET


class _HasPower(Protocol):  # an entry of the general engine
    @property
    def power(self) -> str: ...


class PlainOrders:
    """A phase's orders as lists indexed by the id of the province of the unit given each (`read_plain`)."""
    __slots__ = ("by_sea", "convoys", "dest", "given", "idle", "into", "movers", "moves_to", "opposite", "power_of",
                 "supporters", "supports", "supports_by_sea")

    def __init__(self, provinces: int) -> None:
        self.given: dict[int, Order] = {}  # every order as written, in the order given
        self.power_of: list[str | None] = [None] * provinces  # the power of the unit in each province
        self.idle: list[int] = []  # the units given no order, in the position's order
        self.dest = [-1] * provinces  # a moving unit -> the province it moves to
        self.movers: list[int] = []  # the moving units, in the order given
        self.moves_to: list[list[int] | None] = [None] * provinces  # a province -> the units moving there
        self.supports = [-1] * provinces  # a supporting unit -> the unit it supports
        self.supporters: list[int] = []  # the supporting units, in the order given
        self.into = [-1] * provinces  # a unit supporting a move -> where the move goes
        # two moves along one border in opposite directions: each unit's province -> the other's
        self.opposite = [-1] * provinces
        # convoys (`fast_convoys` checks them once all are read): the fleets ordered to convoy, the
        # armies moving beyond their neighbours, the units supporting such a move
        self.convoys: list[int] = []
        self.by_sea: set[int] = set()
        self.supports_by_sea: list[int] = []


def adjudicate_plain(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                     rules: Rules, disorder: Collection[str] | None = None) -> PhaseResult | None:
    """The phase's result, or None when it is not an everyday one (the general engine's then)."""
    if variant.frozen is not None or army_fleet.HOOK in variant.hooks or variant.owner_edges \
            or variant.weak_straits or variant.half_strength_borders or shut_now(variant, position.phase):
        return None
    read = read_plain(variant.board.plain, position, orders)
    if read is None or not convoys_are_plain(variant.board, position, rules, read):
        return None
    game = PlainRules(read, rules)
    answer = game.resolve()
    return _result(variant, position, orders, rules, game, answer, disorder)


def in_disorder(position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules,
                disorder: Collection[str] | None) -> frozenset[str]:
    """The powers whose dislodged units are disbanded without a retreat: those given, else (the
    rulebooks' "fails to submit orders") every power with units that sent no orders at all, where the
    rules disband them."""
    if disorder is not None:
        return frozenset(disorder)
    if not rules.civil_disorder_disbands_dislodged:
        return frozenset()
    return frozenset(p for p in {u.power for u in position.units} if not orders.get(p))


def read_plain(plain: PlainMap, position: Position, orders: Mapping[str, Sequence[Order]]) -> PlainOrders | None:
    """Every order into the tables, if every one is plain (as `_as_written` has it, or as it has it
    but for its own unit's kind or coast left out; a convoy, or an army's move beyond its neighbours,
    listed for `fast_convoys` to judge) and each unit has at most one; else None. One loop, every
    check written out: this is the phase's busiest code."""
    unit_at = position._by_province  # (the unit in each province: read for every order)
    id_of, coast_id = plain.id_of, plain.coast_id
    out = PlainOrders(len(id_of))
    given_at, power_of, dest, movers, moves_to = out.given, out.power_of, out.dest, out.movers, out.moves_to
    supports, supporters, into, opposite = out.supports, out.supporters, out.into, out.opposite
    by_sea = out.by_sea
    army_steps, army_near, army_supports = plain.army_steps, plain.army_near, plain.army_supports
    fleet_reach, fleet_ways = plain.fleet_reach, plain.fleet_ways
    try:  # (a province the map does not hold, or no unit where one is named: not an everyday phase)
        for power, power_orders in orders.items():
            for given in power_orders:
                # (each kind told by isinstance, the classes being final: compiled, every field below is then
                # read straight from the object, not looked up by name)
                if not isinstance(given, (Move, Hold, SupportHold, SupportMove, Convoy)):
                    return None
                ref: UnitRef = given.unit
                at: Location = ref.location
                unit: Unit = unit_at[at.province]
                ukind, coast = unit.kind, unit.location.coast
                # the power's own unit, named as it is or without its kind or coast (the general engine
                # reads those as the unit that is there, DATC 4.B.5); another kind or coast named is its to read
                if unit.power != power or ref.power is not None \
                        or (ref.kind is not ukind and ref.kind is not None) \
                        or (at.coast is not coast and at.coast is not None):
                    return None
                p = id_of[at.province]
                given_at[p] = given
                power_of[p] = power
                if isinstance(given, Hold):
                    continue
                if isinstance(given, Convoy):
                    out.convoys.append(p)
                    continue
                # where a fleet is: its province, or its coast of it
                place = p if coast is None else coast_id[(p, coast)]
                if isinstance(given, Move):
                    to: Location = given.to
                    q = id_of[to.province]
                    if ukind is _ARMY:
                        if to.coast is not None:
                            return None
                        if not army_steps[p][q]:
                            if army_near[p][q]:
                                return None  # a neighbour it may not walk to, or (a convoy?) the general engine's
                            by_sea.add(p)  # beyond its neighbours: by a convoy, if a plain one (`fast_convoys`)
                        elif given.via_convoy:
                            return None
                    elif ukind is _FLEET:
                        reach = fleet_ways[place][q]
                        if given.via_convoy or given.route:
                            return None
                        # the order names the way in (a coast to choose or to infer is the general engine's)
                        c = to.coast
                        if reach[0].coast is not c and (c is None or all(loc.coast is not c for loc in reach)):
                            return None
                    else:
                        return None
                    dest[p] = q
                    movers.append(p)
                    if dest[q] == p and not (by_sea and (p in by_sea or q in by_sea)):  # (by land, both)
                        opposite[p], opposite[q] = q, p
                    rivals = moves_to[q]
                    if rivals is None:
                        moves_to[q] = [p]
                    else:
                        rivals.append(p)
                    continue
                # a support: of a unit that is there, into a province this unit could enter (no coast named)
                named = given.supported.location.province
                target: Unit = unit_at[named]
                t = id_of[named]
                if t == p:
                    return None
                if ukind is _ARMY:
                    reachable = army_supports[p]  # (a row: where this unit could move)
                elif ukind is _FLEET:
                    reachable = fleet_reach[place]
                else:
                    return None
                if isinstance(given, SupportHold):
                    if not reachable[t]:
                        return None
                else:
                    to = given.to
                    q = id_of[to.province]
                    if to.coast is not None or q in (p, t) or not reachable[q]:
                        return None
                    # ... and the supported unit could make the move itself
                    tkind = target.kind
                    if tkind is _ARMY:
                        if not army_near[t][q]:
                            out.supports_by_sea.append(p)  # a move it could make by convoy only (`fast_convoys`)
                    elif tkind is not _FLEET or not fleet_reach[
                            t if target.location.coast is None else coast_id[(t, target.location.coast)]][q]:
                        return None
                    into[p] = q
                supports[p] = t
                supporters.append(p)
        if len(given_at) != sum(map(len, orders.values())):
            return None  # a unit given two orders (the later replaced the earlier here)
        if len(given_at) < len(unit_at):
            for u in position.units:
                p = id_of[u.location.province]
                if p not in given_at:
                    out.idle.append(p)
                    power_of[p] = u.power
    except KeyError:
        return None
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
    __slots__ = ("by_sea", "dest", "given", "idle", "into", "matching", "movers", "moves_to", "opposite",
                 "power_of", "supports", "supports_of")

    def __init__(self, read: PlainOrders, rules: Rules) -> None:
        self.given, self.power_of, self.idle = read.given, read.power_of, read.idle
        self.dest, self.movers, self.moves_to = read.dest, read.movers, read.moves_to
        self.supports, self.into, self.opposite = read.supports, read.into, read.opposite
        self.by_sea = read.by_sea  # the armies moving by convoy
        dest, supports, into, given = self.dest, self.supports, self.into, self.given
        # supported unit -> the supporters whose support matches what it does, in the order given
        supports_of: list[list[int] | None] = [None] * len(dest)
        matching = [False] * len(dest)
        must_name = rules.support_coast is SupportCoast.MUST_NAME
        for s in read.supporters:
            t, to = supports[s], into[s]
            if to < 0:  # a support to hold: of a unit that does not move
                if dest[t] >= 0:
                    continue
            # of a move: the one ordered (and, read strictly, naming the coast the move names)
            elif dest[t] != to or must_name and given[t].to.coast is not None:  # type: ignore[union-attr]
                continue
            matching[s] = True
            others = supports_of[t]
            if others is None:
                supports_of[t] = [s]
            else:
                others.append(s)
        self.supports_of, self.matching = supports_of, matching

    def resolve(self) -> dict[int, bool]:
        """Every decision, each unit's in the order the general engine asks them (its entries')."""
        # (the resolver is not kept: it holds this object's methods, and a cycle of references would
        # leave every phase's tables to the garbage collector, which then runs far more often)
        r: Resolver[int] = Resolver(self.adjudicate, self.backup)
        r.settle_unasked(self._unopposed())
        known = r.answers
        for p in self.given:
            if p not in known:
                r.resolve(p)
        for p in self.idle:  # units with no order hold; some may be attacked
            if p not in known:
                r.resolve(p)
        return known

    def _unopposed(self) -> dict[int, bool]:
        """`MovementRules.settle_unopposed`'s answers: the decisions nothing else can change."""
        dest, moves_to, power_of, supported = self.dest, self.moves_to, self.power_of, self.supports_of
        supports, matching = self.supports, self.matching
        answers: dict[int, bool] = {}
        for held in (self.given, self.idle):
            for p in held:  # a unit that stays and is not attacked: holds, and gives a support that matches
                if dest[p] < 0 and moves_to[p] is None:
                    answers[p] = supports[p] < 0 or matching[p]
        for p in self.movers:
            to = dest[p]
            if power_of[to] is None:
                if len(moves_to[to] or ()) == 1:
                    answers[p] = True
                elif supported[p] is None:
                    answers[p] = False  # strength 1 against rivals into an empty province
            elif dest[to] < 0 and supported[p] is None:
                answers[p] = False  # strength 1 against a unit that stays
        return answers

    def _supports(self, p: int, r: Resolver[int], exclude_power: str | None = None) -> int:
        """How many supports of the unit in p are given, any of `exclude_power`'s left out: `supports_given`
        for powers kept by province id, not on entries (one call fewer on the phase's busiest question)."""
        supporters = self.supports_of[p]
        if supporters is None:
            return 0
        known, power_of = r.answers, self.power_of  # most supports are settled: read them without a call
        n = 0
        for s in supporters:
            if exclude_power is None or power_of[s] != exclude_power:
                given = known.get(s)
                n += r.resolve(s) if given is None else given
        return n

    def adjudicate(self, p: int, r: Resolver[int]) -> bool:
        if self.dest[p] >= 0:
            return self._move_succeeds(p, r)
        if self.supports[p] >= 0:
            return self.matching[p] and not self._dislodged(p, r) and self.cutter(p) < 0
        return not self._dislodged(p, r)

    def _move_succeeds(self, p: int, r: Resolver[int]) -> bool:
        """`MovementRules._move_succeeds` with the strengths written in, asking the resolver the same
        questions in the same order (a guess read twice is recorded twice, as there)."""
        dest_of, power_of, opposite = self.dest, self.power_of, self.opposite
        dest = dest_of[p]
        occupant = power_of[dest]  # (the power of the unit there, if any)
        # the attack strength
        if occupant is None or (dest_of[dest] >= 0 and opposite[p] < 0 and r.resolve(dest)):
            attack = 1 + self._supports(p, r)
        elif occupant == power_of[p]:
            return False  # a power cannot dislodge its own unit
        else:
            attack = 1 + self._supports(p, r, occupant)
        h2h = opposite[p]
        if h2h >= 0:
            if attack <= 1 + self._supports(h2h, r):  # the defend strength of the unit coming the other way
                return False
        elif occupant is not None:  # the hold strength of the unit there (none there: 0)
            if dest_of[dest] >= 0:
                if attack <= (0 if r.resolve(dest) else 1):
                    return False
            elif attack <= 1 + self._supports(dest, r):
                return False
        for q in self.moves_to[dest] or ():
            if q == p:
                continue
            # the prevent strength of each rival: none if it lost a head-to-head
            h2h = opposite[q]
            if (h2h < 0 or not r.resolve(h2h)) and attack <= 1 + self._supports(q, r):
                return False
        return True

    def _dislodged(self, p: int, r: Resolver[int]) -> bool:
        """`is_dislodged` on ids: it did not move away, and a move into p succeeded."""
        if self.dest[p] >= 0 and r.resolve(p):
            return False
        known = r.answers
        for q in self.moves_to[p] or ():
            moves = known.get(q)  # (settled, most often: read without a call)
            if moves or moves is None and r.resolve(q):
                return True
        return False

    def cutter(self, p: int) -> int:
        """The province of a unit that cuts this support (-1: none): any other power's unit moving
        against it, but from where the supported move goes."""
        power, into, power_of = self.power_of[p], self.into[p], self.power_of
        for q in self.moves_to[p] or ():
            if power_of[q] != power and q != into:
                return q
        return -1

    def backup(self, cycle: Sequence[int], r: Resolver[int]) -> None:
        """With no convoy there is no paradox: a cycle the guesses cannot settle is circular movement."""
        for p in cycle:
            if self.dest[p] >= 0:
                r.settle(p, True)


def _result(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules,
            game: PlainRules, answer: dict[int, bool], disorder: Collection[str] | None) -> PhaseResult:
    """`movement_results.movement_results` for a plain phase: the board after it, its dislodged units
    and standoffs, by name again; the outcomes bound to be worked out when first read."""
    plain = variant.board.plain
    names, unit_at = plain.names, position._by_province
    dest, given, power_of = game.dest, game.given, game.power_of
    moved: list[int] = []
    contested: set[str] = set()  # where a move failed, but not a head-to-head's
    opposite = game.opposite
    for p in game.movers:
        if answer[p]:
            moved.append(p)
        elif opposite[p] < 0:
            contested.add(names[dest[p]])
    dislodged_by: dict[int, int] = {}
    for p in moved:
        d = dest[p]
        if power_of[d] is not None and not (dest[d] >= 0 and answer[d]):
            dislodged_by[d] = p
    # the board after the move: who stayed, and who arrived (where the unit there left or was dislodged)
    # (a copy less the units gone, made in C: the same table, in the same order, as filtering it)
    after_at = dict(unit_at)
    for p in moved:
        del after_at[names[p]]
    for p in dislodged_by:
        del after_at[names[p]]
    for p in moved:
        u = unit_at[names[p]]
        after_at[names[dest[p]]] = Unit(u.power, u.kind, given[p].to)  # type: ignore[union-attr]
    if len(after_at) != len(unit_at) - len(dislodged_by):  # (as `Position` checks: never two units in one place)
        raise ValueError("two units in one province after the move")
    # (the few contested provinces looked up in the table: a set less the table's keys is made in
    # a generic subtraction that copies the set and walks every key)
    standoffs = tuple(sorted([c for c in contested if c not in after_at]))
    next_phase = variant.calendar.next_phase(position.phase)
    dislodged: list[DislodgedUnit] = []
    if dislodged_by:
        blocked = after_at.keys() | set(standoffs)
        gone = in_disorder(position, orders, rules, disorder)
        # a unit dislodged by a convoyed army may retreat to where it came from, where the rules say so
        by_sea = game.by_sea if rules.retreat_to_convoyed_attackers_origin else ()
        for d in sorted(dislodged_by):  # (ids are in the order of the names)
            a = dislodged_by[d]
            closed = names[a] if a not in by_sea else ""  # (the attacker's province, unless it came by sea)
            unit = unit_at[names[d]]
            if unit.power in gone:
                dislodged.append(DislodgedUnit(unit, names[a], (), True))
                continue
            kind, coast = unit.kind, unit.location.coast
            place = d if coast is None else plain.coast_id.get((d, coast))
            options = plain.army_retreats[d] if kind is _ARMY else \
                plain.fleet_retreats[place] if kind is _FLEET and place is not None else None
            if options is None:  # (a unit the map has no place for: asked of the board as the general engine does)
                options = retreat_options(variant.board, unit.kind, unit.location)
            dislodged.append(DislodgedUnit(unit, names[a], tuple(
                loc for loc in options if loc.province not in blocked and loc.province != closed)))
    after = Position.following_at(position, next_phase, after_at, tuple(dislodged))
    outcomes = partial(explain, game, names, position, answer, dislodged_by)
    return PhaseResult(position.phase, outcomes, after, tuple(dislodged), standoffs)
