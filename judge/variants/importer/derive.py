"""Variants that are another variant with some powers absent (the one-against-one games).

vDiplomacy's most played games are the standard map with two or three powers: the others'
units are off the board and their centres neutral (the engine's `absent_powers`). They are
derived from the judge's own standard variant.json, so its provinces, aliases and colours
stay the ones the reader and the pictures know.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

# id -> (name, the powers that play, centres to win, what it is)
SETUPS: dict[str, tuple[str, tuple[str, ...], int, str]] = {
    "france-austria": ("France vs Austria", ("FRANCE", "AUSTRIA"), 18,
                       "The standard map with France and Austria only; the other centres are neutral."),
    "england-turkey": ("England vs Turkey", ("ENGLAND", "TURKEY"), 18,
                       "The standard map with England and Turkey only; the other centres are neutral."),
    "germany-italy": ("Germany vs Italy", ("GERMANY", "ITALY"), 18,
                      "The standard map with Germany and Italy only; the other centres are neutral."),
    "france-germany-austria": ("France-Germany-Austria", ("FRANCE", "GERMANY", "AUSTRIA"), 18,
                               "The standard map with France, Germany and Austria only; the other "
                               "centres are neutral."),
}


def base_data(variant_id: str) -> dict[str, Any]:
    text = (resources.files("judge") / "variants" / variant_id / "variant.json").read_text(encoding="utf-8")
    return json.loads(text)


def derive(setup_id: str, base: dict[str, Any] | None = None) -> dict[str, Any]:
    name, playing, victory, description = SETUPS[setup_id]
    data = dict(base or base_data("standard"))
    absent = [p["id"] for p in data["powers"] if p["id"] not in playing]
    head = {"id": setup_id, "name": name, "description": description,
            "map_source": f"The judge's {data['id']} variant with {', '.join(p.title() for p in absent)} absent "
                          f"(judge.variants.importer.derive); setups as vDiplomacy plays them.",
            "victory_centres": victory, "absent_powers": absent}
    rest = {k: v for k, v in data.items() if k not in head}
    order = ["id", "name", "description", "map_source", "calendar", "victory_centres", "unit_kinds", "absent_powers"]
    merged = {**rest, **head}
    return {k: merged[k] for k in order if k in merged} | {k: v for k, v in merged.items() if k not in order}
