"""The shape of a `judge adjudicate` request, checked before anything reads it.

The request comes from outside: a field of the wrong JSON type is the request's fault and is
answered as a bad request, in our words, never with whatever a reader raises on it.
"""
from __future__ import annotations

from typing import Any


def check_request(request: Any) -> None:
    """Raise ValueError saying which field is not of the shape the README gives."""
    if not isinstance(request, dict):
        raise ValueError("the input must be a JSON object")
    for name in ("variant", "rules", "phase"):
        if name in request and not isinstance(request[name], str):
            raise ValueError(f"{name} must be a string")
    _check_position(request)
    if "orders" in request:
        _check_orders(request["orders"], "orders")
    if "phases" in request:
        phases = request["phases"]
        if not isinstance(phases, list):
            raise ValueError("phases must be a list of {\"orders\": {...}}, one per phase played")
        for number, entry in enumerate(phases):
            if not isinstance(entry, dict):
                raise ValueError(f"phases[{number}] must be an object with orders")
            if "phase" in entry and not isinstance(entry["phase"], str):
                raise ValueError(f"phases[{number}].phase must be a string")
            _check_orders(entry.get("orders", {}), f"phases[{number}].orders")


def _check_position(request: dict[str, Any]) -> None:
    for name in ("units", "centres"):
        for power, items in _per_power(request.get(name, {}), name):
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                raise ValueError(f"{name}.{power} must be a list of strings")
    for vassal, lord in _per_power(request.get("vassals", {}), "vassals"):
        if not isinstance(lord, str):
            raise ValueError(f"vassals.{vassal} must be the name of the power it is the vassal of")
    for power, items in _per_power(request.get("dislodged", {}), "dislodged"):
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise ValueError(f"dislodged.{power} must be a list of objects")
        for d in items:
            retreats = d.get("retreats", [])
            if not isinstance(d.get("unit"), str) or not isinstance(d.get("attacker_from", ""), str) \
                    or not isinstance(retreats, list) or not all(isinstance(r, str) for r in retreats) \
                    or not isinstance(d.get("civil_disorder", False), bool):
                raise ValueError(f"dislodged.{power}: each is {{\"unit\": \"A BUR\", \"attacker_from\": \"RUH\", "
                                 "\"retreats\": [\"PAR\"]}")


def _check_orders(orders: Any, where: str) -> None:
    for power, lines in _per_power(orders, where):
        if not isinstance(lines, str) and (not isinstance(lines, list) or not all(isinstance(x, str) for x in lines)):
            raise ValueError(f"{where}.{power} must be a list of order lines")


def _per_power(value: Any, name: str) -> list[tuple[str, Any]]:
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be an object keyed by power")
    return list(value.items())
