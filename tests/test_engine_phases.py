"""Phase processing beyond single DATC cases: skipping, ownership, needs, edition differences."""
from __future__ import annotations

from judge.engine import (Hold, Location, Move, Position, SupportMove, Unit, UnitKind, UnitRef, check_orders,
                          load_variant, orders_needed, process_phase, starting_position)
from judge.engine.calendar import Phase, PhaseKind
from judge.engine.outcomes import Why
from judge.engine.removals import civil_disorder_removals
from judge.engine.rules import FIFTH, FOURTH_2000, SECOND_1982

V = load_variant("standard")
A, F = UnitKind.ARMY, UnitKind.FLEET


def unit(power, kind, where):
    return Unit(power, kind, Location.parse(where))


def move(where, to):
    return Move(UnitRef(Location.parse(where)), Location.parse(to))


def test_a_quiet_spring_skips_the_retreat_phase():
    turn = process_phase(V, starting_position(V), {})
    assert V.calendar.code(turn.next.phase) == "F1901M"
    assert all(not r.outcomes for r in turn.skipped)


def test_fall_dislodgement_without_retreat_is_settled_and_centres_change_hands():
    # Germany takes Holland; the English army there has nowhere to go (all neighbours blocked).
    position = Position(Phase(1901, 1, PhaseKind.MOVEMENT), (
        unit("GERMANY", A, "ruh"), unit("GERMANY", A, "kie"), unit("ENGLAND", A, "hol"),
        unit("GERMANY", F, "nth"), unit("GERMANY", A, "bel"), unit("GERMANY", F, "hel"),
    ), {"ber": "GERMANY", "kie": "GERMANY", "mun": "GERMANY", "hol": "ENGLAND", "lon": "ENGLAND"})
    orders = {"GERMANY": [move("ruh", "hol"), SupportMove(UnitRef(Location("kie")), UnitRef(Location("ruh")),
                                                           Location("hol"))],
              "ENGLAND": [Hold(UnitRef(Location("hol")))]}  # ordered: not in civil disorder
    turn = process_phase(V, position, orders)
    hol = [o for o in turn.result.outcomes if o.power == "ENGLAND"][0]
    assert not hol.succeeded and hol.dislodged_from == "ruh"
    # the retreat phase had nothing to decide: the judge disbanded the unit and moved on
    retreat = [r for r in turn.skipped if r.phase.kind is PhaseKind.RETREAT][0]
    assert retreat.outcomes[0].by_judge and retreat.outcomes[0].reason.name == "DISBANDED_NO_RETREAT"
    assert turn.next.phase.kind is PhaseKind.ADJUSTMENT
    assert turn.next.owners["hol"] == "GERMANY" and turn.next.owners["bel"] == "GERMANY"
    needs = orders_needed(V, turn.next)
    assert "GERMANY" not in needs  # five centres, five units
    assert needs["ENGLAND"].builds == 1  # London is owned and empty


def test_builds_are_limited_by_free_home_centres():
    position = Position(Phase(1901, 1, PhaseKind.ADJUSTMENT), (unit("FRANCE", A, "par"), unit("FRANCE", F, "bre")),
                        {"par": "FRANCE", "bre": "FRANCE", "mar": "FRANCE", "spa": "FRANCE", "por": "FRANCE"})
    assert orders_needed(V, position)["FRANCE"].builds == 1


def test_civil_disorder_removal_order_differs_by_edition():
    # After DATC 6.J.11: Italy has lost all its home centres but holds Tunis and Greece.
    owners = {"ven": "AUSTRIA", "rom": "FRANCE", "nap": "AUSTRIA", "tun": "ITALY", "gre": "ITALY"}
    position = Position(Phase(1901, 1, PhaseKind.ADJUSTMENT), (unit("ITALY", A, "war"), unit("ITALY", A, "tus"),
                                                               unit("ITALY", A, "gre")), owners)
    fifth = civil_disorder_removals(V, position, "ITALY", 1, FIFTH)
    older = civil_disorder_removals(V, position, "ITALY", 1, SECOND_1982)
    assert [str(u) for u in older] == ["A war"]  # farthest from the home centres
    assert [str(u) for u in fifth] == ["A tus"]  # Tuscany is farther from an owned centre
    assert civil_disorder_removals(V, position, "ITALY", 1, FOURTH_2000) == older


def test_check_orders_reports_only_what_cannot_be_done():
    position = starting_position(V)
    problems = check_orders(V, position, {"FRANCE": [move("par", "bur"), move("par", "mun"), move("bre", "par")]})
    assert sorted(str(p.order.to) for p in problems) == ["mun", "par"]
    assert {(p.why, p.args) for p in problems} == {(Why.NOT_ADJACENT, ("mun", "par")),
                                                    (Why.FLEET_INLAND, ("par",))}
