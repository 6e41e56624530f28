"""What the board works out once at load (for adjudication's hot paths) agrees with the map data."""
from __future__ import annotations

from judge.engine import Coast, Location, Terrain, UnitKind, load_variant

BOARD = load_variant("standard").board
A, F = UnitKind.ARMY, UnitKind.FLEET


def test_terrain_sets_agree_with_the_provinces():
    for pid, prov in BOARD.provinces.items():
        assert (pid in BOARD.seas) == (prov.terrain is Terrain.SEA)
        assert (pid in BOARD.coastal) == (prov.terrain is Terrain.COAST)
        assert BOARD.coastal_for_convoy(pid) == (prov.terrain is Terrain.COAST)
        assert BOARD.can_stand(A, Location(pid)) == (prov.terrain in (Terrain.LAND, Terrain.COAST))


def test_an_army_never_stands_on_a_coast_of_a_province():
    assert not BOARD.can_stand(A, Location("spa", Coast.NORTH))
    assert BOARD.can_stand(A, Location("spa"))


def test_fleet_reach_agrees_with_the_fleet_edges():
    for pid in BOARD.provinces:
        for src in BOARD.fleet_locations(pid):
            for province in BOARD.provinces:
                by_edges = {dst for dst in BOARD.fleet_neighbours(src) if dst.province == province}
                assert set(BOARD.fleet_can_reach_province(src, province)) == by_edges
                assert BOARD.can_reach_province(F, src, province) == bool(by_edges)


def test_the_coasts_a_fleet_can_reach_come_in_a_fixed_order():
    assert BOARD.fleet_can_reach_province(Location("mao"), "spa") == (Location("spa", Coast.NORTH),
                                                                      Location("spa", Coast.SOUTH))
    assert BOARD.fleet_can_reach_province(Location("lyo"), "spa") == (Location("spa", Coast.SOUTH),)
    assert BOARD.fleet_can_reach_province(Location("par"), "bur") == ()  # not a fleet location


def test_a_province_has_one_bare_location_made_at_load():
    assert BOARD.location("par") == Location("par")
    assert BOARD.location("par") is BOARD.location("par")
    assert BOARD.location("nowhere") == Location("nowhere")  # not on the map: made on the spot


def test_enum_values_work_as_keys_after_the_identity_hash():
    seen = {Location("spa", Coast.NORTH): 1, Location("spa", Coast.SOUTH): 2}
    assert seen[Location("spa", Coast.NORTH)] == 1 and len({Coast.NORTH, Coast.NORTH, Coast.SOUTH}) == 2
