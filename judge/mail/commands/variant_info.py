"""LIST VARIANTS and HELP VARIANT name: what the judge can play, from each variant's own data.

A variant's facts come from its variant.json (name, powers, victory count, description, where the
map comes from) and its layout.json (where its picture comes from); nothing here is written by
hand per variant, so an imported variant is listed the moment its files are in judge/variants/.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...engine import vassals
from ...engine.variant import available_variants, load_variant
from ...pictures.atlas import board_home, has_layout, load_layout
from ...pictures.projection import is_plane
from ..screening.auth import Refused
from ..screening.sign_on_names import shortest_sign
from .command_env import Env


@dataclass(frozen=True)
class VariantFacts:
    id: str
    name: str
    players: tuple[str, ...]      # the powers on the board (absent ones left out)
    absent: tuple[str, ...]       # powers of the map left off the board (France vs Austria's five)
    victory: int                  # supply centres that win
    centres: int                  # supply centres on the board
    first_phase: str              # "Spring 1901 Movement"
    notes: str
    source: str                   # where the map data comes from
    picture: str                  # where the picture comes from
    signs: tuple[str, ...] = ()   # "Ber (Berlin)": the fewest letters that sign on as each power
    dummies: tuple[str, ...] = () # powers on the board that nobody plays (Sengoku's Neutral)
    vassals: bool = False         # the dummies become the vassals of the powers taking them (judge.engine.vassals)


def _picture_source(variant_id: str) -> str:
    if not has_layout(variant_id):
        return "none: results go out as text only"
    home = board_home(variant_id)
    if home != variant_id:
        return f"the {load_variant(home).name} map's picture (the same board)"
    layout = load_layout(variant_id)
    if is_plane(layout):
        source = layout["projection"].get("source", "its layout")
        return f"drawn from the board itself, each province placed as in {source}"
    return "drawn over real geography (each province's latitude and longitude over a land mask)"


@lru_cache(maxsize=None)  # packaged data: the same for the life of the process (0.7 s for all, loaded)
def variant_facts(variant_id: str) -> VariantFacts:
    data = json.loads((resources.files("judge") / "variants" / variant_id / "variant.json").read_text(encoding="utf-8"))
    variant = load_variant(variant_id)
    played = [p for p in variant.powers if p.id not in variant.dummies]
    absent = {a.upper() for a in data.get("absent_powers", ())}
    return VariantFacts(
        id=variant.id, name=variant.name, players=tuple(p.name for p in played),
        absent=tuple(p["name"] for p in data["powers"] if p["id"] in absent),
        victory=variant.victory_centres, centres=len(variant.supply_centres),
        first_phase=variant.calendar.name(variant.calendar.first_phase),
        notes=variant.description, source=data.get("map_source", ""), picture=_picture_source(variant_id),
        signs=tuple(f"{shortest_sign(variant, p.id)} ({p.name})" for p in played),
        dummies=tuple(p.name for p in variant.powers if p.id in variant.dummies),
        vassals=vassals.in_use(variant))


def _key(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", word.lower())


def find_variant(words: str) -> str | None:
    """The variant a player means: its id or its name, in any case, with or without spaces and
    dashes ("ancmed", "Ancient Mediterranean", "France vs Austria", "FRANCE-AUSTRIA")."""
    wanted = _key(words)
    for variant_id in available_variants():
        if wanted in (_key(variant_id), _key(variant_facts(variant_id).name)):
            return variant_id
    return None


def list_variants(env: Env) -> list[str]:
    facts = [variant_facts(v) for v in available_variants()]
    return env.reports.render("reply_variants.j2", variants=facts, chosen=None).body.rstrip("\n").split("\n")


def help_variant(env: Env, words: str) -> list[str]:
    if not words.strip():
        return list_variants(env)
    found = find_variant(words)
    if found is None:
        raise Refused(f"there is no variant {words.strip()!r}", "LIST VARIANTS names them all")
    return (
        env.reports.render("reply_variants.j2", variants=[], chosen=variant_facts(found)).body.rstrip("\n").split("\n")
    )
