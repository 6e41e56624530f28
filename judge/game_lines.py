"""What `judge status` prints, made from the game's state as JSON: the games index's copy
(judge.index_look) and the games layer's answer (judge.games.cli) give the same lines by the same
code. Also the options every games command takes. Plain Python: no area imported."""
from __future__ import annotations

import argparse
import os
import sys

# A JSON object. (No `typing` here: importing it is a tenth of `judge status`'s own time.)
Json = dict


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, told the terminal's width as shutil.get_terminal_size would say it
    ($COLUMNS, else the terminal's, else 80): argparse makes one for every argument a parser is given,
    and without a width each imports shutil (with bz2 and lzma, a tenth of a bare Python start)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class RawFormatter(Formatter, argparse.RawDescriptionHelpFormatter):
    """Formatter, the description and epilog as written."""


def _columns() -> int:
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def data_default() -> str:
    return os.environ.get("JUDGE_DATA") or os.environ.get("JUDGE_DATA_DIR") or "var"


def common_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=None, metavar="DIR", help="data directory (default $JUDGE_DATA or var/)")
    p.add_argument("--json", action="store_true", help="print JSON")


def printed(args: argparse.Namespace, value: object, text: str) -> int:
    """`value` as JSON with --json, else `text`; exit status 0."""
    if args.json:
        import json     # (only here: `judge list` without --json never needs it)
        text = json.dumps(value, indent=2, sort_keys=True)
    print(text)
    return 0


def status_text(s: Json) -> str:
    """A game's state (GameState's JSON), its powers in the order the state gives them."""
    lines = [f"{s['name']}: {s['status']}, {s['phase_name'] or 'not started'} ({s['variant']}, {s['rules']} rules)"]
    if s["deadline"]:
        lines.append("deadline " + " / ".join(s["deadline"]["shown"].values()))
    for p, v in s["powers"].items():
        owes = " owes orders" if v["owes"] else ""
        lines.append(f"  {p:<8} {v['account'] or '-':<16} {v['status']:<15} {v['centres']:>2} centres{owes}")
    if s["signups"] and s["status"] == "forming":
        lines.append("joined: " + ", ".join(s["signups"]))
    if s["result"]:
        lines.append(f"result: {s['result']['how']}, " + ", ".join(s["result"]["winners"]))
    return "\n".join(lines)
