"""The `judge` command. Each area adds its subcommands through a `register(subparsers)` function."""
from __future__ import annotations

import argparse
import importlib
import os
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


# What a shell reports for a command killed by SIGPIPE (128 + 13): the status of `judge list | head`
# once head has gone, as for any Unix tool.
CLOSED_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()          # here, not at exit: a closed pipe is caught below, not reported at shutdown
    except BrokenPipeError:
        # The reader (head, less) has gone: the rest of the output is not wanted. Python would print a
        # traceback, and another one flushing stdout at exit: stdout goes to /dev/null instead.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    return status


if __name__ == "__main__":
    sys.exit(main())
