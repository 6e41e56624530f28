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


class SupportCoast(enum.Enum):
    """How the coast named in a support to a split-coast province is read."""
    # Coasts in supports are ignored (pre-DATC judges; the 1982 and 2000 texts are silent).
    IGNORED = "ignored"
    # A coast, if named, must be the coast the move names; leaving it out is fine (DATC 4.B.4).
    MATCH_IF_GIVEN = "must match if given"
    # The 5th edition read strictly: the support must name the coast the move names.
    MUST_NAME = "must name the coast"


@dataclass(frozen=True)
class Rules:
    name: str
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.OWN_CONVOY
    # An impossible order (e.g. a move to a non-adjacent province) makes the unit hold,
    # and that hold can be supported.
    impossible_order_can_be_supported: bool = True
    support_coast: SupportCoast = SupportCoast.MATCH_IF_GIVEN
    # A unit dislodged by a convoyed army coming from an adjacent province may retreat
    # to that army's origin.
    retreat_to_convoyed_attackers_origin: bool = True
    removal_order: RemovalOrder = RemovalOrder.FARTHEST_FROM_OWNED_CENTRE
    # The 1982 short game and two-player game count units instead of centres at the end.
    count_units_for_victory: bool = False


FIFTH = Rules(name="5th")
FOURTH_2000 = Rules(name="2000", removal_order=RemovalOrder.FARTHEST_FROM_COUNTRY)
SECOND_1982 = Rules(name="1982", removal_order=RemovalOrder.FARTHEST_FROM_HOME,
                    count_units_for_victory=True)
# Editions the DATC names, for its edition-specific cases.
FIRST_1971 = replace(SECOND_1982, name="1971", adjacent_convoy=AdjacentConvoy.ANY_CONVOY)
DPTG = replace(FIFTH, name="dptg", adjacent_convoy=AdjacentConvoy.VIA_CONVOY_ONLY)
DATC_V24 = replace(FOURTH_2000, name="datc-2.4", adjacent_convoy=AdjacentConvoy.LAND_FALLBACK,
                   removal_order=RemovalOrder.FARTHEST_FROM_COUNTRY)

EDITIONS: dict[str, Rules] = {r.name: r for r in (FIFTH, FOURTH_2000, SECOND_1982, FIRST_1971, DPTG, DATC_V24)}
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
