"""The standard map as data: counts, symmetric edges, coasts, homes and starting units."""
from __future__ import annotations

from judge.engine import Coast, Location, Terrain, UnitKind, load_variant, starting_position

VARIANT = load_variant("standard")
BOARD = VARIANT.board


def test_counts():
    provinces = BOARD.provinces.values()
    assert len([p for p in provinces if p.terrain is not Terrain.IMPASSABLE]) == 75
    assert [p.name for p in provinces if p.terrain is Terrain.IMPASSABLE] == ["Switzerland"]
    assert len([p for p in provinces if p.supply_centre]) == 34
    assert sum(len(p.home_centres) for p in VARIANT.powers) == 22
    assert len([p for p in provinces if p.terrain is Terrain.LAND]) == 14
    assert len([p for p in provinces if p.terrain is Terrain.COAST]) == 42
    assert len([p for p in provinces if p.terrain is Terrain.SEA]) == 19


def test_every_edge_is_symmetric_and_the_edge_counts_match_the_sources():
    assert BOARD.is_symmetric()
    army = {frozenset((a, b)) for a in BOARD.provinces for b in BOARD.army_neighbours(a)}
    fleet = {frozenset((loc, b)) for a in BOARD.provinces for loc in BOARD.fleet_locations(a)
             for b in BOARD.fleet_neighbours(loc)}
    assert len(army) == 111
    assert len(fleet) == 141


def test_split_coasts():
    for province, coasts in {"spa": {Coast.NORTH, Coast.SOUTH}, "stp": {Coast.NORTH, Coast.SOUTH},
                             "bul": {Coast.EAST, Coast.SOUTH}}.items():
        assert set(BOARD.province(province).coasts) == coasts
    assert BOARD.can_move(UnitKind.FLEET, Location("mao"), Location("spa", Coast.NORTH))
    assert not BOARD.can_move(UnitKind.FLEET, Location("spa", Coast.NORTH), Location("wes"))
    assert BOARD.can_move(UnitKind.FLEET, Location("bla"), Location("bul", Coast.EAST))
    assert not BOARD.can_move(UnitKind.FLEET, Location("bla"), Location("bul", Coast.SOUTH))
    assert BOARD.can_move(UnitKind.FLEET, Location("bot"), Location("stp", Coast.SOUTH))
    assert not BOARD.can_stand(UnitKind.FLEET, Location("stp"))


def test_coastal_provinces_fleets_cannot_pass_between():
    assert BOARD.can_move(UnitKind.ARMY, Location("rom"), Location("ven"))
    assert not BOARD.can_move(UnitKind.FLEET, Location("rom"), Location("ven"))
    assert not BOARD.can_move(UnitKind.ARMY, Location("par"), Location("swi"))


def test_starting_position():
    position = starting_position(VARIANT)
    assert len(position.units) == 22
    assert VARIANT.calendar.code(position.phase) == "S1901M"
    russia = {str(u) for u in position.units_of("RUSSIA")}
    assert russia == {"A war", "A mos", "F sev", "F stp/sc"}
    assert len(position.owners) == 22
    assert all(BOARD.can_stand(u.kind, u.location) for u in position.units)
