"""Abstraction II as data: the reconstructed map, its special passages, frozen spaces and monthly calendar."""
from __future__ import annotations

import pytest

from judge.engine import Location, Terrain, UnitKind, load_variant, starting_position
from judge.engine.calendar import PhaseKind

VARIANT = load_variant("abstraction2")
BOARD = VARIANT.board
A, F = UnitKind.ARMY, UnitKind.FLEET

HOMES = {
    "AUSTRIA": {"bud", "pec", "vie", "zar"}, "ENGLAND": {"edi", "lon", "lvp", "ply"},
    "FRANCE": {"bre", "lyo", "mar", "par"}, "GERMANY": {"ber", "dre", "kie", "mun"},
    "ITALY": {"nap", "rom", "sic", "ven"}, "RUSSIA": {"arc", "mos", "ode", "stp", "war"},
    "TURKEY": {"con", "dam", "sin", "smy"},
}
STARTING_UNITS = {
    "AUSTRIA": {"A tyr", "A pec", "A vie", "F zar"}, "ENGLAND": {"F edi", "F lon", "A lvp", "F ply"},
    "FRANCE": {"F bre", "F mar", "A lyo", "A par"}, "GERMANY": {"A ber", "A dre", "F kie", "A mun"},
    "ITALY": {"F nap", "A rom", "F sic", "A ven"}, "RUSSIA": {"A arc", "A mos", "F ode", "F stp", "A war"},
    "TURKEY": {"A con", "F dam", "F sin", "A smy"},
}
# Every abbreviation the rules text introduces is a province of the map.
RULES_TEXT_ABBREVIATIONS = (  # noqa: SIM905 - a word list reads best as words
    "alg and ang ara arc aro azo bob cas cat cau cic cms cou cro cys dam dbs dms dre ebs egy hbs ice ire lap leo "
    "lib lor lyo mac mas mes mor obe ode pal pec per ply ris sao sar sic sin swa tra vol wbs zar zur").split()


def L(text: str) -> Location:
    return Location.parse(text)


def test_supply_centre_counts():
    centres = set(VARIANT.supply_centres)
    homes = {c for p in VARIANT.powers for c in p.home_centres}
    assert len(centres) == 46
    assert len(homes) == 29 and homes <= centres
    assert len(centres - homes) == 17
    assert {p.id: set(p.home_centres) for p in VARIANT.powers} == HOMES
    assert centres - homes == {"and", "cas", "egy", "ire", "mor", "zur", "bel", "bul", "den", "gre", "hol",
                               "nwy", "por", "rum", "ser", "swe", "tun"}
    assert not BOARD.province("tyr").supply_centre  # Budapest's army starts there; the centre stays Budapest


def test_rules_text_provinces_exist_and_standard_ones_replaced_are_gone():
    assert set(RULES_TEXT_ABBREVIATIONS) <= set(BOARD.provinces)
    assert not {"spa", "tri", "ank", "sev", "syr", "naf", "bur", "swi", "bla", "nao"} & set(BOARD.provinces)
    assert BOARD.province("lyo").name == "Lyon" and BOARD.province("gol").is_sea
    assert not [p for p in BOARD.provinces.values() if p.terrain is Terrain.IMPASSABLE]


def test_the_spaces_the_texts_examples_name_exist_and_join_as_the_examples_need():
    # "A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por." and "A/F(TYS) disembarks A(Tun), F(TYS)-WMS."
    assert BOARD.province("mao").is_sea and BOARD.province("mao").name == "Mid-Atlantic Ocean"
    assert BOARD.can_move(F, L("eng"), L("mao")) and BOARD.can_move(F, L("mao"), L("por"))
    assert BOARD.can_move(F, L("tys"), L("wes")) and BOARD.can_move(F, L("tys"), L("tun"))
    assert VARIANT.board.province("wes").name == "Western Mediterranean"
    # the Azores sea lies west of the Mid-Atlantic: it touches no coast
    assert not [n for n in BOARD.fleet_province_neighbours("azo") if not BOARD.province(n).is_sea]


def test_edges_are_symmetric():
    assert BOARD.is_symmetric()


def test_every_passable_province_is_reachable():
    passable = {pid for pid, p in BOARD.provinces.items() if p.terrain is not Terrain.IMPASSABLE}
    assert set(BOARD.distances_from(["par"])) == passable
    # Armies alone reach every land province of the mainland; only the islands need a fleet.
    by_land = set(BOARD.distances_from(["par"], step=BOARD.army_neighbours))
    land = {pid for pid in passable if not BOARD.province(pid).is_sea}
    great_britain = {"cly", "edi", "lvp", "yor", "wal", "lon", "ply"}
    assert land - by_land == great_britain | {"ire", "ice", "sar"}


def test_every_coastal_province_touches_a_sea_and_land_provinces_none():
    for pid, prov in BOARD.provinces.items():
        seas = {n for n in BOARD.fleet_province_neighbours(pid) if BOARD.province(n).is_sea}
        if prov.terrain is Terrain.COAST:
            assert seas, pid
        else:
            assert not BOARD.fleet_locations(pid) or prov.is_sea, pid


def test_fleet_edges_between_coasts_follow_a_shared_coastline():
    for pid, prov in BOARD.provinces.items():
        if prov.is_sea:
            continue
        for loc in BOARD.fleet_locations(pid):
            for other in BOARD.fleet_neighbours(loc):
                if BOARD.province(other.province).is_sea:
                    continue
                seas_here = {n.province for n in BOARD.fleet_neighbours(loc) if BOARD.province(n.province).is_sea}
                seas_there = {n.province for n in BOARD.fleet_neighbours(other)
                              if BOARD.province(n.province).is_sea}
                assert seas_here & seas_there, (loc, other)
                assert other.province in BOARD.army_neighbours(pid), (loc, other)


