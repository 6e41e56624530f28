"""Movement: the rules the resolver asks about (paths, strengths, cuts), and the results.

Every decision is "does the order of the unit in province P succeed?": a move
moves, a support is given (not cut), a convoying fleet is not dislodged. Strengths
follow the DATC's section 5: attack, hold, prevent and defend strength.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter
from typing import cast

from . import army_fleet, cape, dummies, straits
from .convoy_routes import route_exists
from .fast_movement import adjudicate_plain, in_disorder, is_dislodged, supports_given
from .movement_orders import Entry, MovementOrders, Route, normalise
from .movement_results import movement_results
from .orders import Convoy, Move, Order, SupportHold, SupportMove
from .outcomes import Outcome, PhaseResult
from .position import Position
from .resolver import Resolver
from .rules import ConvoyParadox, Rules, SupportCoast
from .variant import Variant

_POWER = attrgetter("power")


class MovementRules:
    """The rule side of movement adjudication for one phase."""

    def __init__(self, variant: Variant, position: Position, orders: MovementOrders, rules: Rules) -> None:
        self.variant = variant
        self.board = variant.board
        self.position = position
        self.rules = rules
        self.entries = orders.entries
        # Convoyed moves the Szykman rule has declared disrupted.
        self.paradox_broken: set[str] = set()
        self.moves_to: dict[str, list[str]] = {}
        # supported decision -> the supporters whose support matches what was ordered (fixed for the phase)
        self.supports_of: dict[str, list[str]] = {}
        self.matching_supports: set[str] = set()
        self.convoys_for: dict[str, set[str]] = {}  # army's province -> convoying seas
        # An A/F whose army lands from where it is: its fleet may move only if the landing succeeds.
        self.army_of: dict[str, str] = {}
        # Variant text (Abstraction II): when movement cannot be adjudicated, the units stand.
        self.paradox_stands = "circular_reasoning_stands" in variant.hooks
        self.stood: set[str] = set()  # moves that stand because of it
        self.with_af = army_fleet.enabled(variant)
        self.dest: dict[str, str] = {}  # a moving unit's key -> the province it moves to
        self.target_of: dict[str, str] = {}  # supporter -> the decision it supports
        convoys: list[tuple[Entry, Convoy]] = []
        dest, moves_to, target_of, with_af = self.dest, self.moves_to, self.target_of, self.with_af
        for p, e in self.entries.items():
            o = e.order
            kind = type(o)  # (exact kinds: a normalised order is one of five classes, none subclassed)
            if kind is Move:
                to = o.to.province  # type: ignore[union-attr]
                dest[p] = to
                if to in moves_to:
                    moves_to[to].append(p)
                else:
                    moves_to[to] = [p]
                if e.route is Route.DISEMBARK and e.carrier is None:
                    self.army_of[e.unit.location.province] = p
            elif kind is SupportHold or kind is SupportMove:
                target_of[p] = self._supported_key(e) if with_af else o.supported.location.province  # type: ignore[union-attr]
            elif kind is Convoy:
                convoys.append((e, cast(Convoy, o)))
        for e, o in convoys:
            if self.convoy_matches(e):
                self.convoys_for.setdefault(o.army.location.province, set()).add(e.province)
        # 1982, XII.5: supports of an action in a sea where a fleet convoys are not cut by convoyed armies
        self.convoying_seas: frozenset[str] = frozenset(
            s for seas in self.convoys_for.values() for s in seas
        ) if rules.convoy_paradox is ConvoyParadox.CONVOYING_SEA_SUPPORT_NOT_CUT else frozenset()
        supports_of = self.supports_of
        for p, target in target_of.items():
            if self.support_matches(p):
                self.matching_supports.add(p)
                if target in supports_of:
                    supports_of[target].append(p)
                else:
                    supports_of[target] = [p]
        # Two moves along one border in opposite directions: p -> the province of the other unit.
        self.opposite = {p: dest for p, dest in self.dest.items() if self.dest.get(dest) == p}
        # Moves across a weak strait: by land, of no strength of their own (judge/engine/straits.py).
        self.weak = frozenset(p for p, to in self.dest.items() if straits.crosses(variant.weak_straits, p, to)) \
            if variant.weak_straits else frozenset()
        # Moves round the Cape, of half strength (judge/engine/cape.py): across it, or a convoyed army's
        # landing only from across it; with the above, every move not of a unit's full strength.
        borders = variant.half_strength_borders
        self.half = frozenset(p for p, to in self.dest.items() if cape.crosses(borders, p, to))
        self.half_by_sea = frozenset(
            p for p, seas in self.convoys_for.items() if p in self.dest
            and cape.lands_round_the_cape(borders, seas, self.dest[p], self.board.fleet_province_neighbours)
        ) if borders else frozenset()
        self.weak = self.weak | self.half | self.half_by_sea

    def settle_unopposed(self, r: Resolver[str]) -> None:
        """Settle at once the decisions nothing else can change: a move by land into an empty province
        nobody else moves to (it moves), a unit nobody moves against (it holds, or its support is given
        if it matches), and a move by land with no support that cannot beat what it meets whatever
        else happens (it fails). Most of a phase's orders are such; the resolver never asks about them.
        Only on the everyday board: a variant's A/Fs leave every decision to the resolver."""
        if self.with_af:
            return
        entries, moves_to = self.entries, self.moves_to
        # the units that stay, nobody moving against them (set operations, in C): they hold, and
        # their supports are given, if they match
        unattacked = entries.keys() - self.dest.keys() - moves_to.keys()
        answers = dict.fromkeys(unattacked, True)
        answers.update(dict.fromkeys(unattacked & self.target_of.keys() - self.matching_supports, False))
        supported = self.supports_of
        for p, to in self.dest.items():
            if entries[p].route is not Route.LAND:
                continue
            rivals = moves_to[to]
            if to not in entries:
                if len(rivals) == 1:
                    answers[p] = True
                elif p not in supported and all(entries[q].route is Route.LAND and q not in self.weak
                                                for q in rivals):
                    # strength 1 against rivals by land into an empty province: each prevents with 1 or more
                    answers[p] = False
            elif to not in self.dest and p not in supported:
                # strength 1 (or 0) against a unit that stays: it holds with 1 or more
                answers[p] = False
        r.settle_unasked(answers)

    # -- matching (static) ------------------------------------------------------------
    def _supported_key(self, supporter: Entry) -> str:
        """The decision a support is for: a unit's, or (a move to a coast) the army aboard an A/F."""
        o = supporter.order
        assert isinstance(o, (SupportHold, SupportMove))  # only supports are asked about
        p = o.supported.location.province
        if self.with_af and isinstance(o, SupportMove) and army_fleet.army_key(p) in self.entries \
                and not self.board.province(o.to.province).is_sea:
            return army_fleet.army_key(p)
        return p

    def convoy_matches(self, e: Entry) -> bool:
        o = e.order
        if not isinstance(o, Convoy):
            return False
        army = self.entries.get(o.army.location.province)
        return (army is not None and isinstance(army.order, Move) and army.route is not Route.LAND
                and army.order.to.province == o.to.province)

    def support_matches(self, p: str) -> bool:
        """Does the support ordered for the unit in p match what the supported unit does?"""
        o = self.entries[p].order
        target = self.entries.get(self.target_of[p])
        if target is None:
            return False
        if type(o) is SupportHold:
            if isinstance(target.order, Move):
                return False
            return self.rules.impossible_order_can_be_supported or target.rejected_reason is None
        move = target.order
        if not isinstance(o, SupportMove) or not isinstance(move, Move) or move.to.province != o.to.province:
            return False
        move_coast = move.to.coast
        if self.rules.support_coast is SupportCoast.MUST_NAME and move_coast is not None:
            return o.to.coast == move_coast
        if self.rules.support_coast is SupportCoast.MATCH_IF_GIVEN and o.to.coast is not None:
            return move_coast in (None, o.to.coast)
        return True

    # -- paths ------------------------------------------------------------------------
    def convoy_path(self, p: str, r: Resolver[str]) -> bool:
        """Does a chain of undislodged fleets carry the army in p to its destination?"""
        if p in self.paradox_broken:
            return False
        seas = self.convoys_for.get(p, set())
        return route_exists(self.board, p, self.dest[p], seas, usable=lambda sea: r.resolve(sea))

    def by_convoy(self, p: str, r: Resolver[str]) -> bool:
        route = self.entries[p].route
        if route in (Route.CONVOY, Route.DISEMBARK):
            return True
        if route is Route.CONVOY_ELSE_LAND:
            return self.convoy_path(p, r)
        return False

    def has_path(self, p: str, r: Resolver[str]) -> bool:
        route = self.entries[p].route
        if route is Route.LAND:
            return True
        if route is Route.DISEMBARK:
            # Independent of the fleet element, unless it lands from where the A/F moves to.
            carrier = self.entries[p].carrier
            return p not in self.paradox_broken and (carrier is None or r.resolve(carrier))
        if route is Route.CONVOY:
            return self.convoy_path(p, r)
        # Convoy, else land: the land route stands, unless a paradox has stopped the army.
        return p not in self.paradox_broken

    def head_to_head(self, p: str, r: Resolver[str]) -> str | None:
        """The province of the unit coming the other way along the same border, if any."""
        dest = self.opposite.get(p)
        if dest is None:
            return None
        if self.by_convoy(p, r) or self.by_convoy(dest, r):
            return None
        return dest

    # -- strengths --------------------------------------------------------------------
    def _supports(self, p: str, r: Resolver[str], exclude_power: str | None = None) -> int:
        return supports_given(self.supports_of.get(p), self.entries, r, exclude_power)

    def _own_strength(self, p: str, r: Resolver[str]) -> float:
        """A move's strength before its supports: 1, none by land across a weak strait, a half round the
        Cape."""
        by_sea = self.by_convoy(p, r)
        if p in (self.half_by_sea if by_sea else self.half):
            return cape.STRENGTH
        return straits.STRENGTH if not by_sea and straits.crosses(self.variant.weak_straits, p, self.dest[p]) else 1

    def hold_strength(self, province: str, r: Resolver[str]) -> int:
        if province not in self.entries:
            return 0
        if province in self.dest:
            return 0 if r.resolve(province) or self.ferried_away(province, r) else 1
        return 1 + self._supports(province, r)

    def ferried_away(self, p: str, r: Resolver[str]) -> bool:
        """Fast Ferry (army_fleet): an army its own ferry carries has left home, landed or not."""
        e = self.entries[p]
        if not self.with_af or e.route is not Route.CONVOY or p in self.stood or not self.convoy_path(p, r):
            return False
        return any(self.entries[s].power == e.power for s in self.convoys_for.get(p, ()) if r.resolve(s))

    # (`has_path` and `head_to_head` are asked only of a move not by land, or in a head-to-head at all:
    # most are neither, and these are the resolver's busiest lines)
    def attack_strength(self, p: str, r: Resolver[str]) -> float:
        if self.entries[p].route is not Route.LAND and not self.has_path(p, r):
            return 0
        dest = self.dest[p]
        occupant = self.entries.get(dest)
        own = self._own_strength(p, r) if self.weak else 1
        if occupant is None or (dest in self.dest and (p not in self.opposite or self.head_to_head(p, r) is None)
                                and r.resolve(dest)):
            return own + self._supports(p, r)
        if occupant.power == self.entries[p].power:
            return 0  # a power cannot dislodge its own unit
        if self.variant.is_frozen(dest, self.position.phase):
            return 0  # nothing in the ice can be dislodged (a variant's frozen spaces)
        return own + self._supports(p, r, exclude_power=occupant.power)

    def defend_strength(self, p: str, r: Resolver[str]) -> float:
        return (self._own_strength(p, r) if self.weak else 1) + self._supports(p, r)

    def prevent_strength(self, p: str, r: Resolver[str]) -> float:
        if self.entries[p].route is not Route.LAND and not self.has_path(p, r):
            return 0
        h2h = self.head_to_head(p, r) if p in self.opposite else None
        if h2h is not None and r.resolve(h2h):
            return 0
        return (self._own_strength(p, r) if self.weak else 1) + self._supports(p, r)

    def _contends(self, p: str, r: Resolver[str]) -> bool:
        """Is the move from p in its destination at all (a path, not beaten coming the other way)? Asked
        of a rival only by a move of no strength (a weak strait's), which a rival of no strength stops."""
        if self.entries[p].route is not Route.LAND and not self.has_path(p, r):
            return False
        h2h = self.head_to_head(p, r) if p in self.opposite else None
        return h2h is None or not r.resolve(h2h)

    # -- the decisions ----------------------------------------------------------------
    def adjudicate(self, p: str, r: Resolver[str]) -> bool:
        if p in self.dest:
            return self._move_succeeds(p, r)
        if p in self.target_of:
            return self._support_given(p, r)
        # convoys, holds: the order stands unless the unit is dislodged
        return not self._dislodged(p, r)

    def _move_succeeds(self, p: str, r: Resolver[str]) -> bool:
        dest = self.dest[p]
        if p in self.army_of and not r.resolve(self.army_of[p]):
            return False  # the army failed to land: the fleet may not leave it to drown
        attack = self.attack_strength(p, r)
        if attack == 0 and (p not in self.weak or not self.has_path(p, r)):
            return False
        # (a move across a weak strait may have no strength: it moves only where nothing stays or contends)
        h2h = self.head_to_head(p, r) if p in self.opposite else None
        if h2h is not None:
            # (beaten, the unit coming the other way stays with 1: more than a weak strait's move of one support)
            if attack <= max(self.defend_strength(h2h, r), 1):
                return False
        elif attack <= (hold := self.hold_strength(dest, r)) and (attack or hold):
            return False
        return not any(q != p and attack <= self.prevent_strength(q, r) and (attack or self._contends(q, r))
                       for q in self.moves_to.get(dest, ()))

    def _dislodged(self, p: str, r: Resolver[str]) -> bool:
        return is_dislodged(p, self.dest, self.moves_to, r)

    def _support_given(self, p: str, r: Resolver[str]) -> bool:
        if p not in self.matching_supports:
            return False
        if self.convoying_seas:
            # the 1982 rule takes precedence over the dislodge rule (DATC 6.F.17, 6.F.18)
            if any(r.resolve(q) for q in self.moves_to.get(p, ()) if not self._kept_by_convoy_rule(p, q, r)):
                return False
        elif self._dislodged(p, r):
            return False
        return self.cutter(p, r) is None

    def _kept_by_convoy_rule(self, p: str, q: str, r: Resolver[str]) -> bool:
        """1982, XII.5: the convoyed army from q does not cut the support of p, an action in a body of
        water that contains a convoying fleet."""
        if not self.convoying_seas:
            return False
        o = self.entries[p].order
        action = o.to.province if isinstance(o, SupportMove) else \
            o.supported.location.province if isinstance(o, SupportHold) else None
        return action in self.convoying_seas and self.by_convoy(q, r)

    def cutter(self, p: str, r: Resolver[str]) -> str | None:
        """The province of a unit that cuts this support, if any."""
        e = self.entries[p]
        o = e.order
        into = o.to.province if isinstance(o, SupportMove) else None
        for q in self.moves_to.get(p, ()):
            attacker = self.entries[q]
            if attacker.power == e.power or attacker.province == into or self._kept_by_convoy_rule(p, q, r):
                continue
            if q in self.half and not self.by_convoy(q, r):
                continue  # (a move round the Cape cuts no support: cape.py)
            if self.has_path(q, r) and not (q in self.weak and self._own_strength(q, r) + self._supports(q, r) == 0):
                return q  # (a move across a weak strait with no support cuts nothing: straits.py)
        return None

    def backup(self, cycle: Sequence[str], r: Resolver[str]) -> None:
        """Settle a cycle the guesses could not: Szykman for convoys, else circular movement."""
        landings = [p for p in cycle if self.entries[p].carrier is not None]
        if landings:
            # The A/F exception: a landing that needs its A/F's move may not decide that move.
            self.paradox_broken.update(landings)
            return
        fleets = [o for p in cycle if isinstance(o := self.entries[p].order, Convoy)]
        if fleets and self.paradox_stands:
            for p in cycle:
                if isinstance(self.entries[p].order, Move):
                    self.stood.add(p)
                    r.settle(p, False)
            return
        if fleets:
            # Szykman: the armies convoyed through the paradox neither move nor cut support.
            self.paradox_broken.update(o.army.location.province for o in fleets)
            return
        moves = [p for p in cycle if isinstance(self.entries[p].order, Move)]
        supports = [p for p in cycle if p in self.target_of]
        if supports and any(p in self.weak for p in moves):
            # A move across a weak strait cuts a support only if supported itself (straits.py): two such
            # moves each supported by the unit the other attacks cut, or not, as the other's support is
            # given. DPjudge cuts in the order it reads the orders; here the supports are all given.
            for p in supports:
                r.settle(p, True)
            return
        for p in moves:
            r.settle(p, True)  # circular movement (swaps by convoy included): everyone moves


