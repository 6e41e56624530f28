"""Order parsing speed: order lines per second and the time for a 34-order message.

Goals (issue 3): at least 50,000 lines/s and under 2 ms per 34-order message.
Prints medians and p95 of repeated runs, for a reader without its memo (every line
read from scratch: lexer, name index, LALR parse) and with it (the default: a line
read before is not read again), and without the memo with a board in hand (the
opening position: names only the board settles are tried against it, as mail is read).
Run: .venv/bin/python bench/parse.py
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from judge.engine import load_variant, starting_position
from judge.engine.calendar import PhaseKind
from judge.language import BoardView, OrderReader

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "language" / "orders_corpus.tsv"


def corpus_lines() -> list[tuple[PhaseKind, str]]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            phase, text, _ = line.split("\t")
            out.append((PhaseKind(phase), text))
    return out


def lines_per_second(reader: OrderReader, lines, rounds: int, board=None, clock=time.perf_counter) -> list[float]:
    """`board`: a BoardView the movement lines are read with (as mail is: names the board settles).
    `clock`: wall time, or `time.process_time` for lines per second of this process's CPU (what the
    reader costs, whatever else the machine is doing)."""
    rates = []
    for _ in range(rounds):
        start = clock()
        for phase, text in lines:
            reader.parse(text, phase, position=board if phase is PhaseKind.MOVEMENT else None)
        rates.append(len(lines) / (clock() - start))
    return rates


def message_ms(reader_factory, message: str, rounds: int) -> list[float]:
    times = []
    reader = reader_factory()
    for _ in range(rounds):
        start = time.perf_counter()
        result = reader.parse(message, PhaseKind.MOVEMENT)
        times.append((time.perf_counter() - start) * 1000)
        assert len(result.orders) == 34 and not result.errors
    return times


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    variant = load_variant("standard")
    lines = corpus_lines()
    cold = OrderReader(variant, memo_size=0)
    warm = OrderReader(variant)
    for reader in (cold, warm):
        lines_per_second(reader, lines, 1)  # warm-up
    cold_rates = lines_per_second(cold, lines, 15)
    warm_rates = lines_per_second(warm, lines, 15)
    cpu_rates = lines_per_second(cold, lines, 15, clock=time.process_time)
    board = BoardView(variant, starting_position(variant))
    board_rates = lines_per_second(cold, lines, 15, board)
    movement = [text for phase, text in lines if phase is PhaseKind.MOVEMENT and ";" not in text
                and "," not in text and ":" not in text]
    message = "\n".join(movement[:34])
    cold_msg = message_ms(lambda: OrderReader(variant, memo_size=0), message, 200)
    warm_msg = message_ms(lambda: OrderReader(variant), message, 200)
    print(f"corpus: {len(lines)} lines")
    print(f"lines/s, no memo : median {statistics.median(cold_rates):9.0f}  p5 {sorted(cold_rates)[0]:9.0f}  "
          f"(goal 50000: {'met' if statistics.median(cold_rates) >= 50000 else 'NOT met'})")
    print(f"lines per CPU second, no memo: median {statistics.median(cpu_rates):9.0f}  "
          f"(the same reading, timed by this process's CPU time: the machine's load left out)")
    print(f"lines/s, memo    : median {statistics.median(warm_rates):9.0f}  p5 {sorted(warm_rates)[0]:9.0f}")
    print(f"lines/s, no memo, with the opening board: median {statistics.median(board_rates):9.0f}")
    print(f"34-order message, no memo: median {statistics.median(cold_msg):.3f} ms  p95 {p95(cold_msg):.3f} ms  "
          f"(goal < 2 ms: {'met' if statistics.median(cold_msg) < 2 else 'NOT met'})")
    print(f"34-order message, memo   : median {statistics.median(warm_msg):.3f} ms  p95 {p95(warm_msg):.3f} ms")
    start = time.perf_counter()
    OrderReader(variant)
    print(f"building an OrderReader (grammar + name index): {(time.perf_counter() - start) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