def test_only_bulgaria_has_split_coasts():
    assert {pid for pid, p in BOARD.provinces.items() if p.coasts} == {"bul"}
    assert BOARD.can_move(F, L("wbs"), L("bul/ec")) and not BOARD.can_move(F, L("wbs"), L("bul/sc"))
    assert BOARD.can_move(F, L("aeg"), L("bul/sc")) and not BOARD.can_move(F, L("aeg"), L("bul/ec"))
    assert BOARD.can_stand(F, L("stp"))  # St Petersburg has one coast here: the text says just F(St. Petersburg)


def test_starting_units_exactly_as_the_text_lists_them_and_each_can_stand():
    position = starting_position(VARIANT)
    assert len(position.units) == 29
    for power in VARIANT.powers:
        assert {f"{u.kind.value} {u.location}" for u in position.units_of(power.id)} == STARTING_UNITS[power.id]
    for unit in position.units:
        assert BOARD.can_stand(unit.kind, unit.location), unit
    assert len(position.owners) == 29


@pytest.mark.parametrize("a, b", [("nap", "sic"), ("and", "mor"), ("den", "swe")])
def test_direct_passages_carry_armies_and_fleets(a, b):
    for src, dst in ((a, b), (b, a)):
        assert BOARD.can_move(A, L(src), L(dst))
        assert BOARD.can_move(F, L(src), L(dst))


def test_the_passages_do_not_cut_the_seas_they_cross():
    assert BOARD.can_move(F, L("cms"), L("tys")) and BOARD.can_move(F, L("tys"), L("cms"))
    assert BOARD.can_move(F, L("sao"), L("wes")) and BOARD.can_move(F, L("wes"), L("sao"))


def test_armies_cross_between_egypt_and_arabia_but_fleets_do_not():
    assert BOARD.can_move(A, L("egy"), L("ara")) and BOARD.can_move(A, L("ara"), L("egy"))
    assert not BOARD.can_move(F, L("egy"), L("ara")) and not BOARD.can_stand(F, L("ara"))


def test_no_army_move_between_lorraine_and_swabia():
    assert not BOARD.can_move(A, L("lor"), L("swa")) and not BOARD.can_move(A, L("swa"), L("lor"))
    assert "swa" not in BOARD.neighbours("lor")


def test_frozen_spaces_january_to_april():
    assert VARIANT.frozen.provinces == {"aro", "bar", "arc", "lap", "ice"}
    codes = [VARIANT.calendar.seasons[i].code for i in sorted(VARIANT.frozen.seasons)]
    assert codes == ["JAN", "FEB", "MAR", "APR"]
    cal = VARIANT.calendar
    assert VARIANT.is_frozen("arc", cal.parse("MAR1915A")) and VARIANT.is_frozen("bar", cal.parse("JAN1915M"))
    assert not VARIANT.is_frozen("arc", cal.parse("MAY1915M")) and not VARIANT.is_frozen("nwg", cal.parse("FEB1915M"))
    # Russia may build fleets in Archangel in March: it is a coast on the Barents Sea.
    assert BOARD.can_stand(F, L("arc"))


def test_calendar_is_monthly_from_july_1914_with_quarterly_adjustments():
    cal = VARIANT.calendar
    assert [s.code for s in cal.seasons] == ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
                                             "NOV", "DEC"]
    assert {s.code for s in cal.seasons if s.adjustments} == {"SEP", "DEC", "MAR", "JUN"}
    phase = cal.first_phase
    codes = []
    while phase <= VARIANT.last_phase:
        codes.append(cal.code(phase))
        phase = cal.next_phase(phase)
    assert codes[:8] == ["JUL1914M", "JUL1914R", "AUG1914M", "AUG1914R", "SEP1914M", "SEP1914R", "SEP1914A",
                         "OCT1914M"]
    assert "OCT1914A" not in codes and "DEC1914A" in codes and "JAN1915M" in codes
    assert codes[-1] == "DEC1918A" and cal.code(VARIANT.last_phase) == "DEC1918A"
    assert len([c for c in codes if c.endswith("M")]) == 54  # July 1914 to December 1918
    assert cal.name(cal.parse("sep1914a")) == "September 1914 Adjustment"
    assert cal.parse("DEC1918A").kind is PhaseKind.ADJUSTMENT
    with pytest.raises(ValueError):
        cal.parse("OCT1914A")


def test_rules_switched_on_and_the_map_is_declared_reconstructed():
    assert VARIANT.victory_centres == 23
    assert VARIANT.unit_kinds == {UnitKind.ARMY, UnitKind.FLEET, UnitKind.ARMY_FLEET}
    assert VARIANT.hooks == {"frozen_spaces", "army_fleet", "circular_reasoning_stands", "centre_exchange",
                             "victory_by_units_at_end"}
    assert VARIANT.reconstructed
    assert "reconstructed" in VARIANT.description.lower()
    assert "reconstructed" in VARIANT.extra["x_reconstruction_notice"].lower()
    assert BOARD.can_stand(UnitKind.ARMY_FLEET, L("eng")) and not BOARD.can_stand(UnitKind.ARMY_FLEET, L("bre"))


def test_names_and_aliases_are_unambiguous():
    seen: dict[str, str] = {}
    for pid, prov in BOARD.provinces.items():
        for word in {pid, prov.name.lower(), *(a.lower() for a in prov.aliases)}:
            assert seen.setdefault(word, pid) == pid, f"{word!r} names both {seen[word]} and {pid}"
    assert seen["lyon"] == "lyo" and seen["gulf of lyon"] == "gol"
