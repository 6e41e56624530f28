"""Typed outcomes: what happened to each order, and why."""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import final

from .quick_init import quick_init

from .calendar import Phase
from .orders import Order
from .position import DislodgedUnit, Position


class Reason(enum.Enum):
    """What became of an order. The values are codes stored with every result (never rename one);
    the words for them are the mail layer's (judge.mail.words.reason_words)."""
    # identity hash, computed in C (see judge.engine.geography.Terrain)
    __hash__ = object.__hash__

    # the order did what it said
    MOVED = "moved"
    HELD = "held"
    SUPPORTED = "support given"
    CONVOYED = "convoyed the army"
    EMBARKED = "embarked"  # an army boarded a fleet (A/F variants)
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "build waived"
    # it did not
    BOUNCED = "bounced"
    SUPPORT_CUT = "support cut"
    SUPPORT_UNMATCHED = "the supported unit was not ordered so"
    CONVOY_UNMATCHED = "the army did not move along this convoy"
    CONVOY_DISRUPTED = "convoy disrupted"
    NO_CONVOY = "no convoy route"
    DISEMBARK_FAILED = "disembarkation failed"  # the A/F never reached the sea it was to land from
    DISLODGED = "dislodged"
    ILLEGAL = "illegal order"
    NOT_NEEDED = "not needed"  # e.g. more builds than allowed
    DISBANDED_NO_RETREAT = "disbanded: nowhere to retreat"
    RETREAT_BOUNCED = "retreat bounced"
    CIVIL_DISORDER = "civil disorder"


