"""The `judge` command. Each area adds its subcommands through a `register(subparsers)` function.

An area's module is imported only when one of its commands runs: `judge --help` lists every
command from the table below without importing any area, `judge status` and `judge list` read the
games index with plain sqlite3 (judge.index_look: the games layer only where the index cannot
answer), `judge create` imports the games layer alone (not the mail stack, the pictures, nor the
daemon). Every command line pays only for
what its command uses (tests/test_cli_start.py; bench/cli_start.py measures it).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from .game_lines import Formatter

# Each command: the module whose `register(subparsers)` adds it (and sets `func` on its parser), and
# its line in `judge --help`, the same as the module's own (tests/test_cli_start.py holds them equal).
COMMANDS: dict[str, tuple[str, str]] = {
    "adjudicate": ("judge.adjudicate_cli", "adjudicate one phase given as JSON"),
    "sample": ("judge.sample_cli", "play a sample opening year through the engine"),
    "serve": ("judge.serve_cli", "run the mail judge (SMTP intake, optional IMAP, outbox)"),
    "demo": ("judge.mail.demo", "play a short game by mail against a running `judge serve`"),
    "create": ("judge.games.cli", "create a game (it forms until enough players join)"),
    "list": ("judge.index_look", "list the games"),
    "status": ("judge.index_look", "a game's state, powers and deadline"),
    "process": ("judge.games.cli", "play the game's current phase now"),
    "history": ("judge.games.cli", "every phase played, with its results"),
    "rollback": ("judge.games.cli", "play a game again from an earlier phase (history is kept)"),
    "export": ("judge.games.cli", "the game's whole record as JSON that `judge adjudicate` replays"),
    "account": ("judge.games.cli", "create an account (e.g. for a game master)"),
    "backup": ("judge.ops.cli", "copy judge.sqlite and every game file into DIR, consistently, while the judge runs"),
    "restore": ("judge.ops.cli", "check a backup and restore it into an empty data directory, migrating it"),
    "doctor": ("judge.ops.cli",
               "check configuration, data, schema, relay and mail flow; exit 1 if something is wrong"),
    "outbox": ("judge.ops.outbox_cli", "list the mail the judge has written, or show one"),
    "map": ("judge.pictures.cli", "draw a board position as PNG or SVG"),
}
SUBCOMMAND_MODULES = list(dict.fromkeys(module for module, _ in COMMANDS.values()))


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, each area's module imported."""
    return parser_of(SUBCOMMAND_MODULES)


def parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The parser `main` reads `argv` with: only the module of its command imported, and only that
    module's commands in it (argparse makes a parser of each, which a command line that runs one
    need not pay for). With no command, or one that does not exist: every command by name and
    summary, none of them runnable, no area imported (`judge --help`, or a misspelt command told
    the real ones)."""
    command = command_in(argv)
    return parser_of([COMMANDS[command][0]], others=False) if command in COMMANDS else parser_of([])


def parser_of(modules: list[str], *, others: bool = True) -> argparse.ArgumentParser:
    """The parser of the commands `modules` register; `others`: the rest by name and summary."""
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.",
                                     formatter_class=Formatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules:
        importlib.import_module(module).register(sub)
    for name, (module, summary) in COMMANDS.items():
        if others and module not in modules:
            sub.add_parser(name, help=summary, formatter_class=Formatter)
    return parser


def command_in(argv: list[str]) -> str | None:
    """The command word of a command line: its first word that is not an option (the `judge` command
    itself has no option but -h, which takes no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


# What a shell reports for a command killed by SIGPIPE (128 + 13): the status of `judge list | head`
# once head has gone, as for any Unix tool.
CLOSED_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = parser_for(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()          # here, not at exit: a closed pipe is caught below, not reported at shutdown
    except ValueError as e:
        # the games layer's refusal with a code, let through by its command: the judge's words for it (only
        # now are the games layer and the mail's words imported, so a command that succeeds loads neither)
        from .games.model import GameError
        if not isinstance(e, GameError) or e.why is None:
            raise
        from .mail.words.refusals import refusal_words
        print(f"judge {args.command}: {refusal_words(e)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader (head, less) has gone: the rest of the output is not wanted. Python would print a
        # traceback, and another one flushing stdout at exit: stdout goes to /dev/null instead.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    return status


if __name__ == "__main__":
    sys.exit(main())