def adjudicate_movement(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                        rules: Rules, disorder: Collection[str] | None = None) -> PhaseResult:
    """The everyday phase on the fast path (judge.engine.fast_movement), any other by the general engine.
    `disorder`: the powers whose dislodged units are disbanded (None: `in_disorder`'s book reading)."""
    disorder = dummies.disorder_with_dummies(variant, position, orders, rules, disorder)
    result = None if dummies.orders_move_immobile(variant, orders) else adjudicate_plain(
        variant, position, orders, rules, disorder)
    return result if result is not None else adjudicate_general(variant, position, orders, rules, disorder)


def adjudicate_general(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]],
                       rules: Rules, disorder: Collection[str] | None = None) -> PhaseResult:
    """Any movement phase: A/Fs, ice, convoys, orders to read more closely, orders to reject."""
    boarded: list[Outcome] = []
    if army_fleet.enabled(variant):
        position, orders, boarded = army_fleet.embark(variant, position, orders)  # before movement
    normalised = normalise(variant, position, orders, rules)
    game = MovementRules(variant, position, normalised, rules)
    r: Resolver[str] = Resolver(game.adjudicate, game.backup)
    game.settle_unopposed(r)
    known = r.answers
    for p in game.entries:
        if p not in known:
            r.resolve(p)
    return movement_results(variant, position, game, r, (*boarded, *normalised.rejected),
                            in_disorder(position, orders, rules, disorder))
