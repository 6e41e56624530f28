"""Benchmark: reading real clients' mail (tests/data/mail/clients) from raw bytes to commands and orders.

For each message: parse the bytes as the archive does, `clean_body`, `parse_message` with the
standard map. Prints the median time per message, the slowest messages, and the ratio of the
whole read to the bare order parse of the same cleaned text (what the clean-up and the
greeting check cost on top of reading orders). A fresh OrderReader per round, so the reader's
memo of orders already read does not hide the parse.

    .venv/bin/python bench/mail_clients.py [--rounds 20]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.engine import load_variant  # noqa: E402
from judge.engine.calendar import PhaseKind  # noqa: E402
from judge.language import CommandReader, OrderContext, OrderReader, clean_body, parse_message  # noqa: E402

CLIENTS = ROOT / "tests" / "data" / "mail" / "clients"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    manifest = json.loads((CLIENTS / "expected.json").read_text(encoding="utf-8"))
    raws = {name: (CLIENTS / name).read_bytes() for name in sorted(manifest)}
    variant, commands = load_variant("standard"), CommandReader()
    whole: dict[str, list[float]] = {name: [] for name in raws}
    bare: dict[str, list[float]] = {name: [] for name in raws}
    for _ in range(args.rounds):
        reader = OrderReader(variant)
        for name, raw in raws.items():
            kind = PhaseKind[manifest[name].get("phase", "movement").upper()]
            start = time.perf_counter()
            text = clean_body(message_from_bytes(raw, policy=policy.default))
            parse_message(text, lambda signon, reader=reader, kind=kind: OrderContext(reader, kind, "FRANCE"),
                          commands=commands)
            whole[name].append(time.perf_counter() - start)
            fresh = OrderReader(variant)
            start = time.perf_counter()
            fresh.parse(text, kind)
            bare[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(times) * 1000 for name, times in whole.items()}
    bare_medians = {name: statistics.median(times) * 1000 for name, times in bare.items()}
    print(f"{len(raws)} messages, {args.rounds} rounds")
    print(f"median per message: {statistics.median(medians.values()):.2f} ms "
          f"(bare order parse of the cleaned text: {statistics.median(bare_medians.values()):.2f} ms)")
    print(f"ratio whole / bare parse: {sum(medians.values()) / sum(bare_medians.values()):.2f}")
    for name in sorted(medians, key=medians.get, reverse=True)[:5]:
        print(f"  {medians[name]:7.2f} ms  {name}")


if __name__ == "__main__":
    main()
