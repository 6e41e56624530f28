"""Rulebook editions as plain values.

Each difference between the rulebooks (and the DATC preferences) is one field. An
edition is just a `Rules` value; nothing forks on an edition's name.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class AdjacentConvoy(enum.Enum):
    """How an army that could reach an adjacent province by land or by convoy travels."""
    # 1971: by convoy whenever any fleet convoys it there
    ANY_CONVOY = "any convoy"
    # 1982/2000/5th and DATC 3.0: by convoy if it says "via convoy" or its own power convoys it
    OWN_CONVOY = "own convoy or via convoy"
    # DPTG: by convoy only when the order says "via convoy"
    VIA_CONVOY_ONLY = "via convoy only"
    # DATC 2.4: as OWN_CONVOY, but "via convoy" with no convoy ordered moves by land
    LAND_FALLBACK = "via convoy, else by land"


class RemovalOrder(enum.Enum):
    """Which units go first when a removal is not ordered (civil disorder)."""
    # 1982: farthest from its nearest home centre, shortest route including convoys
    FARTHEST_FROM_HOME = "1982"
    # 2000: farthest from the country (its home centres), by moves of the unit
    FARTHEST_FROM_COUNTRY = "2000"
    # 5th: farthest from an owned centre by plain adjacency; units on centres last
    FARTHEST_FROM_OWNED_CENTRE = "5th"
    # The other common reading of the 2000 text (godip, and so the games played on it):
    # distance by plain adjacency over any border to the nearest home centre; fleets before
    # armies, then by the province's abbreviation.
    NEAREST_HOME_BY_ADJACENCY = "2000-godip"


class SupportCoast(enum.Enum):
    """How the coast named in a support to a split-coast province is read."""
    # Coasts in supports are ignored (pre-DATC judges; the 1982 and 2000 texts are silent).
    IGNORED = "ignored"
    # A coast, if named, must be the coast the move names; leaving it out is fine (DATC 4.B.4).
    MATCH_IF_GIVEN = "must match if given"
    # The 5th edition read strictly: the support must name the coast the move names.
    MUST_NAME = "must name the coast"


class ConvoyParadox(enum.Enum):
    """How a convoy that would decide its own disruption (a convoy paradox) is settled."""
    # The Szykman rule (DATC 4.A.2, the DATC's preference; compatible with the 2000 and 5th rule
    # "A convoyed Army does not cut the support of a unit supporting an attack against one of the
    # fleets necessary for the army to convoy"): the armies convoyed through the paradox neither
    # move nor cut support.
    SZYKMAN = "Szykman"
    # 1982, rule XII.5: "If a convoyed army attacks a fleet which is supporting an action in a body
    # of water; and that body of water contains a convoying fleet, that support is not cut." A
    # convoying fleet is one ordered to convoy an army that was ordered so (a convoy whose army was
    # ordered elsewhere is void, XII.1). As the DATC's common interpretation has it (6.F.17), the
    # rule takes precedence over the dislodge rule: such a support stands even when the convoyed
    # army dislodges the supporter.
    CONVOYING_SEA_SUPPORT_NOT_CUT = "1982"


class DrawShare(enum.Enum):
    """Who shares a draw of all survivors."""
    # 1982, "Object of the game": "all players who still have pieces on the board share equally in
    # a draw"; 2000 the same words.
    PIECES_ON_BOARD = "pieces on the board"
    # 5th, "Draw Involving All Survivors": "All players who still have supply centers agree to
    # share equally in a draw."
    SUPPLY_CENTRES = "supply centres"


@dataclass(frozen=True)
class Rules:
    name: str
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.OWN_CONVOY
    # An impossible order (e.g. a move to a non-adjacent province) makes the unit hold,
    # and that hold can be supported.
    impossible_order_can_be_supported: bool = True
    support_coast: SupportCoast = SupportCoast.MATCH_IF_GIVEN
    # A unit dislodged by a convoyed army coming from an adjacent province may retreat to that
    # army's origin. 5th ("Dislodged by An Adjacent Convoy Attack"): "A dislodged unit can retreat
    # to the position of the attacker when there is a convoy to an adjacent province." 1982 (XI)
    # and 2000 ("Retreats") say only that a unit may not retreat "to the space its attacker came
    # from" / "the province from which the attacker came", with no exception: the convoyed army
    # came from its origin, so they forbid it (the DATC calls the older books ambiguous, 4.A.5).
    retreat_to_convoyed_attackers_origin: bool = True
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN
    # A power that gave no orders at all in a movement phase is in civil disorder, and its
    # dislodged units are disbanded without a retreat. 1982 (Rules for play, 3): "If a player
    # leaves the game, or fails to submit orders in a given Spring or Fall season, it is assumed
    # that civil government in his country has collapsed. His units hold in position, but do not
    # support each other. If they are dislodged, they are disbanded." 2000 and 5th ("Civil
    # Disorder"): "If you leave the game, or otherwise fail to submit orders on a given Spring or
    # Fall turn, it is assumed that your government has collapsed. Your units all hold in position,
    # but do not support each other. If they are dislodged, they are disbanded."
    civil_disorder_disbands_dislodged: bool = True
    draw_share: DrawShare = DrawShare.SUPPLY_CENTRES
    removal_order: RemovalOrder = RemovalOrder.FARTHEST_FROM_OWNED_CENTRE
    # The 1982 short game and two-player game count units instead of centres at the end.
    count_units_for_victory: bool = False


FIFTH = Rules(name="5th")
FOURTH_2000 = Rules(name="2000", removal_order=RemovalOrder.FARTHEST_FROM_COUNTRY,
                    retreat_to_convoyed_attackers_origin=False, draw_share=DrawShare.PIECES_ON_BOARD)
SECOND_1982 = Rules(name="1982", removal_order=RemovalOrder.FARTHEST_FROM_HOME,
                    count_units_for_victory=True, retreat_to_convoyed_attackers_origin=False,
                    convoy_paradox=ConvoyParadox.CONVOYING_SEA_SUPPORT_NOT_CUT,
                    draw_share=DrawShare.PIECES_ON_BOARD)
# The 2000 rules as godip plays them, so the games played on it replay exactly: its reading of the
# civil-disorder removals (DATC 4.D.8: the 2000 text is vague), and a power that missed a movement
# keeps its retreats (godip disbands no dislodged unit for a missed phase, as the hobby's judges).
FOURTH_2000_GODIP = replace(FOURTH_2000, name="2000-godip", removal_order=RemovalOrder.NEAREST_HOME_BY_ADJACENCY,
                            civil_disorder_disbands_dislodged=False)
# Editions the DATC names, for its edition-specific cases. The 1971 paradox rule is not modelled:
# its cases run under Szykman.
FIRST_1971 = replace(SECOND_1982, name="1971", adjacent_convoy=AdjacentConvoy.ANY_CONVOY,
                     convoy_paradox=ConvoyParadox.SZYKMAN)
DPTG = replace(FIFTH, name="dptg", adjacent_convoy=AdjacentConvoy.VIA_CONVOY_ONLY)
# DATC v2.4 preferred the retreat to a convoyed attacker's origin too (its 4.A.5).
DATC_V24 = replace(FOURTH_2000, name="datc-2.4", adjacent_convoy=AdjacentConvoy.LAND_FALLBACK,
                   removal_order=RemovalOrder.FARTHEST_FROM_COUNTRY, retreat_to_convoyed_attackers_origin=True)

EDITIONS: dict[str, Rules] = {r.name: r for r in (FIFTH, FOURTH_2000, FOURTH_2000_GODIP, SECOND_1982,
                                                  FIRST_1971, DPTG, DATC_V24)}
# Other names people use for the same editions.
EDITIONS.update({"2023": FIFTH, "5": FIFTH, "4": FOURTH_2000, "4th": FOURTH_2000,
                 "2": SECOND_1982, "2nd": SECOND_1982})
# The 5th edition read to the letter where the DATC prefers leniency.
FIFTH_STRICT = replace(FIFTH, name="5th-strict", support_coast=SupportCoast.MUST_NAME)
EDITIONS[FIFTH_STRICT.name] = FIFTH_STRICT
DEFAULT = FIFTH


def edition(name: str) -> Rules:
    try:
        return EDITIONS[str(name).strip().lower()]
    except KeyError:
        raise KeyError(f"unknown rules edition {name!r}; known: 1982, 2000, 5th") from None
