"""Differential test: whole random games adjudicated by our engine and by the `diplomacy` package.

Plays seeded random games with the `diplomacy` package (PyPI, bench-only): legal orders from
its `get_all_possible_orders()`, biased to moves and to supports and convoys of moves that
were really ordered, so that fights, dislodgements, retreats, builds and removals happen;
now and then a power sends nothing (civil disorder). At every phase our engine gets the same
position and orders through `judge adjudicate`'s `adjudicate_request`, and the next positions
are compared: phase, units, dislodged units with their retreat options, centre owners.

Each difference is shrunk to a minimal reproduction (units dropped while the difference
stays) and grouped by kind; the agreement rate and one reproduction per kind are printed.

    .venv/bin/pip install diplomacy   # once
    .venv/bin/python bench/differential.py [--games 40] [--years 6] [--seed 1] [--rules 5th]
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.engine import Variant, edition, load_variant, process_phase  # noqa: E402
from judge.engine.notation import parse_order, position_from_json, position_to_json  # noqa: E402
from judge.engine.rules import AdjacentConvoy, RemovalOrder, Rules  # noqa: E402

try:
    from diplomacy import Game
except ImportError:  # pragma: no cover - bench-only dependency
    sys.exit("the diplomacy package is needed: .venv/bin/pip install diplomacy")


# -- the other adjudicator's positions, in our request shape -------------------------------------

def their_position(game: Game) -> dict:
    """The game's current position as a `judge adjudicate` request (without orders)."""
    units, centres, dislodged = {}, {}, {}
    for name, power in game.powers.items():
        units[name] = [u for u in power.units]
        centres[name] = list(power.centers)
        for unit, places in power.retreats.items():
            dislodged.setdefault(name, []).append({
                "unit": unit, "attacker_from": game.dislodged.get(unit, unit[2:5]), "retreats": list(places)})
    position = {"phase": game.get_current_phase(), "units": units, "centres": centres}
    if dislodged:
        position["dislodged"] = dislodged
    return position


def game_at(position: dict) -> Game:
    """A fresh game of the package standing at `position` (used to replay reproductions)."""
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(position["phase"])
    for power, us in position["units"].items():
        game.set_units(power, list(us))
    for power, ds in position.get("dislodged", {}).items():
        game.set_units(power, ["*" + d["unit"] for d in ds])
        for d in ds:
            game.dislodged[d["unit"]] = d["attacker_from"]
            game.get_power(power).retreats[d["unit"]] = list(d["retreats"])
    for power, cs in position["centres"].items():
        game.set_centers(power, list(cs))
    game.build_caches()  # as at the start of a phase of a real game (possible convoys)
    return game


def given(game: Game, orders: dict[str, list[str]]) -> dict[str, list[str]]:
    """Give the orders; return those the package kept. It drops at entry an order it finds
    impossible (a "VIA" move with no fleet anywhere on a route): only kept orders are compared."""
    for power, lines in orders.items():
        game.set_orders(power, lines)
    return {power: list(game.get_orders(power)) for power in orders}


def their_next(position: dict, orders: dict[str, list[str]]) -> tuple[dict, dict]:
    """Their next position, and the orders they kept."""
    game = game_at(position)
    kept = given(game, orders)
    game.process()
    return settle_their_empty_retreats(game), kept


def settle_their_empty_retreats(game: Game) -> dict:
    """The package plays a retreat phase whose dislodged units have nowhere to go (they are
    disbanded); we skip it as nobody has anything to decide. Play it empty so the next
    positions compare."""
    if game.phase_type == "R" and not any(places for p in game.powers.values() for places in p.retreats.values()):
        game.process()
    return their_position(game)


# -- notation --------------------------------------------------------------------------------------

def ours_from_theirs(line: str) -> str:
    """Their order text in our canonical notation."""
    words = line.split()
    if words[-1] == "VIA":
        return line[:-len("VIA")] + "VIA CONVOY"
    if words[-1] == "B" and len(words) == 3:
        return f"BUILD {words[0]} {words[1]}"
    return line


def our_next(position: dict, orders: dict[str, list[str]], rules: Rules, variant: Variant) -> dict:
    """Our next position, through the engine as `judge adjudicate` drives it (rules as a value, so
    the rule settings that would explain a difference can be tried)."""
    occupied = {u.split()[1][:3] for us in position["units"].values() for u in us}
    position = dict(position, dislodged={  # their slip (class 5): offers into occupied provinces, struck out
        p: [dict(d, retreats=[r for r in d["retreats"] if r[:3] not in occupied]) for d in ds]
        for p, ds in position.get("dislodged", {}).items()})
    start = position_from_json(variant, position)
    ours = {p: [parse_order(variant, ours_from_theirs(o)) for o in lines] for p, lines in orders.items()}
    return position_to_json(variant, process_phase(variant, start, ours, rules).next)


