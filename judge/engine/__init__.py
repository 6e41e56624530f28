"""The adjudicator: pure functions of (variant, position, orders, rules). No I/O, no clock.

    from judge.engine import load_variant, starting_position, process_phase, FIFTH
    variant = load_variant("standard")
    turn = process_phase(variant, starting_position(variant), {"FRANCE": [...]}, FIFTH)
    turn.result.outcomes   # every order with its outcome and reason
    turn.next              # the next position somebody has to order for
"""
from . import compiled  # noqa: F401  (first: serves the modules below from a mypyc build made for exactly them, if any)
from .calendar import Calendar, Phase, PhaseKind
from .geography import Coast, Location, Province, Terrain, UnitKind
from .orders import (Build, Convoy, Disband, Disembark, Embark, Hold, Move, Order, Retreat, SupportHold, SupportMove,
                     UnitRef, Waive)
from .outcomes import Outcome, PhaseResult, Reason, Why
from .phase import Need, Turn, adjudicate, check_orders, orders_needed, process_phase
from .position import DislodgedUnit, Position, Unit
from .rules import DEFAULT, FIFTH, FOURTH_2000, SECOND_1982, Rules, edition
from .variant import Power, Variant, available_variants, load_variant, starting_position, variant_from_data

__all__ = [
    "Calendar",
    "Phase",
    "PhaseKind",
    "Coast",
    "Location",
    "Province",
    "Terrain",
    "UnitKind",
    "Build",
    "Convoy",
    "Disband",
    "Disembark",
    "Embark",
    "Hold",
    "Move",
    "Order",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "UnitRef",
    "Waive",
    "Outcome",
    "PhaseResult",
    "Reason",
    "Why",
    "Need",
    "Turn",
    "adjudicate",
    "check_orders",
    "orders_needed",
    "process_phase",
    "DislodgedUnit",
    "Position",
    "Unit",
    "DEFAULT",
    "FIFTH",
    "FOURTH_2000",
    "SECOND_1982",
    "Rules",
    "edition",
    "Power",
    "Variant",
    "available_variants",
    "load_variant",
    "starting_position",
    "variant_from_data",
]
