"""Province positions for board pictures: complete, distinct, inside the picture and near their neighbours."""
from __future__ import annotations

import json
import math
from importlib import resources

import pytest

from judge.engine import load_variant

VARIANTS = ["standard", "abstraction2"]


def layout(variant_id: str) -> dict:
    text = (resources.files("judge") / "variants" / variant_id / "layout.json").read_text(encoding="utf-8")
    return json.loads(text)


def points(data: dict) -> dict[str, dict]:
    """Every point: `par`, `spa/nc` for each coast of a split-coast province, `den+1` for each extra seed."""
    out = {}
    for pid, entry in data["positions"].items():
        out[pid] = entry
        for coast, where in entry.get("coasts", {}).items():
            out[f"{pid}/{coast}"] = where
        for n, (lat, lon) in enumerate(entry.get("seeds", ()), 1):
            out[f"{pid}+{n}"] = {"lat": lat, "lon": lon, "place": f"seed {n} of {pid}"}
    return out


def km(a: dict, b: dict) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_province_and_coast_has_a_position_and_nothing_else_does(variant_id):
    board = load_variant(variant_id).board
    data = layout(variant_id)
    assert data["variant"] == variant_id
    assert set(data["positions"]) == set(board.provinces)
    for pid, province in board.provinces.items():
        assert set(data["positions"][pid].get("coasts", {})) == {c.value for c in province.coasts}, pid
    for name, where in points(data).items():
        assert where["place"].strip(), name


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_positions_are_distinct_and_inside_the_bounds(variant_id):
    data = layout(variant_id)
    projection = data["projection"]
    assert projection["type"] == "lambert_conformal_conic"
    box = projection["bounds"]
    assert box["south"] < projection["latitude_of_origin"] < box["north"]
    assert box["west"] < projection["central_meridian"] < box["east"]
    named = points(data)
    for name, where in named.items():
        assert box["south"] < where["lat"] < box["north"], name
        assert box["west"] < where["lon"] < box["east"], name
    spots = {(round(w["lat"], 2), round(w["lon"], 2)) for w in named.values()}
    assert len(spots) == len(named)
    # No two points so close that a picture could not tell them apart (20 km is about a pixel per 1000 px).
    close = [(a, b) for a in named for b in named if a < b and km(named[a], named[b]) < 20]
    assert not close


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_neighbours_lie_near_each_other_and_coasts_near_their_province(variant_id):
    """Catches swapped or mistyped coordinates: every border joins points at most ~2000 km apart."""
    board = load_variant(variant_id).board
    named = points(layout(variant_id))
    far = [(a, b, round(km(named[a], named[b]))) for a in board.provinces for b in board.neighbours(a)
           if km(named[a], named[b]) > 2100]
    assert not far
    for pid, province in board.provinces.items():
        for coast in province.coasts:
            assert km(named[pid], named[f"{pid}/{coast.value}"]) < 1100, (pid, coast)
        for name in named:
            if name.startswith(f"{pid}+"):
                assert km(named[pid], named[name]) < 1600, name
