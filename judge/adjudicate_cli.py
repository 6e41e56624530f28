"""`judge adjudicate`: the engine as a JSON command (docs/adjudicate.md gives the format)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from .engine import Position, Variant, edition, load_variant, process_phase, starting_position
from .engine.orders import Order
from .engine.notation import NotationError, position_from_json, position_to_json
from .adjudicate_shape import check_request
from .engine.rules import DEFAULT, Rules
from .games.resultcodec import by_power
from .language import BoardView, OrderReader
from .order_reading import read_order_lines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "adjudicate", help="adjudicate one phase given as JSON",
        description="Adjudicate one phase. Input: JSON with variant, rules, phase, units, centres, "
                    "dislodged and orders (docs/adjudicate.md). Output: each order's outcome and `next`.",
        epilog="example: echo '{\"phase\":\"S1901M\",\"units\":{\"FRANCE\":[\"A PAR\"]},"
               "\"orders\":{\"FRANCE\":[\"A Par-Bur\"]}}' | judge adjudicate")
    p.add_argument("file", nargs="?", help="input JSON file (default: standard input)")
    p.add_argument("--jsonl", action="store_true", help="one request per input line, one response per line")
    p.add_argument("--rules", help="rules edition, overriding the input's (1982, 2000, 5th)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variants: dict[str, tuple[Variant, OrderReader | None]] = {}  # loaded once per process, per variant named

    def variant_named(name: str) -> tuple[Variant, OrderReader | None]:
        if name not in variants:
            variant = load_variant(name)
            variants[name] = (variant, OrderReader(variant))  # the grammar ships in the package
        return variants[name]

    status = 0
    with open(args.file, encoding="utf-8") if args.file else sys.stdin as stream:
        if args.jsonl:
            for line in stream:
                if line.strip():
                    response = _answer(line, variant_named, args.rules)
                    status |= "error" in response
                    sys.stdout.write(json.dumps(response) + "\n")
                    sys.stdout.flush()
        else:
            response = _answer(stream.read(), variant_named, args.rules)
            status = "error" in response
            json.dump(response, sys.stdout, indent=1)
            sys.stdout.write("\n")
    return 1 if status else 0


class EngineFault(Exception):
    """The engine failed on a request it accepted: a fault of the judge's, never the request's."""

    def __init__(self, variant: Variant, position: Position, rules: Rules, order_lines: dict[str, Any],
                 cause: Exception) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.report = {"variant": variant.id, "rules": rules.name, **position_to_json(variant, position),
                       "orders": order_lines}


def _answer(text: str, variant_named: Callable[[str], tuple[Variant, OrderReader | None]],
            rules_name: str | None) -> dict[str, Any]:
    try:
        request = json.loads(text)
        check_request(request)
        return adjudicate_request(request, variant_named, rules_name)
    except EngineFault as e:
        return {"error": "internal error: the engine failed on this position; please report it with the"
                         " request below", "kind": "internal", "fault": str(e), "request": e.report}
    except RecursionError:  # JSON nested deeper than the reader goes: a hostile or broken request
        return {"error": "the input is nested too deeply", "kind": "request"}
    except (ValueError, KeyError, NotationError) as e:
        return {"error": str(e).strip("'\""), "kind": "request"}


def adjudicate_request(request: dict[str, Any], variant_named: Callable[[str], tuple[Variant, OrderReader | None]],
                       rules_name: str | None = None) -> dict[str, Any]:
    """One phase (`phase`, position and `orders`), or a whole game (`phases`: each phase's orders,
    played in turn from the request's position, or from the variant's start without one)."""
    variant, reader = variant_named(request.get("variant", "standard"))
    _check_dislodged(request)
    name = rules_name or request.get("rules")
    rules = edition(name) if name else DEFAULT
    if "phases" in request:
        return _adjudicate_game(variant, reader, rules, request)
    if "phase" not in request:
        raise ValueError("the input needs a phase, e.g. \"S1901M\", or phases for a whole game")
    position = position_from_json(variant, request)
    played, after = _play(variant, reader, rules, position, request.get("orders", {}), disorder_of(variant, request))
    return {"variant": variant.id, "rules": rules.name, **played, "next": _next_json(variant, after, rules)}


def _adjudicate_game(variant: Variant, reader: OrderReader | None, rules: Rules,
                     request: dict[str, Any]) -> dict[str, Any]:
    phases = request["phases"]
    if not isinstance(phases, list):
        raise ValueError("phases must be a list of {\"orders\": {...}}, one per phase played")
    position = position_from_json(variant, request) if "phase" in request else starting_position(variant)
    played = []
    for number, entry in enumerate(phases):
        if not isinstance(entry, dict):
            raise ValueError(f"phases[{number}] must be an object with orders")
        at = variant.calendar.code(position.phase)
        if entry.get("phase") not in (None, at):
            raise ValueError(f"phases[{number}] is for {entry['phase']} but the game is at {at}")
        disorder = disorder_of(variant, entry if _says_disorder(entry) else request)
        response, position = _play(variant, reader, rules, position, entry.get("orders", {}), disorder)
        played.append(response)
    return {"variant": variant.id, "rules": rules.name, "phases": played,
            "next": _next_json(variant, position, rules)}


def _check_dislodged(request: dict[str, Any]) -> None:
    """Each dislodged unit must say where it may retreat (`"retreats": []` for nowhere): a unit without
    the list would be disbanded as if it had nowhere to go, a bad request taken for a position."""
    dislodged = request.get("dislodged", {})
    if not isinstance(dislodged, dict):
        raise ValueError("dislodged must be an object: power -> [{\"unit\", \"attacker_from\", \"retreats\"}]")
    for power, entries in dislodged.items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise ValueError(f"dislodged {power} must be a list of {{\"unit\", \"attacker_from\", \"retreats\"}}")
        for entry in entries:
            unit = entry.get("unit", "?")
            if not isinstance(entry.get("retreats"), list):
                raise ValueError(f"dislodged {power} {unit} has no retreats: list the places it may retreat to"
                                 " (\"retreats\": [] for none)")


def _next_json(variant: Variant, position: Position, rules: Rules) -> dict[str, Any]:
    return {**position_to_json(variant, position), "rules": rules.name}


def _says_disorder(request: dict[str, Any]) -> bool:
    return "civil_disorder" in request or "missing_orders" in request


def disorder_of(variant: Variant, request: dict[str, Any]) -> frozenset[str] | None:
    """Which powers are in civil disorder (their dislodged units disbanded, no retreat): `civil_disorder`,
    a list of powers; or `missing_orders`: "hold" (a power without orders simply holds and retreats
    later) or "civil disorder" (the rulebooks: every power with units and no orders; the default)."""
    if "civil_disorder" in request and "missing_orders" in request:
        raise ValueError("give civil_disorder (the powers) or missing_orders, not both")
    if "civil_disorder" in request:
        powers = request["civil_disorder"]
        if not isinstance(powers, list) or not all(isinstance(p, str) for p in powers):
            raise ValueError("civil_disorder must be a list of powers, e.g. [\"GERMANY\"]")
        named = frozenset(p.strip().upper() for p in powers)
        unknown = sorted(named - set(variant.power_ids))
        if unknown:
            raise ValueError(f"civil_disorder names no power of the {variant.name} variant: {', '.join(unknown)}")
        return named
    missing = str(request.get("missing_orders", "civil disorder")).strip().lower()
    if missing == "hold":
        return frozenset()
    if missing in ("civil disorder", "civil_disorder", "book"):
        return None
    raise ValueError(f"missing_orders is \"hold\" or \"civil disorder\", not {request['missing_orders']!r}")


def _play(variant: Variant, reader: OrderReader | None, rules: Rules, position: Position,
          order_lines: dict[str, Any], disorder: frozenset[str] | None = None) -> tuple[dict[str, Any], Position]:
    """Read one phase's order lines, adjudicate, and say what happened; returns the next position."""
    orders: dict[str, list[Order]] = {}
    errors: dict[str, list[dict[str, Any]]] = {}
    notes: dict[str, list[dict[str, Any]]] = {}
    views: list[BoardView] = []  # the board's view for the parser, made once if a line needs it
    texts: dict[int, str] = {}  # the canonical text of the orders the quick reader read, by id (alive till the end)

    def board() -> BoardView:
        if not views:
            views.append(BoardView(variant, position))
        return views[0]

    for power, given in order_lines.items():
        pid = power.strip().upper()
        if pid not in variant.power_ids:
            raise ValueError(f"no power {power!r} in the {variant.name} variant")
        lines = given.splitlines() if isinstance(given, str) else given
        read = read_order_lines(variant, position.phase.kind, lines, reader, power=pid,
                                board=board if reader is not None else None, position=position, texts=texts)
        orders[pid] = read.orders
        if read.errors:
            errors[pid] = read.errors
        if read.notes:
            notes[pid] = read.notes
    try:
        turn = process_phase(variant, position, orders, rules, disorder=disorder)
        results = by_power(turn.result, texts)
    except Exception as e:   # the engine's fault, not the request's: said so, with what to report
        raise EngineFault(variant, position, rules, order_lines, e) from e
    response: dict[str, Any] = {"phase": variant.calendar.code(position.phase), "results": results}
    if errors:
        response["errors"] = errors
    if notes:
        response["read"] = notes
    if turn.result.position.dislodged:
        response["dislodged"] = position_to_json(variant, turn.result.position).get("dislodged", {})
    settled = [{"phase": variant.calendar.code(r.phase), "results": by_power(r)}
               for r in turn.skipped if r.outcomes]
    if settled:
        response["settled"] = settled
    return response, turn.next
