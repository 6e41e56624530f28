"""Benchmark: our engine with every outcome built against TedDriggs' Rust crate `diplomacy` (issue 27, item 6).

Both engines get the same movement phases:
- `seeded`: bench/adjudicate.py's seeded full-board positions with random legal orders, real games'
  share of them (0.45) with one or two armies convoyed beyond their neighbours;
- `games`: the movement phases of bench/adjudicate_games.py's seeded whole games from the standard
  start (convoys in the same share, retreats ordered, adjustments left to the rules' defaults);
- `rulebooks`: the movement phases of the three rulebooks' printed sample games
  (tests/data/rulebooks/sample_game_*.json, each read by the players' reader as mail is).

Ours: `adjudicate(variant, position, orders)` and its `.outcomes` read (every order's outcome and
reason: what `judge adjudicate` returns), in this process. Theirs: bench/rust/, a harness of our own
around the crate, as a child process: the same orders in the crate's syntax, each case
`Submission::new` (illegal orders found, holds made) + `adjudicate` (which explains every order) + every
outcome read, timed with Rust's `Instant` and the thread's CPU clock (ours: perf_counter and
thread_time). Rounds alternate ours and theirs, quiet and then beside a CPU
hog of the bench's own (one busy process per core); in each round each side runs a set once untimed,
then timed (warm caches for both); each case's median over the rounds is kept. Ratios
are theirs / ours: above 1, ours is faster. `CHECK` compares each case's count of succeeding orders: a
sanity check that both read the same orders (the engines' rule choices differ in a few cases).

Building the crate here (crates.io unreachable): see bench/README.md, "engine_vs_rust.py".

    .venv/bin/python bench/engine_vs_rust.py --prepare /path/to/TedDriggs+diplomacy/repo   # once: makes --crate
    .venv/bin/python bench/engine_vs_rust.py [--positions 300] [--games 30] [--rounds 5] [--crate DIR] [--only games]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from adjudicate import REAL_CONVOY_SHARE, random_orders  # noqa: E402
from adjudicate_games import play  # noqa: E402
from cli_start import Hog  # noqa: E402
from engine_phases import random_position, with_convoys  # noqa: E402

from judge.engine import (Convoy, Hold, Location, Move, Position, SupportHold, SupportMove, UnitKind,  # noqa: E402
                          adjudicate, edition, load_variant, process_phase, starting_position)
from judge.engine.calendar import PhaseKind  # noqa: E402

HARNESS = ROOT / "bench" / "rust"
BINARY = HARNESS / "target" / "release" / "engine_vs_rust"
RULEBOOKS = ROOT / "tests" / "data" / "rulebooks"


# From impls that derive(FromVariants) would make (the `from_variants` crate is not packaged by Debian)
FROM_VARIANTS = "".join(
    f"impl<O> From<{inner}> for OrderOutcome<O> {{ fn from(v: {inner}) -> Self {{ OrderOutcome::{variant}(v) }} }}\n"
    for variant, inner in (("Illegal", "IllegalOrder"), ("Hold", "HoldOutcome<O>"), ("Move", "AttackOutcome<O>"),
                           ("Support", "SupportOutcome<O>"), ("Convoy", "ConvoyOutcome<O>")))


def prepare(git_dir: Path, crate: Path, variant) -> None:
    """A local copy of the crate that builds here and plays our board: extracted from `git_dir` (the
    `fetch` tool's copy of github:TedDriggs/diplomacy), `from_variants` replaced by plain From impls,
    petgraph relaxed to Debian's 0.6.2, and every adjacency of our standard board its borders.csv lacks
    added (at 588758e it lacks eleven, e.g. every border of the Gulf of Bothnia but the Baltic's)."""
    crate.parent.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", "HEAD"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(crate.parent)], input=archive.stdout, check=True)
    manifest = crate / "Cargo.toml"
    text = manifest.read_text(encoding="utf-8")
    text = "".join(line + "\n" for line in text.splitlines() if not line.startswith("from_variants"))
    manifest.write_text(text.replace('petgraph = "0.6.5"', 'petgraph = "0.6.2"'), encoding="utf-8")
    outcome = crate / "src" / "judge" / "outcome.rs"
    text = outcome.read_text(encoding="utf-8").replace("use from_variants::FromVariants;\n", "")
    text = text.replace("#[derive(FromVariants, ", "#[derive(")
    outcome.write_text(text.replace("impl<O> OrderOutcome<O> {", FROM_VARIANTS + "\nimpl<O> OrderOutcome<O> {", 1),
                       encoding="utf-8")
    borders = crate / "src" / "geo" / "borders.csv"
    header, *lines = borders.read_text(encoding="utf-8").splitlines()
    rows = [line.split(",") for line in lines]
    army = {frozenset((a, b)) for a, b, terrain in rows if terrain != "sea"}
    fleet = {frozenset((a, b)) for a, b, terrain in rows if terrain != "land"}
    board = variant.board
    army_missing = {frozenset((p, q)) for p in board.provinces for q in board.army_neighbours(p)} - army
    fleet_missing = {frozenset((where(loc), where(to))) for p in board.provinces
                     for loc in [Location(p), *(Location(p, c) for c in board.province(p).coasts)]
                     for to in board.fleet_neighbours(loc)} - fleet
    kept = []
    for a, b, terrain in rows:  # a border the crate has for one kind of unit that ours has for both
        pair = frozenset((a, b))
        widened = (terrain == "land" and pair in fleet_missing) or (terrain == "sea" and pair in army_missing)
        if widened:
            fleet_missing.discard(pair)
            army_missing.discard(pair)
        kept.append(f"{a},{b},{'coast' if widened else terrain}")
    for pair in sorted(army_missing | fleet_missing, key=sorted):
        terrain = "coast" if pair in army_missing and pair in fleet_missing else \
            "land" if pair in army_missing else "sea"
        kept.append(",".join(sorted(pair)) + f",{terrain}")
    borders.write_text("\n".join([header, *kept]) + "\n", encoding="utf-8")


def build(crate: Path) -> None:
    """cargo build the harness against the local copy of the crate (bench/README.md says how it is made)."""
    subprocess.run(["cargo", "build", "--release", "--quiet", "--config",
                    f'patch.crates-io.diplomacy.path="{crate}"'], cwd=HARNESS, check=True)


def where(location: Location) -> str:
    """A location in the crate's spelling: `stp(nc)`."""
    return location.province if location.coast is None else f"{location.province}({location.coast.value})"


def kind_letter(kind: UnitKind | None) -> str:
    return "F" if kind is UnitKind.FLEET else "A"


def crate_order(power: str, order, moves: dict[str, Location]) -> str:
    """`order` in the crate's syntax. `moves`: each moving unit's province and destination: the crate
    matches a support to a move by the destination's coast too, so a support names the coast the
    supported unit moves to (ours, as the rules do, names the province)."""
    unit = f"{power}: {kind_letter(order.unit.kind)} {where(order.unit.location)}"
    if isinstance(order, Hold):
        return f"{unit} hold"
    if isinstance(order, Move):
        return f"{unit} -> {where(order.to)}" + (" via convoy" if order.via_convoy else "")
    if isinstance(order, SupportHold):
        return f"{unit} supports {kind_letter(order.supported.kind)} {where(order.supported.location)}"
    if isinstance(order, SupportMove):
        to = moves.get(order.supported.location.province, order.to)
        to = to if to.province == order.to.province else order.to
        return (f"{unit} supports {kind_letter(order.supported.kind)} {where(order.supported.location)}"
                f" -> {where(to)}")
    if isinstance(order, Convoy):
        return f"{unit} convoys {where(order.army.location)} -> {where(order.to)}"
    raise ValueError(f"no crate spelling for {order!r}")


def crate_case(position: Position, orders: dict[str, list]) -> str:
    moves = {o.unit.location.province: o.to for os in orders.values() for o in os if isinstance(o, Move)}
    lines = [f"U {u.power}: {kind_letter(u.kind)} {where(u.location)}" for u in position.units]
    lines += [f"O {crate_order(power, o, moves)}" for power, os in orders.items() for o in os]
    return "\n".join(lines) + "\n=\n"


def seeded_cases(variant, n: int, seed: int) -> list[tuple[Position, dict]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        position = random_position(variant, rng)
        orders = random_orders(variant, position, rng)
        if rng.random() < REAL_CONVOY_SHARE:
            orders = with_convoys(variant, position, orders, rng, armies=rng.choice((1, 2)))
        cases.append((position, orders))
    return cases


def game_cases(variant, games: int, years: int, seed: int) -> list[tuple[Position, dict]]:
    rng = random.Random(seed)
    return [case for _ in range(games) for case in play(variant, rng, years, REAL_CONVOY_SHARE)[1]]


def rulebook_cases(variant) -> list[tuple[Position, dict]]:
    """Each printed sample game's movement phases, its orders read from the data's canonical lines."""
    from judge.language import OrderReader
    reader = OrderReader(variant)
    cases = []
    for path in sorted(RULEBOOKS.glob("sample_game_*.json")):
        book = json.loads(path.read_text(encoding="utf-8"))
        position = starting_position(variant)
        for phase in book["phases"]:
            orders = {}
            for power, lines in phase["read"].items():
                parsed = reader.parse("\n".join(lines), position.phase.kind, power=power, position=position)
                orders[power] = [p.order for p in parsed.orders]
            if position.phase.kind is PhaseKind.MOVEMENT:
                cases.append((position, orders))
            position = process_phase(variant, position, orders, edition(book["rules"])).next
    return cases


def time_ours(variant, cases) -> tuple[list[float], list[float]]:
    """Each case's seconds by the wall clock and by this thread's CPU time (another job's load left out)."""
    wall, cpu = [], []
    clock, cpu_clock = time.perf_counter, time.thread_time
    for position, orders in cases:
        t, c = clock(), cpu_clock()
        result = adjudicate(variant, position, orders)
        _ = result.outcomes  # every order's outcome and reason, as judge adjudicate returns them
        c = cpu_clock() - c
        wall.append(clock() - t)
        cpu.append(c)
    return wall, cpu


def our_moves_succeeding(variant, cases) -> list[int]:
    """Each case's moves that succeed (the units that move: what both engines mean alike by success)."""
    return [sum(o.succeeded and isinstance(o.order, Move) and not o.by_judge
                for o in adjudicate(variant, position, orders).outcomes) for position, orders in cases]


class Crate:
    """The harness as a child process holding every case."""

    def __init__(self, cases) -> None:
        self.process = subprocess.Popen([str(BINARY)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdin is not None
        self.process.stdin.write("".join(crate_case(p, o) for p, o in cases) + "END\n")
        self.process.stdin.flush()

    def ask(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def check(self) -> list[int]:
        return [int(x) for x in self.ask("CHECK").split()]

    def round(self) -> tuple[list[float], list[float]]:
        """Each case's seconds by the wall clock and by the harness thread's CPU time."""
        wall, cpu = self.ask("ROUND").split("|")
        return [int(x) / 1e9 for x in wall.split()], [int(x) / 1e9 for x in cpu.split()]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("QUIT\n")
        self.process.stdin.close()
        self.process.wait()


def per_case(rounds: list[list[float]]) -> list[float]:
    return [statistics.median(times) for times in zip(*rounds, strict=True)]


def measure(variant, sets: dict[str, list], crates: dict[str, Crate], rounds: int) -> dict[str, dict[str, list]]:
    """Per set, per clock (ours and theirs, wall and CPU): each case's median over the rounds, in
    seconds; the rounds alternate ours and theirs."""
    runs: dict[str, dict[str, list]] = {name: {k: [] for k in ("ours", "ours_cpu", "theirs", "theirs_cpu")}
                                        for name in sets}
    for _ in range(rounds):
        for name, cases in sets.items():
            # each side's run of the set is timed after one untimed run of it: the set's first cases
            # otherwise ran after the other side had taken the caches (the rulebooks' first phase took
            # 90-320 us of ours so, against 30 warm, which alone made a twelfth of that set's mean)
            time_ours(variant, cases)
            wall, cpu = time_ours(variant, cases)
            runs[name]["ours"].append(wall)
            runs[name]["ours_cpu"].append(cpu)
            crates[name].round()
            wall, cpu = crates[name].round()
            runs[name]["theirs"].append(wall)
            runs[name]["theirs_cpu"].append(cpu)
    return {name: {k: per_case(v) for k, v in by.items()} for name, by in runs.items()}


def report(label: str, load: tuple[float, float], figures: dict[str, dict[str, list]]) -> None:
    print(f"\n{label} (load {load[0]:.1f} before, {load[1]:.1f} after); a phase's mean, then median:")
    for name, f in figures.items():
        for clock, ours, theirs in (("wall", f["ours"], f["theirs"]), ("CPU", f["ours_cpu"], f["theirs_cpu"])):
            mean_ratio = statistics.fmean(theirs) / statistics.fmean(ours)
            print(f"  {name:<9} {clock:<4} ours {statistics.fmean(ours) * 1e6:7.1f} / "
                  f"{statistics.median(ours) * 1e6:7.1f} us;  crate {statistics.fmean(theirs) * 1e6:7.1f} / "
                  f"{statistics.median(theirs) * 1e6:7.1f} us;  ratio {mean_ratio:4.2f}x / "
                  f"{statistics.median(theirs) / statistics.median(ours):4.2f}x "
                  f"(goal 2x by the mean: {'met' if mean_ratio >= 2 else 'NOT met'})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=300, help="seeded positions")
    parser.add_argument("--games", type=int, default=30, help="seeded whole games")
    parser.add_argument("--years", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--crate", type=Path, default=Path("/tmp/diplomacy-rs/diplomacy"),
                        help="the local (patched) copy of TedDriggs' crate")
    parser.add_argument("--prepare", type=Path, metavar="GIT_DIR",
                        help="first make --crate from this git directory of github:TedDriggs/diplomacy")
    parser.add_argument("--no-hog", action="store_true", help="quiet only")
    parser.add_argument("--only", choices=("seeded", "games", "rulebooks"), action="append",
                        help="measure only this set (may be given again); default: all three")
    args = parser.parse_args()
    variant = load_variant("standard")
    if args.prepare:
        prepare(args.prepare, args.crate.resolve(), variant)
    build(args.crate.resolve())
    makers = {"seeded": lambda: seeded_cases(variant, args.positions, args.seed),
              "games": lambda: game_cases(variant, args.games, args.years, args.seed),
              "rulebooks": lambda: rulebook_cases(variant)}
    sets = {name: make() for name, make in makers.items() if not args.only or name in args.only}
    crates = {name: Crate(cases) for name, cases in sets.items()}
    from judge.engine import compiled
    print(f"our engine: {'compiled (mypyc, bin/compile-engine)' if compiled.ACTIVE else 'pure Python'}; "
          f"{args.rounds} alternating rounds, each case's median kept")
    for name, cases in sets.items():
        convoyed = sum(any(isinstance(o, Convoy) for os in orders.values() for o in os) for _, orders in cases)
        theirs = crates[name].check()
        agree = sum(a == b for a, b in zip(our_moves_succeeding(variant, cases), theirs, strict=True))
        print(f"  {name:<9} {len(cases):5d} movement phases, {convoyed} with a convoy; moves that "
              f"succeed counted alike by both engines in {agree} of them")
    for name, cases in sets.items():  # warm up
        time_ours(variant, cases)
        crates[name].round()
    before = os.getloadavg()[0]
    figures = measure(variant, sets, crates, args.rounds)
    report("quiet", (before, os.getloadavg()[0]), figures)
    if not args.no_hog:
        with Hog():
            before = os.getloadavg()[0]
            figures = measure(variant, sets, crates, args.rounds)
            report(f"beside a CPU hog ({os.cpu_count()} busy processes)", (before, os.getloadavg()[0]), figures)
    for crate in crates.values():
        crate.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
