"""The words for the engine's reason codes (`judge.engine.outcomes.Why`).

The engine says why in codes with what each is about (province ids, powers, coasts, units as a
position writes them); this module alone turns them into the sentences players read. A stored
result from before the codes carries its sentence in `detail` instead: `detail_words` reads both.
"""
from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.geography import Coast, Location, UnitKind
from ...engine.outcomes import Reason, Why
from ...engine.variant import Variant

# {n:spec}: the n-th thing the code is about, shown as `spec` says (see _Words.format_field);
# {rest:spec}: every thing from the position in _TAIL on; {variant}: the variant's name.
WORDS: Mapping[Why, str] = {
    Why.NOT_IN_THIS_PHASE: "a {0} order is not allowed in a movement phase",
    Why.NO_EMBARKING: "armies do not embark on fleets in {variant}",
    Why.NO_SUCH_PROVINCE: "there is no province {0:quoted} on this map",
    Why.NO_SUCH_POWER: "there is no power {0}",
    Why.NO_UNIT: "there is no unit in {0:province}",
    Why.NOT_YOUR_UNIT: "the unit in {0:province} belongs to {1:power}, not to you",
    Why.IMMOBILE_DUMMY: "the units of {0:power}, which nobody plays, may only hold, support or convoy",
    Why.FROZEN_FLEET: "{0:province} is frozen this month: a fleet there must stand",
    Why.SHUT_THIS_SEASON: "{0:province} is impassable this season: no unit enters it or supports into it",
    Why.TRAPPED: "{0:province} is impassable this season: the unit there is trapped and may only hold",
    Why.FROZEN_ARMY: "{0:province} is frozen: an army may leave it only overland",
    Why.FROZEN_LANDING: "{0:province} is frozen this month: no army lands from there",
    Why.FROZEN_EMBARKING: "{0:province} is frozen this month: nobody embarks there",
    Why.SUPPORTS_ITSELF: "a unit cannot support itself",
    Why.SUPPORTS_OWN_MOVE: "a unit cannot support its own move",
    Why.SUPPORT_INTO_OWN_PROVINCE: "a unit cannot support a move into its own province",
    Why.SUPPORTED_MOVE_GOES_NOWHERE: "the supported move goes nowhere",
    Why.NO_UNIT_TO_SUPPORT: "there is no unit in {0:province} to support",
    Why.CANNOT_SUPPORT_HOLD_THERE: "{0:unit} cannot reach {1:province}, so it cannot support a unit there",
    Why.CANNOT_SUPPORT_MOVE_THERE: "{0:unit} cannot reach {1:province}, so it cannot support a move there",
    Why.SUPPORTED_CANNOT_REACH: "{0:unit} cannot reach {1:province}",
    Why.SUPPORTED_NEEDS_CONVOY: "the army in {0:province} could reach {1:province} only by a convoy that no other "
                                "fleet can give",
    Why.SUPPORTED_AF_CANNOT_LAND: "the army aboard the A/F in {0:province} cannot land in {1:province}",
    Why.MOVE_TO_OWN_PROVINCE: "a unit cannot move to the province it is in",
    Why.ARMY_TO_SEA: "an army cannot move into {0:province}, a sea",
    Why.IMPASSABLE: "no unit can enter {0:province}",
    Why.NOT_ADJACENT: "{0:province} is not next to {1:province}",
    Why.AF_TO_COAST: "an A/F never enters a coastal province: order its army to disembark in {0:province}",
    Why.FLEET_INLAND: "a fleet cannot move into {0:province}, an inland province",
    Why.FLEET_NOT_ADJACENT: "{0:province} is not next to {1:unit} along a coast or sea",
    Why.SAY_WHICH_COAST: "say which coast of {0:province} ({rest:coasts})",
    Why.CANNOT_REACH_COAST: "{0:unit} cannot reach the {1:coast} of {2:province}",
    Why.ONLY_FLEETS_AT_SEA_CONVOY: "only a fleet at sea can convoy",
    Why.BORDER_NEEDS_CENTRES: "only the owner of {rest:centres} may cross from {0:province} to {1:province}",
    Why.NO_SUPPORT_ACROSS_STRAIT: "no unit supports across the strait from {0:province} to {1:province}",
    Why.NO_SUPPORT_ROUND_THE_CAPE: "no unit supports round the Cape from {0:province} to {1:province}",
    Why.NO_ARMY_TO_CONVOY: "there is no army in {0:province} to convoy",
    Why.CONVOY_NOT_COASTAL: "an army can only be convoyed from one coastal province to another",
    Why.CONVOY_GOES_NOWHERE: "the convoyed move goes nowhere",
    Why.FERRY_CROSSES_ONE_SEA: "a Fast Ferry crosses one sea: both coasts must touch it (to go further, embark "
                               "the army on a fleet as an A/F)",
    Why.NOT_ON_CONVOY_ROUTE: "this fleet is on no convoy route between {0:province} and {1:province}",
    Why.NO_CONVOYING_FLEETS: "no fleets stand where they could convoy this move",
    Why.VIA_CONVOY_WITHOUT_CONVOY: "it says via convoy, but no convoy was ordered for it",
    Why.CONFLICTING_ORDERS: "the unit in {0:province} was given conflicting orders; it holds",
    Why.CONFLICTING_RETREATS: "the unit in {0:province} was given conflicting orders; it is disbanded",
    Why.LANDING_CONFLICT: "the army aboard was given conflicting orders; it stays aboard",
    Why.NO_ARMIES_ABOARD: "there are no armies aboard fleets in {variant}",
    Why.NO_AF_TO_LAND_FROM: "you have no A/F in {0:province}, nor one moving there, to land an army from",
    Why.LANDS_ONLY_ON_COAST: "an army lands only on a coast, and {0:province} is not one",
    Why.NOT_ON_COAST_OF: "{0:province} is not on the coast of {1:province}",
    Why.EMBARK_WITH_OTHER_ORDER: "the army in {0:province} was given another order too; it does not embark",
    Why.EMBARK_TWICE: "the army in {0:province} was ordered to embark twice; it does not embark",
    Why.TWO_ARMIES_ONE_FLEET: "two armies tried to board the fleet in {0:province}; it does not embark",
    Why.NO_ARMY_TO_EMBARK: "you have no army in {0:province} to embark",
    Why.EMBARK_NOT_AT_SEA: "{0:province} is not a sea: an army embarks only onto a fleet at sea",
    Why.NO_FLEET_TO_BOARD: "you have no fleet in {0:province} for the army to board",
    Why.FLEET_CARRIES_ARMY: "you have no fleet in {0:province} for the army to board (it already carries an army)",
    Why.SEA_NOT_NEXT_TO: "{0:province} is not next to the coast of {1:province}",
    Why.ABOARD: "the army is aboard: an A/F in {0:province}",
    Why.LANDED: "the army landed",
    Why.LANDING_DECIDES_CARRIER: "the landing would have decided its own A/F's move (the A/F exception): "
                                 "the army stays aboard",
    Why.CARRIER_DID_NOT_ARRIVE: "the A/F did not reach {0:province}: the army stays aboard",
    Why.ARMY_DID_NOT_LAND: "the army aboard did not land, so the A/F stays with it",
    Why.STAYS_ABOARD: "stays aboard the fleet in {0:province} as an A/F",
    Why.BOARDED_FLEET: "the army boarded the fleet there: an A/F",
    Why.FLEET_AGAIN: "it is a fleet again: its army is disbanded",
    Why.CIRCULAR_STANDS: "part of circular reasoning that cannot be adjudicated: the units in it stand",
    Why.EVERY_CONVOY_DISRUPTED: "every convoy route was disrupted",
    Why.SZYKMAN: "the convoy was disrupted (convoy paradox, Szykman rule)",
    Why.OWN_UNIT: "a power cannot dislodge its own unit",
    Why.ONLY_RETREATS: "only retreats and disbands can be ordered in a retreat phase",
    Why.NOT_DISLODGED: "no unit was dislodged from {0:province}",
    Why.NOT_YOUR_DISLODGED: "the dislodged unit in {0:province} belongs to {1:power}",
    Why.NO_RETREAT_IN_DISORDER: "{0:unit} cannot retreat: its power sent no orders for the move (civil disorder), "
                                "so it is disbanded",
    Why.CANNOT_RETREAT_THERE: "{0:unit} cannot retreat to {1:province}; it may retreat to {rest:places}",
    Why.RETREAT_CLASH: "another unit also retreated to {0:province}; both are disbanded",
    Why.GAVE_WAY_ACROSS_STRAIT: "another unit also retreated to {0:province}; this one, crossing a strait, "
                                "is disbanded",
    Why.GAVE_WAY_ROUND_THE_CAPE: "another unit also retreated to {0:province}; this one, going round the Cape, "
                                 "is disbanded",
    Why.NO_ADJUSTMENTS: "you have no builds or removals this year",
    Why.NO_BUILDS_TO_WAIVE: "no builds left to waive",
    Why.BUILDS_NOT_REMOVALS: "you have builds this year, not removals",
    Why.REMOVALS_NOT_BUILDS: "you must remove units this year, not build",
    Why.BUILD_LIMIT: "you may build only {0:units}",
    Why.REMOVAL_LIMIT: "you need to remove only {0:units}",
    Why.NO_BUILD_ORDERED: "no build was ordered",
    Why.NOT_HOME_CENTRE: "{0:province} is not {rest:your home centre}",
    Why.NOT_OWN_CENTRE: "{0:province} is not {rest:your supply centre}",
    Why.NO_HOME_CENTRE_HELD: "you own none of your home centres, so you may not build",
    Why.NOT_OWNED_HOME_CENTRE: "{0:province} is not a home centre (of any power) that you own",
    Why.NOT_OWNED: "you do not own {0:province} now",
    Why.OCCUPIED: "{0:province} is occupied",
    Why.CANNOT_BUILD_KIND: "you cannot build an {0:kind}",
    Why.ARMY_AT_SEA: "an army cannot be built at sea",
    Why.FLEET_BUILT_INLAND: "a fleet cannot be built in {0:province}: it has no coast",
    Why.SAY_WHICH_COAST_TO_BUILD: "say which coast of {0:province} the fleet is built on ({rest:coasts})",
    Why.NO_SUCH_COAST: "{0:province} has no {1:coast}",
    Why.NO_UNIT_TO_REMOVE: "you have no unit in {0:province}",
    Why.ALREADY_REMOVED: "that unit is already removed",
    Why.REMOVED_IN_DISORDER: "removed by the civil-disorder rule",
    Why.BUILT_FOR_DUMMY: "built by the variant's rule for a power nobody plays",
    Why.ALTERNATIVE_GROUP_FULL:
        "{0:province} is a build site only in place of {rest:either}: you may not build in them all",
    Why.ALTERNATIVE_WITHOUT_SITE:
        "{0:province} is a build site only in place of a free home centre, and none it may stand in for is free",
    Why.BUILT_HIDDEN: "hidden: the other powers see it once the next movement is played",
}