class Why(enum.Enum):
    """The particulars of an outcome, as a code: the mail layer has the words for each.

    An outcome's `args` are the things the code is about, as plain values a reader can look up
    (its words module says which is which): province ids, power ids, coasts ("sc"), unit kinds
    ("A"), units as a position writes them ("F stp/sc"), counts as digits, or the text a player
    wrote when it names nothing on the map. The values are stored with a game's results: never
    rename one."""
    # __hash__ as in Reason
    __hash__ = object.__hash__

    # -- reading an order against the position: args in brackets
    NOT_IN_THIS_PHASE = "not_in_this_phase"  # (order kind: "build", "retreat", ...)
    NO_EMBARKING = "no_embarking"  # the variant has no armies aboard fleets
    NO_SUCH_PROVINCE = "no_such_province"  # (text)
    NO_SUCH_POWER = "no_such_power"  # (text)
    NO_UNIT = "no_unit"  # (province)
    NOT_YOUR_UNIT = "not_your_unit"  # (province, power)
    IMMOBILE_DUMMY = "immobile_dummy"  # (power): a dummy power's units may not move
    FROZEN_FLEET = "frozen_fleet"  # (province): a fleet in the ice must stand
    SHUT_THIS_SEASON = "shut_this_season"  # (province): a seasonal space shut now (Loeb9's Arctic Ocean in Fall)
    TRAPPED = "trapped"  # (province): a unit in a seasonal space shut now may only hold (HIBERNATE)
    FROZEN_ARMY = "frozen_army"  # (province): an army in the ice leaves only overland
    FROZEN_LANDING = "frozen_landing"  # (province)
    FROZEN_EMBARKING = "frozen_embarking"  # (province)
    SUPPORTS_ITSELF = "supports_itself"
    SUPPORTS_OWN_MOVE = "supports_own_move"
    SUPPORT_INTO_OWN_PROVINCE = "support_into_own_province"
    SUPPORTED_MOVE_GOES_NOWHERE = "supported_move_goes_nowhere"
    NO_UNIT_TO_SUPPORT = "no_unit_to_support"  # (province)
    CANNOT_SUPPORT_HOLD_THERE = "cannot_support_hold_there"  # (unit, province)
    CANNOT_SUPPORT_MOVE_THERE = "cannot_support_move_there"  # (unit, province)
    SUPPORTED_CANNOT_REACH = "supported_cannot_reach"  # (unit, province)
    SUPPORTED_NEEDS_CONVOY = "supported_needs_convoy"  # (army's province, destination)
    SUPPORTED_AF_CANNOT_LAND = "supported_af_cannot_land"  # (A/F's province, destination)
    MOVE_TO_OWN_PROVINCE = "move_to_own_province"
    ARMY_TO_SEA = "army_to_sea"  # (province)
    IMPASSABLE = "impassable"  # (province)
    NOT_ADJACENT = "not_adjacent"  # (destination, origin)
    AF_TO_COAST = "af_to_coast"  # (province)
    FLEET_INLAND = "fleet_inland"  # (province)
    FLEET_NOT_ADJACENT = "fleet_not_adjacent"  # (province, unit)
    SAY_WHICH_COAST = "say_which_coast"  # (province, coast, coast, ...): the coasts it could mean
    CANNOT_REACH_COAST = "cannot_reach_coast"  # (unit, coast, province)
    ONLY_FLEETS_AT_SEA_CONVOY = "only_fleets_at_sea_convoy"
    BORDER_NEEDS_CENTRES = "border_needs_centres"  # (from, to, the centres the power lacks...): Imperial's Bosphorus
    NO_SUPPORT_ACROSS_STRAIT = "no_support_across_strait"  # (from, to): Loeb9's weak straits
    NO_SUPPORT_ROUND_THE_CAPE = "no_support_round_the_cape"  # (from, to): 1900's Cape
    NO_ARMY_TO_CONVOY = "no_army_to_convoy"  # (province)
    CONVOY_NOT_COASTAL = "convoy_not_coastal"
    CONVOY_GOES_NOWHERE = "convoy_goes_nowhere"
    FERRY_CROSSES_ONE_SEA = "ferry_crosses_one_sea"
    NOT_ON_CONVOY_ROUTE = "not_on_convoy_route"  # (origin, destination)
    NO_CONVOYING_FLEETS = "no_convoying_fleets"
    VIA_CONVOY_WITHOUT_CONVOY = "via_convoy_without_convoy"
    CONFLICTING_ORDERS = "conflicting_orders"  # (province): the unit holds
    CONFLICTING_RETREATS = "conflicting_retreats"  # (province): the dislodged unit is disbanded
    # -- Armies aboard fleets (army_fleet)
    LANDING_CONFLICT = "landing_conflict"  # the army aboard was given two landings; it stays aboard
    NO_ARMIES_ABOARD = "no_armies_aboard"
    NO_AF_TO_LAND_FROM = "no_af_to_land_from"  # (sea)
    LANDS_ONLY_ON_COAST = "lands_only_on_coast"  # (province)
    NOT_ON_COAST_OF = "not_on_coast_of"  # (province, sea)
    EMBARK_WITH_OTHER_ORDER = "embark_with_other_order"  # (army's province)
    EMBARK_TWICE = "embark_twice"  # (army's province)
    TWO_ARMIES_ONE_FLEET = "two_armies_one_fleet"  # (sea)
    NO_ARMY_TO_EMBARK = "no_army_to_embark"  # (province)
    EMBARK_NOT_AT_SEA = "embark_not_at_sea"  # (province)
    NO_FLEET_TO_BOARD = "no_fleet_to_board"  # (sea)
    FLEET_CARRIES_ARMY = "fleet_carries_army"  # (sea): the fleet there already carries an army
    SEA_NOT_NEXT_TO = "sea_not_next_to"  # (sea, province)
    ABOARD = "aboard"  # (sea): the army embarked there, an A/F
    LANDED = "landed"
    LANDING_DECIDES_CARRIER = "landing_decides_carrier"  # the A/F exception: the army stays aboard
    CARRIER_DID_NOT_ARRIVE = "carrier_did_not_arrive"  # (sea): the army stays aboard
    ARMY_DID_NOT_LAND = "army_did_not_land"  # so the A/F stays with it
    STAYS_ABOARD = "stays_aboard"  # (sea): a ferried army that could not land, now an A/F there
    BOARDED_FLEET = "boarded_fleet"  # a retreating army boarded its own fleet: an A/F
    FLEET_AGAIN = "fleet_again"  # an A/F retreated to a coast: its army is disbanded
    # -- adjudication
    CIRCULAR_STANDS = "circular_stands"  # circular reasoning the variant lets stand
    EVERY_CONVOY_DISRUPTED = "every_convoy_disrupted"
    SZYKMAN = "szykman"  # a convoy paradox: the convoyed army does not move
    OWN_UNIT = "own_unit"  # a power cannot dislodge its own unit
    # -- retreats
    ONLY_RETREATS = "only_retreats"
    NOT_DISLODGED = "not_dislodged"  # (province)
    NOT_YOUR_DISLODGED = "not_your_dislodged"  # (province, power)
    NO_RETREAT_IN_DISORDER = "no_retreat_in_disorder"  # (unit)
    CANNOT_RETREAT_THERE = "cannot_retreat_there"  # (unit, province, location, ...): where it may go
    RETREAT_CLASH = "retreat_clash"  # (province): both units are disbanded
    GAVE_WAY_ACROSS_STRAIT = "gave_way_across_strait"  # (province): another unit retreated there, not across it
    GAVE_WAY_ROUND_THE_CAPE = "gave_way_round_the_cape"  # (province): another unit retreated there, not round it
    # -- adjustments
    NO_ADJUSTMENTS = "no_adjustments"
    NO_BUILDS_TO_WAIVE = "no_builds_to_waive"
    BUILDS_NOT_REMOVALS = "builds_not_removals"
    REMOVALS_NOT_BUILDS = "removals_not_builds"
    BUILD_LIMIT = "build_limit"  # (count)
    REMOVAL_LIMIT = "removal_limit"  # (count)
    NO_BUILD_ORDERED = "no_build_ordered"
    NOT_HOME_CENTRE = "not_home_centre"  # (province, the power's home centres...)
    NOT_OWN_CENTRE = "not_own_centre"  # (province, its owned centres...): the variant builds on any owned centre
    NO_HOME_CENTRE_HELD = "no_home_centre_held"  # (province): remote_builds, and the power owns none of its homes
    NOT_OWNED_HOME_CENTRE = "not_owned_home_centre"  # (province, its build sites...): home_builds
    NOT_OWNED = "not_owned"  # (province)
    OCCUPIED = "occupied"  # (province)
    CANNOT_BUILD_KIND = "cannot_build_kind"  # (unit kind)
    ARMY_AT_SEA = "army_at_sea"
    FLEET_BUILT_INLAND = "fleet_built_inland"  # (province)
    SAY_WHICH_COAST_TO_BUILD = "say_which_coast_to_build"  # (province, coast, coast, ...)
    NO_SUCH_COAST = "no_such_coast"  # (province, coast)
    NO_UNIT_TO_REMOVE = "no_unit_to_remove"  # (province, or the text written)
    ALREADY_REMOVED = "already_removed"
    REMOVED_IN_DISORDER = "removed_in_disorder"  # the civil-disorder rule chose it
    BUILT_FOR_DUMMY = "built_for_dummy"  # the variant's rule built it for a power nobody plays
    # (alternative, the sites it stands in for...): a build there would fill them all (DPjudge's @X)
    ALTERNATIVE_GROUP_FULL = "alternative_group_full"
    ALTERNATIVE_WITHOUT_SITE = "alternative_without_site"  # (alternative): no free home centre it may stand in for
    BUILT_HIDDEN = "built_hidden"  # the others are told of it when the next movement is played (DPjudge's ~X)