# Rule settings the package may have chosen; a difference that one of them removes is a choice of rule.
CHOICES = {
    "adjacent_convoy=via convoy only (DPTG)": {"adjacent_convoy": AdjacentConvoy.VIA_CONVOY_ONLY},
    "adjacent_convoy=via convoy, else by land (DATC 2.4)": {"adjacent_convoy": AdjacentConvoy.LAND_FALLBACK},
    "removal_order=2000": {"removal_order": RemovalOrder.FARTHEST_FROM_COUNTRY},
    "removal_order=1982": {"removal_order": RemovalOrder.FARTHEST_FROM_HOME},
    "retreat_to_convoyed_attackers_origin=False": {"retreat_to_convoyed_attackers_origin": False},
    "retreat_to_convoyed_attackers_origin=True": {"retreat_to_convoyed_attackers_origin": True},
    "civil_disorder_disbands_dislodged=False": {"civil_disorder_disbands_dislodged": False},
}
# Two or three choices at once: a random phase can meet several (a VIA fallback, a power in civil
# disorder, a retreat to a convoyed attacker's origin). Tried only when no single one explains it.
CHOICE_PAIRS = {" & ".join(names): {k: v for n in names for k, v in CHOICES[n].items()}
                for names in itertools.chain(itertools.combinations(CHOICES, 2), itertools.combinations(CHOICES, 3))
                if len({k for n in names for k in CHOICES[n]}) == len(names)}


SELF_SUPPORT = "theirs: an attack counted its victim's own power's support"
INTO_OCCUPIED = "theirs: a retreat offered into an occupied or contested province"


def their_slips(position: dict, orders: dict, rules: Rules, variant: Variant) -> str | None:
    """Name the package's known slips (bench/differential.md) when they account for the whole
    difference: with each support of an attack on the supporter's own unit made a hold (a support
    that must count for nothing) and the retreats into occupied or contested provinces struck from their answer,
    our engine must agree with it, under our rules or under one rule choice."""
    owner_at = {u.split()[1][:3]: power for power, us in position["units"].items() for u in us}
    fixed, slips = {}, set()
    for power, lines in orders.items():
        fixed[power] = []
        for line in lines:
            words = line.split()
            kept = line
            if " S " in line and " - " in line and owner_at.get(words[-1][:3]) == power:
                kept = f"{words[0]} {words[1]} H"
                slips.add(SELF_SUPPORT)
            fixed[power].append(kept)
    answer, _ = their_next(position, fixed)
    if SELF_SUPPORT in slips:
        for name, change in {"": {}, **CHOICES, **CHOICE_PAIRS}.items():
            if not differences(our_next(position, fixed, replace(rules, **change), variant), answer):
                return SELF_SUPPORT + (f" + rule choice {name}" if name else "")
    # Which province a standoff left empty depends on the rules: a move "via convoy" with no chain of
    # fleets to carry it is not made at all, unless the rules fall back to going by land.
    for by_land in (False, True):
        theirs, struck = _struck(variant, fixed, answer, by_land)
        if not struck:
            continue
        names = {n: c for n, c in {"": {}, **CHOICES, **CHOICE_PAIRS}.items()
                 if (c.get("adjacent_convoy") is AdjacentConvoy.LAND_FALLBACK) == by_land}
        for name, change in names.items():
            if not differences(our_next(position, fixed, replace(rules, **change), variant), theirs):
                return " + ".join(sorted(slips | {INTO_OCCUPIED})) + (f" + rule choice {name}" if name else "")
    return None


