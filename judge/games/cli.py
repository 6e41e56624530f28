"""`judge create|process|history|rollback|export|account`: the keeper's and game master's commands; and
`list` and `status` where the games index cannot answer them alone (judge.index_look).

Every command takes `--data DIR` (default: $JUDGE_DATA, else var/) and `--json` for machine output.
"""
from __future__ import annotations

import argparse
import json
import os
from dataclasses import asdict, is_dataclass
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..game_lines import common_options, data_default, status_text

if TYPE_CHECKING:       # the games layer is imported when a command runs, not for `judge --help`
    from .answers import GameState
    from .service import GameService

Command = Callable[[argparse.Namespace], int]     # a subcommand: its parsed arguments in, exit status out


def _setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"settings are key=value, not {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


EXAMPLES = {
    "create": "judge create spring26 --master gm --time-zone Europe/Paris --set movement_hours=72 --players six",
    "process": "judge process spring26      # plays the current phase now, missing orders or not",
    "history": "judge history spring26",
    "rollback": "judge rollback spring26 F1902M",
    "export": "judge export spring26 -o spring26.json && judge adjudicate spring26.json   # replays the game",
    "account": "JUDGE_PW=... judge account gm gm@example.org --password-env JUDGE_PW --time-zone Europe/Paris",
}


def _add(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str, func: Command,
         help_: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help_, description=help_, epilog="example: " + EXAMPLES[name],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    common_options(p)
    p.set_defaults(func=func)
    return p


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _add(subparsers, "create", _create, "create a game (it forms until enough players join)")
    p.add_argument("name")
    p.add_argument("--variant", default="standard")
    p.add_argument("--rules", default="5th", help="rules edition: 5th, 2000 or 1982")
    p.add_argument("--master", help="the game master's account")
    p.add_argument("--players", default="seven", help="seven, six, five, four, three, three-1982, two")
    p.add_argument("--time-zone", default="UTC", help="the game's IANA time zone, e.g. Europe/Paris")
    p.add_argument("--set", dest="settings", action="append", type=_setting, default=[], metavar="KEY=VALUE",
                   help="another game setting, e.g. movement_hours=72 or reminder_hours=[24,2]")
    # `list` and `status`: judge.index_look, which answers from the index and calls list_games and
    # game_status below where it cannot
    for name, func, help_ in (("process", _process, "play the game's current phase now"),
                              ("history", _history, "every phase played, with its results")):
        _add(subparsers, name, func, help_).add_argument("game")
    p = _add(subparsers, "rollback", _rollback, "play a game again from an earlier phase (history is kept)")
    p.add_argument("game")
    p.add_argument("phase", help="a phase code such as F1902M")
    p = _add(subparsers, "export", _export, "the game's whole record as JSON that `judge adjudicate` replays")
    p.add_argument("game")
    p.add_argument("-o", "--output", metavar="FILE", help="write it here (default: standard output)")
    p = _add(subparsers, "account", _account, "create an account (e.g. for a game master)")
    p.add_argument("name")
    p.add_argument("address")
    p.add_argument("--time-zone", default="UTC")
    p.add_argument("--password-env", metavar="VAR", help="read the password from this environment variable")
    p.add_argument("--keeper", action="store_true")


def _service(args: argparse.Namespace, *, sweep: bool = False) -> GameService:
    """The games service on the data directory. `sweep`: the index brought up to date with the game
    files first (it lists them: a crash, or a file the keeper put back, may have left it behind);
    the other commands read or write one game's own file, and pay nothing for the other 10,000."""
    from .service import GameService
    svc = GameService(Path(args.data or data_default()))
    if sweep:
        svc.sync_index(quick=True)
    return svc


def _json(value: Any) -> Any:
    """GameService's answers (frozen dataclasses) as JSON objects."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _out(args: argparse.Namespace, value: Any, text: str) -> int:
    print(json.dumps(value, indent=2, sort_keys=True, default=_json) if args.json else text)
    return 0


def _guard(func: Command) -> Command:
    def run(args: argparse.Namespace) -> int:
        from .answers import NoSuchGame
        from .model import GameError
        try:
            return func(args)
        except (GameError, NoSuchGame, KeyError, ValueError) as e:   # KeyError: no such account
            if isinstance(e, GameError) and e.why is not None:
                raise       # a refusal by code: worded in the judge's words by the command line (judge.cli)
            print(f"judge {args.command}: {e.args[0] if e.args else e}")
            return 1
    return run


@_guard
def _create(args: argparse.Namespace) -> int:
    settings = dict(args.settings)
    settings.setdefault("players", args.players)
    settings.setdefault("time_zone", args.time_zone)
    status = _service(args).create_game(args.name, variant=args.variant, rules=args.rules, master=args.master,
                                        settings=settings)
    return _out(args, status, f"created {status.name} ({status.variant}, {status.rules} rules); "
                              f"it starts when {len(_seats(status))} players have joined")


def _seats(status: GameState) -> list[tuple[str, ...]]:
    from ..engine import load_variant
    from .small import setup
    return list(setup(status.settings["players"], load_variant(status.variant)).seats)


@_guard
def _export(args: argparse.Namespace) -> int:
    record = _service(args).export(args.game)
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    if not args.output:
        print(text, end="")
        return 0
    Path(args.output).write_text(text, encoding="utf-8")
    replay = "replays with `judge adjudicate`" if record["replayable"]["ok"] else \
        f"does not replay exactly: {record['replayable']['why']}"
    print(f"wrote {args.output}: {len(record['phases'])} phases of {args.game}; it {replay}")
    return 0


@_guard
def sync_games(args: argparse.Namespace) -> int:
    """The games index brought up to date with the game files that changed since their rows were
    written (`judge list`, judge.index_look, when some file is not as its row says)."""
    _service(args, sweep=True)
    return 0


@_guard
def game_status(args: argparse.Namespace) -> int:
    """`judge status` by the games layer, from the game's file."""
    s = _service(args).status(args.game)
    return _out(args, s, status_text(s.to_json()))


@_guard
def _process(args: argparse.Namespace) -> int:
    svc = _service(args)
    done = svc.process(args.game)
    s = svc.status(args.game)
    return _out(args, {"done": done, "phase": s.phase}, f"{args.game}: {done}; now {s.phase}")


@_guard
def _history(args: argparse.Namespace) -> int:
    h = _service(args).history(args.game)
    lines = []
    for row in h:
        mark = " (rolled back)" if row.rolled_back else ""
        lines.append(f"{row.seq:>3} {row.phase} started {row.started_at} "
                     f"processed {row.processed_at or '-'}{mark}")
        if row.civil_disorder:
            lines.append("      civil disorder: " + ", ".join(row.civil_disorder))
        for r in row.results:
            for o in r["outcomes"]:
                judge = " (by the judge)" if o["by_judge"] else ""
                lines.append(f"      {r['phase']} {o['power']:<8} {o['order']:<24} {o['reason']}{judge}")
    return _out(args, h, "\n".join(lines) or "no phases yet")


@_guard
def _rollback(args: argparse.Namespace) -> int:
    s = _service(args).rollback(args.game, args.phase)
    return _out(args, s, f"{args.game} is back at {s.phase_name}")


@_guard
def _account(args: argparse.Namespace) -> int:
    password = os.environ.get(args.password_env) if args.password_env else None
    a = _service(args).create_account(args.name, args.address, password, time_zone=args.time_zone,
                                      keeper=args.keeper)
    return _out(args, {"name": a.name, "addresses": list(a.addresses), "time_zone": a.time_zone},
                f"account {a.name} <{a.addresses[0]}>")