class Rejected(Exception):
    """An order that cannot be carried out: the code of the reason, and what it is about."""

    def __init__(self, why: Why, *about: str) -> None:
        super().__init__(why.value, *about)
        self.why = why
        self.about = about


@final
@dataclass(frozen=True, slots=True)
class Outcome:
    power: str
    order: Order
    succeeded: bool
    reason: Reason
    why: Why | None = None  # the particulars: why it was illegal, what became of an A/F, ...
    args: tuple[str, ...] = ()  # what `why` is about (see Why)
    # provinces involved: units that bounced it, the unit that cut the support, ...
    involving: tuple[str, ...] = ()
    # set when this order's unit was dislodged: the province the attack came from
    dislodged_from: str | None = None
    # an order the judge made, not the player (civil-disorder removal, default hold)
    by_judge: bool = False

    def __init__(self, power: str, order: Order, succeeded: bool, reason: Reason, why: Why | None = None,
                 args: tuple[str, ...] = (), involving: tuple[str, ...] = (), dislodged_from: str | None = None,
                 by_judge: bool = False) -> None:  # (see quick_init: compiled, this one is used)
        self.power = power  # type: ignore[misc]
        self.order = order  # type: ignore[misc]
        self.succeeded = succeeded  # type: ignore[misc]
        self.reason = reason  # type: ignore[misc]
        self.why = why  # type: ignore[misc]
        self.args = args  # type: ignore[misc]
        self.involving = involving  # type: ignore[misc]
        self.dislodged_from = dislodged_from  # type: ignore[misc]
        self.by_judge = by_judge  # type: ignore[misc]


quick_init(Outcome)


class PhaseResult:
    """A phase played: the position after it, and every order's outcome.

    The outcomes may be given as a function that works them out: adjudication needs only the
    decisions, and who bounced whom is asked far less often than the board after the move is
    (a game's later phases, a differential run), so it is worked out on the first read."""

    __slots__ = ("_explain", "_outcomes", "dislodged", "phase", "position", "standoffs")

    def __init__(self, phase: Phase, outcomes: tuple[Outcome, ...] | Callable[[], tuple[Outcome, ...]],
                 position: Position, dislodged: tuple[DislodgedUnit, ...] = (),
                 standoffs: tuple[str, ...] = ()) -> None:
        self.phase = phase
        self.position = position  # the position right after this phase, before any skipping
        self.dislodged = dislodged
        self.standoffs = standoffs  # provinces left empty by a standoff
        if callable(outcomes):
            self._outcomes: tuple[Outcome, ...] | None = None
            self._explain: Callable[[], tuple[Outcome, ...]] | None = outcomes
        else:
            self._outcomes, self._explain = outcomes, None

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        if self._outcomes is None:
            assert self._explain is not None
            self._outcomes, self._explain = self._explain(), None
        return self._outcomes

    def with_position(self, position: Position) -> PhaseResult:
        """The same phase with the position after it changed (a variant's exchange of centres)."""
        return PhaseResult(self.phase, lambda: self.outcomes, position, self.dislodged, self.standoffs)

    def _key(self) -> tuple[object, ...]:
        return (self.phase, self.outcomes, self.position, self.dislodged, self.standoffs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhaseResult) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable cache inside; equal by value

    def __repr__(self) -> str:
        return (f"PhaseResult(phase={self.phase!r}, outcomes={self.outcomes!r}, position={self.position!r}, "
                f"dislodged={self.dislodged!r}, standoffs={self.standoffs!r})")