def _struck(variant: Variant, orders: dict, answer: dict, by_land: bool) -> tuple[dict, bool]:
    """Their answer with the retreats into occupied or contested provinces struck out (a copy), and
    whether any was; a retreat phase left with no retreat at all is played (nobody has to decide)."""
    theirs = json.loads(json.dumps(answer))
    occupied = {u.split()[1][:3] for us in theirs["units"].values() for u in us}
    board = variant.board
    targets = Counter(w[3][:3] for lines in orders.values() for line in lines if (w := line.split())[2] == "-"
                      and (w[-1] != "VIA" or _carried(variant, orders, w[1], w[3])
                           or (by_land and w[3][:3].lower() in board.army_neighbours(w[1][:3].lower()))))
    occupied |= {place for place, n in targets.items() if n > 1}  # left empty by a standoff: no retreat there
    struck = False
    for ds in theirs.get("dislodged", {}).values():
        for d in ds:
            kept = [r for r in d["retreats"] if r[:3] not in occupied]
            struck = struck or kept != d["retreats"]
            d["retreats"] = kept
    if struck and theirs["phase"].endswith("R") and not any(
            d["retreats"] for ds in theirs.get("dislodged", {}).values() for d in ds):
        theirs = their_next(theirs, {})[0]
    return theirs, struck


def _carried(variant: Variant, orders: dict, start: str, to: str) -> bool:
    """Whether the fleets ordered to convoy this army's move form a chain from `start` to `to` (the
    move is made, whether or not the chain is later broken)."""
    board = variant.board
    fleets = {w[1][:3].lower() for lines in orders.values() for line in lines
              if (w := line.split())[2] == "C" and (w[4], w[6]) == (start, to)}
    start, to = start[:3].lower(), to[:3].lower()     # the board's province ids
    reached, frontier = set(), [f for f in fleets if start in board.fleet_province_neighbours(f)]
    while frontier:
        fleet = frontier.pop()
        if fleet in reached:
            continue
        reached.add(fleet)
        if to in board.fleet_province_neighbours(fleet):
            return True
        frontier += [f for f in fleets if f in board.fleet_province_neighbours(fleet)]
    return False


def explained_by(position: dict, orders: dict, rules: Rules, variant: Variant, theirs: dict) -> str | None:
    """The first rule setting (or pair of settings) under which our engine agrees with the package here."""
    for name, change in {**CHOICES, **CHOICE_PAIRS}.items():
        if not differences(our_next(position, orders, replace(rules, **change), variant), theirs):
            return name
    return None


# -- comparing positions ---------------------------------------------------------------------------

def comparable(position: dict) -> dict:
    """What must agree, with empty powers and order of listing made irrelevant."""
    return {
        "phase": position["phase"],
        "units": {p: sorted(us) for p, us in position["units"].items() if us},
        "centres": {p: sorted(cs) for p, cs in position["centres"].items() if cs},
        # A dislodged unit with nowhere to go is disbanded by both; the package removes it at
        # once, we list it until the retreat phase ends: the same outcome, so not compared.
        "dislodged": {d["unit"]: sorted(d["retreats"])
                      for ds in position.get("dislodged", {}).values() for d in ds if d["retreats"]},
    }


def differences(ours: dict, theirs: dict) -> dict[str, tuple]:
    a, b = comparable(ours), comparable(theirs)
    out = {}
    for aspect in ("phase", "dislodged", "units", "centres"):
        if a[aspect] != b[aspect]:
            out[aspect] = (_delta(a[aspect], b[aspect]))
    return out


def _delta(ours, theirs):
    if isinstance(ours, dict):
        keys = sorted(set(ours) | set(theirs))
        return {k: {"ours": ours.get(k), "theirs": theirs.get(k)} for k in keys if ours.get(k) != theirs.get(k)}
    return {"ours": ours, "theirs": theirs}


# -- random orders ---------------------------------------------------------------------------------

def _matches(support_or_convoy: str, chosen: dict[str, str]) -> bool:
    """Whether a support or convoy order backs an order really given to the unit it names."""
    words = support_or_convoy.split()
    target_loc = words[4]
    target_order = chosen.get(target_loc[:3])
    if target_order is None:
        return False
    t = target_order.split()
    if len(words) == 5:  # support to hold: the unit must not move
        return t[2] != "-"
    return t[2] == "-" and t[3][:3] == words[6][:3]


