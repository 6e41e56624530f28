"""The `judge` command. Each area adds its subcommands through a `register(subparsers)` function."""
from __future__ import annotations

import argparse
import importlib
import sys

# Modules that add subcommands; each has `register(subparsers)` and sets `func` on its parsers.
SUBCOMMAND_MODULES = [
    "judge.adjudicate_cli",
    "judge.sample_cli",
    "judge.serve_cli",
    "judge.mail.demo",
    "judge.games.cli",
    "judge.ops.cli",
    "judge.ops.outbox_cli",
    "judge.pictures.cli",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
