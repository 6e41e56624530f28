"""Every imported variant plays through the games layer: a game is created, joined by one player per
power, and played for a number of phases with seeded random (legal) orders, checking after each
phase that the board is one the variant allows. The variants and how far to play are data
(tests/data/variants/play.json)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from judge.engine import load_variant
from judge.engine import alternative_homes
from judge.engine.adjustment import adjustment_due, buildable_sites
from judge.engine.calendar import PhaseKind
from judge.engine.geography import Location, UnitKind
from judge.engine.notation import order_text, position_from_json
from judge.engine.orders import Build, Disband, Hold, Move, Retreat, SupportHold, UnitRef
from judge.engine.seasonal import shut_now
from judge.engine.straits import crosses
from test_games_helpers import accounts, service

PLAYS = json.loads((Path(__file__).parent / "data" / "variants" / "play.json").read_text(encoding="utf-8"))["plays"]


def random_orders(variant, position, power, rng):
    """Legal orders for one power, chosen at random: the games layer and engine must take any of them."""
    board = variant.board
    ref = lambda u: UnitRef(u.location, u.kind)  # noqa: E731
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        out = []
        shut = shut_now(variant, position.phase)   # (Loeb9's Arctic Ocean in Fall: nobody in, nobody out)
        for u in position.units_of(power):
            if u.location.province in shut:
                out.append(Hold(ref(u)))
                continue
            if u.kind is UnitKind.ARMY:
                steps = [Location(p) for p in sorted(board.army_neighbours(u.location.province))
                         if board.can_stand(UnitKind.ARMY, Location(p))]
            else:
                steps = sorted(board.fleet_neighbours(u.location), key=str)
            steps = [s for s in steps if s.province not in shut]
            friends = [o for o in position.units if o.location.province in board.neighbours(u.location.province)
                       and board.can_reach_province(u.kind, u.location, o.location.province)
                       and o.location.province not in shut
                       and not crosses(variant.weak_straits, u.location.province, o.location.province)]
            roll = rng.random()
            if steps and roll < 0.6:
                out.append(Move(ref(u), rng.choice(steps)))
            elif friends and roll < 0.8:
                out.append(SupportHold(ref(u), ref(rng.choice(friends))))
            else:
                out.append(Hold(ref(u)))
        return out
    if kind is PhaseKind.RETREAT:
        return [Retreat(ref(d.unit), rng.choice(d.retreats)) if d.retreats and rng.random() < 0.8
                else Disband(ref(d.unit)) for d in position.dislodged if d.unit.power == power]
    due = adjustment_due(variant, position, power)
    if due < 0:
        return [Disband(ref(u)) for u in rng.sample(list(position.units_of(power)), -due)]
    out = []
    sites = list(buildable_sites(variant, position, power))
    chosen = rng.sample(sites, min(due, len(sites)))
    groups = alternative_homes.groups(variant, power, position.phase, sites)
    if groups:      # never every site of an alternative home centre's group (Zeus's California)
        chosen = list(alternative_homes.choose(groups, rng.sample(sites, len(sites)), due))
    for c in chosen:
        prov = board.province(c)
        fleets = [loc for loc in board.fleet_locations(c)] if not prov.is_land else []
        if fleets and rng.random() < 0.5:
            out.append(Build(UnitKind.FLEET, rng.choice(fleets)))
        else:
            out.append(Build(UnitKind.ARMY, Location(c)))
    return out


def check_board(variant, position):
    places = [u.location.province for u in position.units]
    assert len(places) == len(set(places)), "two units in one province"
    for u in position.units:
        assert variant.board.can_stand(u.kind, u.location), f"{u} cannot stand there"
        assert u.power in variant.power_ids
    for c, owner in position.owners.items():
        assert variant.board.province(c).supply_centre and owner in variant.power_ids


@pytest.mark.parametrize("play", PLAYS, ids=[p["variant"] for p in PLAYS])
def test_a_variant_plays_through_the_games_layer(tmp_path, play):
    variant = load_variant(play["variant"])
    svc, _ = service(tmp_path)
    names = {p: f"p-{p.lower()}" for p in variant.power_ids if p not in variant.dummies}  # nobody plays a dummy
    accounts(svc, list(names.values()) + ["gm"])
    svc.create_game("g", variant=variant.id, master="gm", seed=play["seed"])
    for power, name in names.items():
        status = svc.join("g", name, [power])
    assert status.status == "active"
    # (the first phase, or the one after it where only dummies decide the first: Vassal's Winter 1900)
    assert status.phase == play["opening"][0]
    assert {p: s.account for p, s in status.powers.items() if p not in variant.dummies} == names
    assert all(status.powers[p].account is None for p in variant.dummies)
    rng = random.Random(play["seed"])
    phases = [status.phase]
    while len(phases) <= play["phases"] and status.status != "finished":
        position = position_from_json(variant, status.position)
        check_board(variant, position)
        for power, about in status.powers.items():
            assert not (about.owes and power in variant.dummies), "a dummy owes orders"
            if about.owes:
                mine = random_orders(variant, position, power, rng)
                reply = svc.submit_orders("g", power, [(order_text(o), o) for o in mine], account=names[power])
                assert not reply.refused and not reply.problems, reply
        svc.process("g")
        status = svc.status("g")
        assert status.phase != phases[-1] or status.status == "finished"
        phases.append(status.phase)
    check_board(variant, position_from_json(variant, status.position))
    assert phases[:len(play["opening"])] == play["opening"]
    units = sum(len(us) for us in status.position["units"].values())
    assert units > 0


@pytest.mark.parametrize("seed", range(40))
def test_the_least_cost_assignment_for_many_seats_is_as_good_as_trying_all(seed):
    """Games with more than eight seats (Chaos's 34) assign by the Hungarian method; it must find
    an assignment as cheap as trying every one would (checked where trying all is possible)."""
    import itertools
    from judge.games.assignment import _least_cost
    rng = random.Random(seed)
    n = rng.randint(1, 7)
    cost = [[rng.randint(0, n) for _ in range(n)] for _ in range(n)]
    best = min(sum(cost[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
    got = _least_cost(cost)
    assert sorted(got) == list(range(n)) and sum(cost[i][got[i]] for i in range(n)) == best


@pytest.mark.parametrize("play", PLAYS, ids=[p["variant"] for p in PLAYS])
def test_the_reader_knows_every_province_by_name(play):
    """The order reader is built from the variant's data: every province reads by its full name."""
    from judge.language import OrderReader
    variant = load_variant(play["variant"])
    reader = OrderReader(variant)
    for province in variant.board.provinces.values():
        read = reader.parse(f"A {province.name} holds", PhaseKind.MOVEMENT)
        assert [o.order.unit.location.province for o in read.orders] == [province.id], province.name


@pytest.mark.parametrize("drawn", [True, False], ids=["with-layout", "layout-missing"])
def test_results_of_a_variant_without_a_layout_go_out_without_a_picture(tmp_path, caplog, monkeypatch, drawn):
    """Pictures need layout.json; a board without one gets its results mailed as text, with the
    reason logged, never a crash. Every packaged variant has one now (Pure's results carry its
    picture), so the missing file is played by hiding Pure's from the courier."""
    import logging
    from judge.mail.outbound import courier
    from judge.storage.db import open_db
    from mailjudge import MailJudge
    if not drawn:
        monkeypatch.setattr(courier, "has_layout", lambda variant_id: variant_id != "pure")
    j = MailJudge(tmp_path)
    variant = load_variant("pure")
    j.service.create_account("gm", "gm@dip.test", "gm-secret")
    j.service.create_game("tiny", variant="pure", master="gm")
    for power in variant.power_ids:
        j.service.create_account(power.lower(), f"{power.lower()}@dip.test", "pw")
        j.service.join("tiny", power.lower(), [power])
    j.service.process("tiny")
    with caplog.at_level(logging.INFO, logger="judge.courier"):
        assert courier.Courier(j.service, j.config).run(open_db(j.config.db_path)) > 0
    results = [s for s in j.outbox() if "results" in s.subject.lower()]
    assert results and all(bool(list(s.mail.iter_attachments())) == drawn for s in results)
    assert ("pure variant has no layout.json" in caplog.text) != drawn