# What became of an order, in words. (The engine's values of Reason are the codes stored with
# results; they happen to read as English, but these are the words.)
REASONS: Mapping[Reason, str] = {
    Reason.MOVED: "moved", Reason.HELD: "held", Reason.SUPPORTED: "support given",
    Reason.CONVOYED: "convoyed the army", Reason.EMBARKED: "embarked", Reason.RETREATED: "retreated",
    Reason.DISBANDED: "disbanded", Reason.BUILT: "built", Reason.WAIVED: "build waived",
    Reason.BOUNCED: "bounced", Reason.SUPPORT_CUT: "support cut",
    Reason.SUPPORT_UNMATCHED: "the supported unit was not ordered so",
    Reason.CONVOY_UNMATCHED: "the army did not move along this convoy",
    Reason.CONVOY_DISRUPTED: "convoy disrupted", Reason.NO_CONVOY: "no convoy route",
    Reason.DISEMBARK_FAILED: "disembarkation failed", Reason.DISLODGED: "dislodged",
    Reason.ILLEGAL: "illegal order", Reason.NOT_NEEDED: "not needed",
    Reason.DISBANDED_NO_RETREAT: "disbanded: nowhere to retreat", Reason.RETREAT_BOUNCED: "retreat bounced",
    Reason.CIVIL_DISORDER: "civil disorder",
}