def movement_orders(game: Game, powers: list[str], rng: random.Random, via: float = 0.4,
                    backing: float = 0.0) -> dict[str, list[str]]:
    """`via`: chance an army that may go by convoy is ordered "VIA"; `backing`: chance a fleet that
    could convoy a "VIA" move really ordered is made to convoy it."""
    possible = game.get_all_possible_orders()
    by_unit: dict[str, tuple[str, list[str]]] = {}
    for power in powers:
        for loc in sorted(game.get_orderable_locations(power)):  # sorted: the same game on every run
            by_unit[loc[:3]] = (power, sorted(possible[loc]))
    chosen: dict[str, str] = {}
    wants: dict[str, str] = {}
    for prov, (_, options) in by_unit.items():
        kinds = {"-": [o for o in options if " - " in o], "S": [o for o in options if " S " in o],
                 "C": [o for o in options if " C " in o], "H": [o for o in options if o.endswith(" H")]}
        weights = {"-": 0.5, "S": 0.3, "C": 0.25, "H": 0.08}
        kind = rng.choices([k for k in kinds if kinds[k]], [weights[k] for k in kinds if kinds[k]])[0]
        if kind in "-H":
            moves = kinds[kind]
            by_convoy = [o for o in moves if o.endswith("VIA")]
            chosen[prov] = rng.choice(by_convoy if by_convoy and rng.random() < via else moves)
        else:
            wants[prov] = kind
    for prov in list(wants):
        convoys = [o for o in by_unit[prov][1] if " C " in o and _matches(o, chosen)]
        if convoys and rng.random() < backing:
            chosen[prov] = rng.choice(convoys)
            del wants[prov]
    for prov, kind in wants.items():
        options = [o for o in by_unit[prov][1] if f" {kind} " in o]
        backing = [o for o in options if _matches(o, chosen)]
        chosen[prov] = rng.choice(backing if backing and rng.random() < 0.85 else options)
    orders: dict[str, list[str]] = {}
    for prov, order in chosen.items():
        orders.setdefault(by_unit[prov][0], []).append(order)
    return orders


def retreat_orders(game: Game, powers: list[str], rng: random.Random) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power in powers:
        for loc in sorted(game.get_orderable_locations(power)):
            options = sorted(possible[loc])
            retreats = [o for o in options if " R " in o]
            orders.setdefault(power, []).append(
                rng.choice(retreats) if retreats and rng.random() < 0.85 else rng.choice(options))
    return orders


def adjustment_orders(game: Game, powers: list[str], rng: random.Random) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power in powers:
        p = game.get_power(power)
        due = len(p.centers) - len(p.units)
        locs = sorted(game.get_orderable_locations(power))
        rng.shuffle(locs)
        if due > 0:
            picks = []
            for loc in locs[:due if rng.random() < 0.8 else rng.randint(0, due)]:
                picks.append(rng.choice(sorted(o for o in possible[loc] if o.endswith(" B")) or ["WAIVE"]))
            orders[power] = picks
        elif due < 0:
            count = -due if rng.random() < 0.7 else rng.randint(0, -due)
            orders[power] = [sorted(o for o in possible[loc] if o.endswith(" D"))[0] for loc in locs[:count]]
    return orders


def random_orders(game: Game, rng: random.Random, idle: float, via: float, backing: float) -> dict[str, list[str]]:
    powers = [p for p in game.powers if game.get_orderable_locations(p) and rng.random() >= idle]
    if game.phase_type == "M":
        return movement_orders(game, powers, rng, via, backing)
    return {"R": retreat_orders, "A": adjustment_orders}[game.phase_type](game, powers, rng)


# -- shrinking a difference to a small reproduction ------------------------------------------------

def _without(position: dict, orders: dict, unit: str) -> tuple[dict, dict]:
    prov = unit.split()[1][:3]
    units = {p: [u for u in us if u != unit] for p, us in position["units"].items()}
    kept = {p: [o for o in os if o.split()[1][:3] != prov or o == "WAIVE"] for p, os in orders.items()}
    return dict(position, units=units), kept


def shrink(position: dict, orders: dict, still_differs) -> tuple[dict, dict]:
    """Drop units (and their orders) one at a time while the difference remains."""
    changed = True
    while changed:
        changed = False
        for unit in [u for us in position["units"].values() for u in us]:
            smaller = _without(position, orders, unit)
            try:
                keep = still_differs(*smaller)
            except Exception:  # an engine refusing a reduced position is not the difference
                keep = False
            if keep:
                position, orders, changed = *smaller, True
    return position, orders


# -- the run ---------------------------------------------------------------------------------------

@dataclass
class Tally:
    phases: Counter = field(default_factory=Counter)
    agreed: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)
    dropped: int = 0  # orders the package refused at entry (so neither engine was given them)


PHASE_WORDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


