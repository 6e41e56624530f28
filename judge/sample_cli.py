"""`judge sample`: play the opening year of a sample game through the engine and print it."""
from __future__ import annotations

import argparse

from .engine import edition, load_variant, process_phase, starting_position
from .engine.notation import order_text
from .mail.words.reason_words import because
from .order_reading import read_order_lines

# A common opening, written in the canonical notation.
SAMPLE = [
    {"AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
     "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
     "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
     "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
     "ITALY": ["A VEN H", "A ROM - APU", "F NAP - ION"],
     "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
     "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"]},
    {"AUSTRIA": ["A SER S A GAL - RUM", "A GAL - RUM", "F ALB - GRE"],
     "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG - BAR"],
     "FRANCE": ["A BUR - BEL", "A SPA - POR", "F MAO - SPA/SC"],
     "GERMANY": ["A KIE - HOL", "A RUH - MUN", "F DEN H"],
     "ITALY": ["A APU - TUN", "F ION C A APU - TUN", "A VEN H"],
     "RUSSIA": ["A UKR - RUM", "A WAR - GAL", "F BOT - SWE"],
     "TURKEY": ["A BUL - GRE", "A CON - BUL", "F ANK - BLA"]},
]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sample", help="play a sample opening year through the engine",
                       description="Plays Spring and Fall 1901 of a sample game, then the builds, "
                                   "and prints every order's outcome.")
    p.add_argument("--rules", default="5th", help="rules edition (1982, 2000, 5th)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = load_variant("standard")
    rules = edition(args.rules)
    position = starting_position(variant)
    script = list(SAMPLE)
    while position.phase.year == 1901:
        phase_name = variant.calendar.name(position.phase)
        lines = script.pop(0) if script else {}
        orders = {p: read_order_lines(variant, position.phase.kind, ls)[0] for p, ls in lines.items()}
        turn = process_phase(variant, position, orders, rules)
        print(f"== {phase_name} ({rules.name} rules)")
        for result in (turn.result, *turn.skipped):
            if result is not turn.result and result.outcomes:
                print(f"== {variant.calendar.name(result.phase)}")
            for o in result.outcomes:
                mark = "ok  " if o.succeeded else "FAIL"
                detail = f" ({because(variant, o.why, o.args)})" if o.why else ""
                print(f"  {mark} {variant.power(o.power).name:8} {order_text(o.order):22} {o.reason.value}{detail}")
        position = turn.next
    print(f"== next: {variant.calendar.name(position.phase)}")
    for power in variant.powers:
        print(
            f"  {power.name:8} {len(position.centres_of(power.id))} centres, {len(position.units_of(power.id))} units"
        )
    return 0