# codes whose last things are a list: the position it starts at
_TAIL: Mapping[Why, int] = {Why.SAY_WHICH_COAST: 1, Why.SAY_WHICH_COAST_TO_BUILD: 1, Why.CANNOT_RETREAT_THERE: 2,
                            Why.NOT_HOME_CENTRE: 1, Why.NOT_OWN_CENTRE: 1,
                            Why.BORDER_NEEDS_CENTRES: 2, Why.ALTERNATIVE_GROUP_FULL: 1}


class _Words(string.Formatter):
    """Formats the things a code is about by what they are: `{0:province}` -> "St Petersburg"."""

    def __init__(self, variant: Variant) -> None:
        super().__init__()
        self.variant = variant

    def place(self, text: str) -> str:
        loc = Location.parse(text)
        prov = self.variant.board.provinces.get(loc.province)
        if prov is None:
            return repr(text)
        return f"{prov.name} ({loc.coast.full_name})" if loc.coast else prov.name

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "province":
            return self.place(value)
        if format_spec == "quoted":
            return repr(value)
        if format_spec == "power":
            return self.variant.power(value).name if value in self.variant.power_ids else str(value)
        if format_spec == "unit":  # "F stp/sc" -> "the fleet in St Petersburg (south coast)"
            kind, _, where = str(value).partition(" ")
            return f"the {UnitKind(kind).full_name} in {self.place(where)}"
        if format_spec == "coast":
            return Coast(value).full_name
        if format_spec == "coasts":
            return " or ".join(Coast(c).full_name for c in value)
        if format_spec == "places":
            return ", ".join(self.place(p) for p in value) or "nowhere: it can only disband"
        if format_spec == "kind":
            return UnitKind(value).full_name
        if format_spec.startswith("your "):    # {rest:your home centre}: the centres named, as many as there are
            what = format_spec.removeprefix("your ")
            if len(value) == 1:
                return f"your {what} ({self.place(value[0])})"
            named = f" ({', '.join(self.place(p) for p in value)})" if value else ""   # none: a result stored before
            return f"one of your {what}s{named}"
        if format_spec == "centres":   # Constantinople; Constantinople and Smyrna
            names = [self.place(c) for c in value]
            return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        if format_spec == "either":    # New York; Hawaii, New York or Washington
            names = [self.place(c) for c in value]
            return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        if format_spec == "units":
            return f"{value} unit{'s' if int(value) > 1 else ''}"
        return str(super().format_field(value, format_spec))


def because(variant: Variant, why: Why | None, args: Sequence[str] = ()) -> str:
    """The sentence for a code and what it is about ("" for no code)."""
    if why is None:
        return ""
    tail = _TAIL.get(why, len(args))
    return _Words(variant).format(WORDS[why], *args[:tail], rest=tuple(args[tail:]), variant=variant.name)


def detail_words(variant: Variant, outcome: Mapping[str, Any]) -> str:
    """The particulars of a stored outcome or problem in words: from its code (`why`, `args`), or
    the sentence a result stored before the codes carries in `detail`."""
    code = outcome.get("why")
    if code:
        return because(variant, Why(code), tuple(outcome.get("args") or ()))
    return str(outcome.get("detail") or "")
