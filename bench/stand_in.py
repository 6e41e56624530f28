"""The stand-in (judge/engine/stand_in.py) against holding, on the standard map.

Over N seeded starting positions (the standard start and mid-game positions reached by 1 to 3 years
of seeded random play), each power in turn is played for four game years by the stand-in, and again
by holding (what the judge does for an abandoned power without SET STANDIN: its units hold, its
dislodged units are disbanded, no builds, removals by the rules), while the other powers play seeded
random legal orders (tests/engine_phases.py's movement orders; random retreats, builds and removals).
Both runs of a pair start the others from the same seed. Prints the mean centres kept by each, the
ratio, and how often the stand-in kept more, as many or fewer.

    .venv/bin/python bench/stand_in.py [--positions 40] [--years 4] [--seed 1] [--rules 5th]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from engine_phases import random_orders  # noqa: E402
from judge.engine import (Build, Disband, Location, Retreat, UnitKind, UnitRef, Waive, edition,  # noqa: E402
                          load_variant, orders_needed, process_phase, starting_position)
from judge.engine.adjustment import adjustment_due, buildable_sites  # noqa: E402
from judge.engine.calendar import PhaseKind  # noqa: E402
from judge.engine.stand_in import stand_in_orders  # noqa: E402


def random_turn(variant, position, rng: random.Random, skip: str | None = None) -> dict[str, list]:
    """Seeded random legal orders for every power but `skip`, in any kind of phase."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        orders = random_orders(variant, position, rng, silent=0.0)
    elif kind is PhaseKind.RETREAT:
        orders = {}
        for d in position.dislodged:
            ref = UnitRef(d.unit.location, d.unit.kind)
            pick = Retreat(ref, rng.choice(d.retreats)) if d.retreats and rng.random() < 0.8 else Disband(ref)
            orders.setdefault(d.unit.power, []).append(pick)
    else:
        orders = {}
        for power in orders_needed(variant, position):
            due = adjustment_due(variant, position, power)
            if due < 0:
                units = position.units_of(power)
                orders[power] = [Disband(UnitRef(u.location, u.kind)) for u in rng.sample(units, -due)]
            else:
                sites = list(buildable_sites(variant, position, power))
                picks: list = []
                for site in rng.sample(sites, min(due, len(sites))):
                    fleets = variant.board.fleet_locations(site)
                    army = variant.board.can_stand(UnitKind.ARMY, Location(site))
                    if fleets and (not army or rng.random() < 0.4):
                        picks.append(Build(UnitKind.FLEET, rng.choice(fleets)))
                    elif army:
                        picks.append(Build(UnitKind.ARMY, Location(site)))
                orders[power] = picks or [Waive()]
    orders.pop(skip, None)
    return orders


def starts(variant, count: int, seed: int, rules) -> list:
    """The standard start, then mid-game positions after 1 to 3 years of random play (movement phases)."""
    rng = random.Random(f"stand-in/starts/{seed}")
    out = [starting_position(variant)]
    while len(out) < count:
        position = starting_position(variant)
        years = rng.choice((1, 2, 3))
        end = position.phase.year + years
        while not (position.phase.year >= end and position.phase.kind is PhaseKind.MOVEMENT):
            position = process_phase(variant, position, random_turn(variant, position, rng), rules).next
        out.append(position)
    return out


def play(variant, start, power: str, by_stand_in: bool, years: int, seed: str, rules) -> int:
    """The centres `power` owns after `years` game years, played by the stand-in or holding."""
    rng = random.Random(seed)
    position = start
    end = start.phase.year + years
    while not (position.phase.year >= end and position.phase.kind is PhaseKind.MOVEMENT):
        orders = random_turn(variant, position, rng, skip=power)
        if by_stand_in:
            orders[power] = list(stand_in_orders(variant, position, power, rules))
        # holding: no orders, and the power is in civil disorder as an abandoned one is
        gone = frozenset() if by_stand_in else frozenset({power})
        position = process_phase(variant, position, orders, rules, disorder=gone).next
    return len(position.centres_of(power))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--years", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="5th")
    args = parser.parse_args()
    variant, rules = load_variant("standard"), edition(args.rules)
    began = time.perf_counter()
    kept = {True: [], False: []}
    better = same = worse = 0
    for i, start in enumerate(starts(variant, args.positions, args.seed, rules)):
        for power in variant.power_ids:
            if not start.centres_of(power):
                continue
            seed = f"stand-in/{args.seed}/{i}/{power}"
            a = play(variant, start, power, True, args.years, seed, rules)
            b = play(variant, start, power, False, args.years, seed, rules)
            kept[True].append(a)
            kept[False].append(b)
            better, same, worse = better + (a > b), same + (a == b), worse + (a < b)
    stand_in, hold = statistics.mean(kept[True]), statistics.mean(kept[False])
    print(f"{len(kept[True])} (position, power) pairs, {args.positions} positions, {args.years} years, "
          f"rules {args.rules}, seed {args.seed}, {time.perf_counter() - began:.1f} s")
    print(f"mean centres kept: stand-in {stand_in:.2f}, holding {hold:.2f}, ratio {stand_in / hold:.2f}")
    print(f"stand-in kept more in {better}, as many in {same}, fewer in {worse}")


if __name__ == "__main__":
    main()
