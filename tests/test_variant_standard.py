"""The standard variant file: counts, symmetric edges, split coasts and starting units, checked as data."""
from __future__ import annotations

import json
from importlib import resources

from judge.engine import Coast, Location, Terrain, UnitKind, load_variant, starting_position

VARIANT = load_variant("standard")
BOARD = VARIANT.board
A, F = UnitKind.ARMY, UnitKind.FLEET


def test_provinces_and_supply_centres():
    provinces = BOARD.provinces.values()
    assert len([p for p in provinces if p.terrain is not Terrain.IMPASSABLE]) == 75
    assert [p.id for p in provinces if p.terrain is Terrain.IMPASSABLE] == ["swi"]
    assert len(VARIANT.supply_centres) == 34
    homes = [c for p in VARIANT.powers for c in p.home_centres]
    assert len(homes) == len(set(homes)) == 22
    assert set(VARIANT.supply_centres) - set(homes) == {"bel", "bul", "den", "gre", "hol", "nwy", "por", "rum",
                                                       "ser", "spa", "swe", "tun"}


def test_edges_in_the_file_are_listed_once_and_the_graph_is_symmetric():
    data = json.loads((resources.files("judge") / "variants" / "standard" / "variant.json").read_text("utf-8"))
    army = [frozenset(e) for e in data["army_edges"]]
    fleet = [frozenset(e) for e in data["fleet_edges"]]
    assert (len(army), len(set(army))) == (111, 111)
    assert (len(fleet), len(set(fleet))) == (141, 141)
    assert BOARD.is_symmetric()
    assert not BOARD.neighbours("swi")


def test_every_passable_province_is_reachable():
    passable = {pid for pid, p in BOARD.provinces.items() if p.terrain is not Terrain.IMPASSABLE}
    assert set(BOARD.distances_from(["par"])) == passable


def test_the_three_split_coast_provinces():
    split = {pid: set(p.coasts) for pid, p in BOARD.provinces.items() if p.coasts}
    assert split == {"spa": {Coast.NORTH, Coast.SOUTH}, "stp": {Coast.NORTH, Coast.SOUTH},
                     "bul": {Coast.EAST, Coast.SOUTH}}
    seas = {str(loc): {n.province for n in BOARD.fleet_neighbours(loc) if BOARD.province(n.province).is_sea}
            for pid in split for loc in BOARD.fleet_locations(pid)}
    assert seas == {"spa/nc": {"mao"}, "spa/sc": {"mao", "lyo", "wes"}, "stp/nc": {"bar"},
                    "stp/sc": {"bot"}, "bul/ec": {"bla"}, "bul/sc": {"aeg"}}
    for pid in split:
        assert not BOARD.can_stand(F, Location(pid)) and BOARD.can_stand(A, Location(pid))


def test_starting_units():
    position = starting_position(VARIANT)
    assert {p.id: {f"{k.value} {loc}" for k, loc in p.starting_units} for p in VARIANT.powers} == {
        "AUSTRIA": {"A bud", "A vie", "F tri"}, "ENGLAND": {"F edi", "F lon", "A lvp"},
        "FRANCE": {"F bre", "A mar", "A par"}, "GERMANY": {"F kie", "A ber", "A mun"},
        "ITALY": {"F nap", "A rom", "A ven"}, "RUSSIA": {"A war", "A mos", "F sev", "F stp/sc"},
        "TURKEY": {"F ank", "A con", "A smy"}}
    assert all(BOARD.can_stand(u.kind, u.location) for u in position.units)
    assert VARIANT.calendar.code(position.phase) == "S1901M"
