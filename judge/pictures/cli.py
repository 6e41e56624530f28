"""`judge map`: draw a position as PNG or SVG, from `judge adjudicate` JSON or from a game."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine import edition, load_variant, process_phase
from ..engine.notation import NotationError, position_from_json
from ..engine.rules import DEFAULT
from ..games.answers import NoSuchGame
from ..order_reading import read_order_lines
from .paint_png import paint_png
from .paint_svg import paint_svg
from .render import build_scene, title_of

EPILOG = """examples:
  judge adjudicate request.json | judge map -o after.png      # the position after (the response's `next`)
  judge map request.json -o s1901.png                         # the request's position with its orders
  judge map --data var spring26 F1902M -o f1902.svg           # a game's phase, orders and outcomes
  judge map --data var spring26                               # the current position, PNG to stdout"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="draw a board position as PNG or SVG",
                       description="Draw a position: from a `judge adjudicate` request (its position, and its "
                                   "orders with their outcomes if it has any) or response (its `next`), or from "
                                   "a game's phase with --data.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", nargs="*", metavar="FILE | GAME [PHASE]",
                   help="JSON file (default: standard input); with --data, a game and optionally a phase code")
    p.add_argument("--data", metavar="DIR", help="draw from the games in this data directory")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    p.add_argument("--format", choices=("png", "svg"), help="default: from the output's suffix, else png")
    p.add_argument("--width", type=int, help="picture width in pixels (default: the board's, 1200 on most)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    fmt = args.format or ("svg" if args.output and args.output.lower().endswith(".svg") else "png")
    try:
        scene, title = _from_game(args) if args.data else _from_json(args)
    except (ValueError, KeyError, NoSuchGame, NotationError, OSError) as e:
        if getattr(e, "why", None) is not None:
            raise       # the games layer's refusal by code: worded by the command line (judge.cli)
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"judge map: {message}", file=sys.stderr)
        return 1
    data = paint_svg(scene, title).encode("utf-8") if fmt == "svg" else paint_png(scene)
    if args.output:
        Path(args.output).write_bytes(data)
    elif sys.stdout.isatty():
        print("judge map: not writing a picture to the terminal; give -o FILE or redirect the output", file=sys.stderr)
        return 1
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def _from_json(args: argparse.Namespace):
    if len(args.source) > 1:
        raise ValueError("give one JSON file (or use --data DIR GAME PHASE for a game)")
    text = Path(args.source[0]).read_text(encoding="utf-8") if args.source else sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the input is not JSON ({e}); give a `judge adjudicate` request or response") from None
    if not isinstance(data, dict):
        raise ValueError("the input must be a JSON object: a `judge adjudicate` request or response")
    if "error" in data and "next" not in data:
        raise ValueError(f"the input is an error response: {data['error']}")
    request = data.get("next", data)
    if "phase" not in request:
        raise ValueError('the input needs a phase, e.g. "S1901M" (a request) or a `next` position (a response)')
    variant = load_variant(request.get("variant", data.get("variant", "standard")))
    position = position_from_json(variant, request)
    results = None
    if "next" not in data and request.get("orders"):
        orders = {}
        for power, given in request["orders"].items():
            if power.strip().upper() not in variant.power_ids:
                raise ValueError(f"no power {power!r} in the {variant.name} variant")
            lines = given.splitlines() if isinstance(given, str) else given
            orders[power.strip().upper()], bad, _ = read_order_lines(variant, position.phase.kind, lines)
            for b in bad:
                print(f"judge map: {power} line {b['line']}: {b['error']}", file=sys.stderr)
        rules = edition(request["rules"]) if request.get("rules") else DEFAULT
        results = process_phase(variant, position, orders, rules).result
    return build_scene(variant, position, results, width=args.width), title_of(variant, position)


def _from_game(args: argparse.Namespace):
    from ..games.service import GameService
    from .games import game_title, phase_board

    if not 1 <= len(args.source) <= 2:
        raise ValueError("with --data give a game and optionally a phase code: judge map --data var GAME F1901M")
    data = Path(args.data)
    if not (data / "judge.sqlite").is_file():
        raise ValueError(f"{data} is not a judge data directory (no judge.sqlite)")
    service = GameService(data)
    record = service.phase_record(args.source[0], args.source[1] if len(args.source) == 2 else None)
    variant, position, outcomes, dislodged = phase_board(service, record)
    title = game_title(args.source[0], variant, position)
    scene = build_scene(variant, position, outcomes or None, width=args.width, dislodged=dislodged, title=title)
    return scene, title