def kind_of(phase_type: str, diff: dict, orders: dict, position: dict) -> str:
    words = PHASE_WORDS[phase_type]
    tags = []
    if phase_type == "M":
        lines = [o for os in orders.values() for o in os]
        tags = sorted({"convoy" if " C " in o else "via" if o.endswith("VIA") else "support" if " S " in o
                       else "move" if " - " in o else "hold" for o in lines})
    if phase_type == "A":
        for power, us in position["units"].items():
            short = len(us) - len(position["centres"].get(power, [])) - len(orders.get(power, []))
            if short > 0:
                tags.append("removals left to the judge")
                break
    return f"{words}: {'+'.join(sorted(diff))} differ" + (f" [{', '.join(tags)}]" if tags else "")


def play(seed: int, years: int, idle: float, via: float, backing: float, rules: Rules, variant: Variant,
         tally: Tally, examples: int) -> None:
    rng = random.Random(seed)
    game = Game()
    last = 1901 + years - 1
    # every phase starts from their position, so one difference does not become many
    while game.phase != "COMPLETED" and int(game.get_current_phase()[1:5]) <= last:
        position = their_position(game)
        orders = random_orders(game, rng, idle, via, backing)
        phase_type = game.phase_type
        kept = given(game, orders)
        tally.dropped += sum(len(os) for os in orders.values()) - sum(len(os) for os in kept.values())
        orders = kept
        ours = our_next(position, orders, rules, variant)
        game.process()
        if game.phase == "COMPLETED":
            break
        theirs = settle_their_empty_retreats(game)
        tally.phases[phase_type] += 1
        diff = differences(ours, theirs)
        if not diff:
            tally.agreed[phase_type] += 1
            continue

        def still_differs(pos, ords, aspects=frozenset(diff)):
            theirs, kept = their_next(pos, ords)
            return kept == ords and set(differences(our_next(pos, ords, rules, variant), theirs)) >= aspects

        small_pos, small_orders = (shrink(position, orders, still_differs) if phase_type != "R"
                                   else (position, orders))
        small_theirs = their_next(small_pos, small_orders)[0]
        choice = explained_by(small_pos, small_orders, rules, variant, small_theirs)
        slips = None if choice else their_slips(small_pos, small_orders, rules, variant)
        kind = (f"{PHASE_WORDS[phase_type]}: rule choice {choice}" if choice
                else f"{PHASE_WORDS[phase_type]}: {slips}" if slips
                else f"UNEXPLAINED {kind_of(phase_type, diff, small_orders, small_pos)}")
        tally.kinds[kind] += 1
        if len(tally.examples.setdefault(kind, [])) < examples * (1 if choice else 3):
            small_diff = differences(our_next(small_pos, small_orders, rules, variant),
                                     their_next(small_pos, small_orders)[0])
            tally.examples[kind].append({"game seed": seed, "position": small_pos, "orders": small_orders,
                                         "difference": small_diff})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--years", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="5th", help="our rules edition (5th, 2000, 1982)")
    parser.add_argument("--idle", type=float, default=0.08, help="chance a power sends no orders in a phase")
    parser.add_argument("--via", type=float, default=0.4, help="chance an army that may be convoyed says VIA")
    parser.add_argument("--backing", type=float, default=0.0,
                        help="chance a fleet that could convoy a VIA move ordered is made to convoy it")
    parser.add_argument("--examples", type=int, default=1, help="reproductions printed per kind of difference")
    args = parser.parse_args()
    variant = load_variant("standard")
    tally = Tally()
    for g in range(args.games):
        play(args.seed + g, args.years, args.idle, args.via, args.backing, edition(args.rules), variant, tally,
             args.examples)
    total, agreed = sum(tally.phases.values()), sum(tally.agreed.values())
    chosen = sum(n for kind, n in tally.kinds.items() if "rule choice" in kind)
    print(f"games: {args.games} x up to {args.years} years (seeds {args.seed}..{args.seed + args.games - 1}), "
          f"our rules: {args.rules}, idle {args.idle}, via {args.via}, backing {args.backing}")
    print(f"phases compared: {total}; agreed: {agreed} ({100 * agreed / max(total, 1):.2f}%)")
    print(f"agreed or differing only by a rule choice: {agreed + chosen} "
          f"({100 * (agreed + chosen) / max(total, 1):.2f}%)")
    print(f"orders the package dropped at entry (not given to us either): {tally.dropped}")
    for kind_code, name in (("M", "movement"), ("R", "retreat"), ("A", "adjustment")):
        n = tally.phases[kind_code]
        print(f"  {name:10} {tally.agreed[kind_code]}/{n} agreed")
    for kind, count in tally.kinds.most_common():
        print(f"\n== {count} x {kind}")
        for example in tally.examples[kind]:
            print(json.dumps(example, indent=None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
