"""Whole games through the games layer: formation, deadlines, NMRs and civil disorder, an abandonment
and a replacement, a returning player, early processing, and the ends: a win, a draw, a concession
and a turn limit."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.games.clock import parse_time
from judge.games.model import Settings
from judge.games.service import GameError
from test_games_helpers import POWERS, Outbox, accounts, seven_player_game, service, submit, whole


def holds(svc, power, game="alpha"):
    """A hold for every unit the power has now: partial orders are not "in"."""
    return [(f"{u} H", _o(f"{u} H")) for u in svc.status(game).position["units"][power]]


def deadline(svc, game):
    return parse_time(svc.status(game).deadline["utc"])


def to_deadline(svc, clock, game):
    clock.set(deadline(svc, game))
    return svc.run_due()


def past_grace(svc, clock, game):
    clock.set(deadline(svc, game) + timedelta(hours=svc.status(game).settings["grace_hours"]))
    return svc.run_due()


def powers(svc, game):
    return {p: (v.status, v.missed) for p, v in svc.status(game).powers.items()}


def kinds(notices, kind):
    return [n for n in notices if n.kind == kind]


def test_a_game_to_a_win_with_nmrs_civil_disorder_abandonment_and_replacement(tmp_path):
    svc, clock = service(tmp_path)
    outbox = Outbox(tmp_path / "outbox.sqlite")
    settings = Settings(victory_centres=7, abandon_after=2)
    status = seven_player_game(svc, settings=settings)
    assert status.status == "active" and status.phase == "S1901M"
    assert {p: v.account for p, v in status.powers.items()}["FRANCE"] == "p-france"
    start_notices = kinds(svc.pending_notices("alpha"), "game_start")
    # every player hears the deadline in the game's zone (UTC) and in their own (Berlin)
    france = next(n for n in start_notices if n.recipient == "p-france")
    assert set(france.payload["deadline"]["shown"]) == {"UTC", "Europe/Berlin"}
    assert outbox.drain(svc) == len(start_notices)

    # Spring 1901: only France orders. A reminder, then the late notice, then civil disorder.
    submit(svc, "alpha", "FRANCE", "A PAR - BUR", "A MAR - SPA", "F BRE - MAO")
    clock.set(deadline(svc, "alpha") - timedelta(hours=23))
    assert svc.run_due() == {"alpha": "reminded"}
    assert to_deadline(svc, clock, "alpha") == {"alpha": "late"}
    assert powers(svc, "alpha")["ENGLAND"] == ("late", 0)
    assert powers(svc, "alpha")["FRANCE"] == ("active", 0)
    assert past_grace(svc, clock, "alpha") == {"alpha": "processed"}
    notices = svc.pending_notices("alpha")
    reminded = {n.recipient for n in kinds(notices, "reminder")}
    assert reminded == {f"p-{p.lower()}" for p in POWERS if p != "FRANCE"} | {"gm"}
    assert "p-france" not in {n.recipient for n in kinds(notices, "late")}
    result = next(n for n in kinds(notices, "results") if n.recipient == "p-england").payload
    assert sorted(result["civil_disorder"]) == sorted(p for p in POWERS if p != "FRANCE")
    held = [o for o in result["results"][0]["outcomes"] if o["power"] == "ENGLAND"]
    assert held and all(o["by_judge"] and o["reason"] == "held" for o in held)
    assert powers(svc, "alpha")["ENGLAND"] == ("civil disorder", 1)
    assert svc.status("alpha").phase == "F1901M"
    outbox.drain(svc)

    # Fall 1901: Germany's player is back; England misses again and is abandoned.
    submit(svc, "alpha", "FRANCE", "A BUR - BEL", "F MAO - POR", "A SPA H")
    submit(svc, "alpha", "GERMANY", "A MUN H", "A BER H", "F KIE H")
    past_grace(svc, clock, "alpha")
    state = powers(svc, "alpha")
    assert state["GERMANY"] == ("active", 0)
    assert state["ENGLAND"] == ("abandoned", 2)
    notices = svc.pending_notices("alpha")
    assert [n.recipient for n in kinds(notices, "returned")] == ["gm", "p-germany"]
    public = [n for n in kinds(notices, "abandoned") if n.recipient is None and n.payload["power"] == "ENGLAND"]
    assert len(public) == 1 and public[0].payload["open_for_takeover"]
    assert svc.status("alpha").phase == "W1901A"  # F1901R had nothing to decide
    outbox.drain(svc)

    # Winter 1901: a replacement takes England and gets a full phase.
    accounts(svc, ["newbie"], zone="Asia/Tokyo")
    clock.advance(hours=20)
    old = deadline(svc, "alpha")
    svc.take_over("alpha", "england", "newbie")
    assert deadline(svc, "alpha") == clock() + timedelta(hours=24) > old
    replacement = next(n for n in svc.pending_notices("alpha") if n.kind == "replacement" and n.recipient == "newbie")
    assert "Asia/Tokyo" in replacement.payload["deadline"]["shown"]
    with pytest.raises(GameError):
        svc.take_over("alpha", "ENGLAND", "newbie")  # no longer open
    submit(svc, "alpha", "FRANCE", "BUILD A PAR", "BUILD A MAR", "BUILD F BRE")
    assert svc.run_due() == {"alpha": "processed"}  # France was the only one with something to decide
    assert svc.status("alpha").phase == "S1902M"
    assert svc.status("alpha").powers["FRANCE"].centres == 6

    # Spring 1902: everyone who plays has ordered, but France asked to wait; then it lets go.
    submit(svc, "alpha", "FRANCE", "A BEL - HOL", "A PAR - BUR", "A MAR - PIE", "F POR H", "A SPA H", "F BRE H")
    svc.submit_orders("alpha", "ENGLAND", [("F LON H", _o("F LON H"))], account="newbie")
    svc.set_wait("alpha", "FRANCE", True, account="p-france")
    submit(svc, "alpha", "GERMANY", "A MUN H")  # partial orders: Germany is not in
    assert svc.run_due() == {}
    svc.set_wait("alpha", "FRANCE", False, account="p-france")
    assert svc.run_due() == {}                   # Germany's other units have no orders yet
    svc.submit_orders("alpha", "GERMANY", holds(svc, "GERMANY"))
    assert svc.run_due() == {}                   # nor have England's
    svc.submit_orders("alpha", "ENGLAND", holds(svc, "ENGLAND"), account="newbie")
    due_at = deadline(svc, "alpha")
    assert svc.run_due() == {"alpha": "processed"}
    history = svc.history("alpha")
    spring = next(h for h in history if h.phase == "S1902M")
    assert parse_time(spring.processed_at) < due_at
    # the abandoned powers' units stay in civil disorder; they are not announced again
    assert spring.civil_disorder == ("AUSTRIA", "ITALY", "RUSSIA", "TURKEY")
    assert not [n for n in svc.pending_notices("alpha") if n.kind == "abandoned" and n.id.startswith("alpha:4:")]
    assert powers(svc, "alpha")["ENGLAND"] == ("active", 0)

    # Fall 1902: France reaches seven centres and wins at once.
    submit(svc, "alpha", "FRANCE", "A BUR - BEL", "A HOL H", "A PIE H", "F POR H", "A SPA H", "F BRE H")
    svc.submit_orders("alpha", "ENGLAND", holds(svc, "ENGLAND"), account="newbie")
    svc.submit_orders("alpha", "GERMANY", holds(svc, "GERMANY"))
    assert svc.run_due() == {"alpha": "finished"}
    status = svc.status("alpha")
    assert status.status == "finished"
    assert status.result["how"] == "win" and status.result["winners"] == ["FRANCE"]
    assert status.result["players"] == ["p-france"]
    assert svc.due_games(clock() + timedelta(days=365)) == []
    with pytest.raises(GameError):
        submit(svc, "alpha", "FRANCE", "A HOL H")
    ends = kinds(svc.pending_notices("alpha"), "game_end")
    assert {n.recipient for n in ends} == {f"p-{p.lower()}" for p in POWERS if p != "ENGLAND"} | {"newbie", "gm", None}

    # every notice reached the outbox exactly once
    outbox.drain(svc)
    assert outbox.drain(svc) == 0
    ids = [r[0] for r in outbox.rows()]
    assert len(ids) == len(set(ids)) > 50


def test_a_standard_game_to_eighteen_centres_against_civil_disorder(tmp_path):
    """The rulebooks' victory, reached through deadlines, civil disorder, abandonments, early processing
    and the settling of retreats and removals nobody plays."""
    from test_games_helpers import france_plays_on_alone
    svc, clock = service(tmp_path)
    seven_player_game(svc, "long")
    early = france_plays_on_alone(svc, "long", lambda: past_grace(svc, clock, "long"))
    result = svc.status("long").result
    assert result["how"] == "win" and result["winners"] == ["FRANCE"]
    assert result["counts"]["FRANCE"] >= 18
    assert early > 10  # once the others were abandoned, France's orders alone played each phase
    state = powers(svc, "long")
    assert all(state[p][0] in ("abandoned", "eliminated") for p in POWERS if p != "FRANCE")
    # retreats of abandoned powers were settled without waiting for anybody
    history = svc.history("long")
    assert not [h for h in history if h.phase.endswith("R")]
    settled = [r for h in history for r in h.results if r["phase"].endswith("R")]
    assert settled and all(o["by_judge"] for r in settled for o in r["outcomes"])


def _o(text):
    from test_games_helpers import orders
    return orders(text)[0][1]


def test_a_game_to_a_draw_of_all_survivors(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "beta")
    for p in POWERS:
        svc.submit_orders("beta", p, [], account=f"p-{p.lower()}")  # an empty message is not orders
    assert svc.run_due() == {}
    for p in POWERS:
        unit = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "FRANCE": "A PAR", "GERMANY": "A BER",
                "ITALY": "A ROM", "RUSSIA": "A MOS", "TURKEY": "A CON"}[p]
        submit(svc, "beta", p, f"{unit} H")
    assert svc.run_due() == {}  # one unit of each ordered: nobody is in
    for p in POWERS:
        submit(svc, "beta", p, *whole(svc, "beta", p))
    assert svc.run_due() == {"beta": "processed"}  # everyone in: no need to wait for the deadline
    assert svc.status("beta").phase == "F1901M"
    assert svc.vote_draw("beta", "p-austria", False) is False
    for p in POWERS[1:]:
        assert svc.vote_draw("beta", f"p-{p.lower()}") is False
    assert svc.vote_draw("beta", "p-austria", True) is True
    status = svc.status("beta")
    assert status.status == "finished"
    assert status.result["how"] == "draw" and sorted(status.result["winners"]) == POWERS


def test_named_draws_when_the_game_allows_them(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "nu", settings=Settings(draw_rule="named"))
    with pytest.raises(GameError):
        svc.vote_draw("nu", "p-france")  # the powers sharing it must be named
    with pytest.raises(GameError):
        svc.vote_draw("nu", "p-france", powers=["FRANCE", "ATLANTIS"])
    pair = ["france", "ENGLAND"]
    for p in POWERS[:-1]:
        assert svc.vote_draw("nu", f"p-{p.lower()}", powers=pair) is False
    assert svc.vote_draw("nu", "p-turkey", powers=["FRANCE", "ENGLAND", "TURKEY"]) is False
    assert svc.vote_draw("nu", "p-turkey", powers=pair) is True
    result = svc.status("nu").result
    assert result["how"] == "draw" and result["winners"] == ["ENGLAND", "FRANCE"]
    seven_player_game(svc, "xi")
    with pytest.raises(GameError):
        svc.vote_draw("xi", "p-france", powers=["FRANCE"])  # the rulebooks' draw includes every survivor


def test_concession_needs_every_other_survivor(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "gamma")
    for p in POWERS[1:-1]:
        assert svc.concede("gamma", f"p-{p.lower()}", "AUSTRIA") is False
    assert svc.concede("gamma", "p-turkey", "austria") is True
    assert svc.status("gamma").result["winners"] == ["AUSTRIA"]
    assert svc.status("gamma").result["how"] == "concession"


def test_turn_limit_most_centres_win_and_ties_share(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "delta", settings=Settings(last_year=1901))
    past_grace(svc, clock, "delta")  # S1901: everyone in civil disorder
    past_grace(svc, clock, "delta")  # F1901: the limit is reached after 1901
    result = svc.status("delta").result
    assert result["how"] == "turn limit"
    assert result["winners"] == ["RUSSIA"] and result["measure"] == "centres"


def test_1982_short_game_counts_pieces_and_ties_share(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "eps", settings=Settings(last_year=1901), rules="1982")
    submit(svc, "eps", "FRANCE", "A MAR - SPA", "F BRE - MAO")
    past_grace(svc, clock, "eps")
    submit(svc, "eps", "FRANCE", "F MAO - POR", "A SPA H")
    past_grace(svc, clock, "eps")
    assert svc.status("eps").phase == "W1901A"
    submit(svc, "eps", "FRANCE", "BUILD A MAR")  # one of two builds
    past_grace(svc, clock, "eps")
    result = svc.status("eps").result
    # France has 5 centres but 4 pieces, as many as Russia: they share the win
    assert result["measure"] == "units"
    assert result["winners"] == ["FRANCE", "RUSSIA"]


def test_civil_disorder_raises_no_units(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "mu")
    submit(svc, "mu", "FRANCE", "A MAR - SPA")
    past_grace(svc, clock, "mu")
    submit(svc, "mu", "FRANCE", "A SPA H")
    past_grace(svc, clock, "mu")
    assert svc.status("mu").phase == "W1901A"
    past_grace(svc, clock, "mu")  # France sends nothing for its build
    winter = next(h for h in svc.history("mu") if h.phase == "W1901A")
    assert winter.civil_disorder == ("FRANCE",)
    french = [o for o in winter.results[0]["outcomes"] if o["power"] == "FRANCE"]
    assert [(o["reason"], o["by_judge"]) for o in french] == [("build waived", True)]
    assert svc.status("mu").phase == "S1902M"


def test_time_limit_ends_with_the_first_phase_processed_after_it(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "zeta", settings=Settings(ends_at="2026-03-03T00:00:00Z"))
    past_grace(svc, clock, "zeta")
    result = svc.status("zeta").result
    assert result["how"] == "time limit"
    assert sorted(result["winners"]) == ["RUSSIA"]


def test_clearing_orders_and_replacing_orders_unit_by_unit(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "eta")
    submit(svc, "eta", "FRANCE", "A PAR - BUR", "A MAR - SPA")
    conf = submit(svc, "eta", "FRANCE", "A PAR - PIC", "F BRE - MAO")
    assert [o["written"] for o in conf.orders] == ["A MAR - SPA", "A PAR - PIC", "F BRE - MAO"]
    assert conf.units_without_orders == ()
    conf = svc.clear_orders("eta", "FRANCE", account="p-france")
    assert conf.orders == () and sorted(conf.units_without_orders) == ["A MAR", "A PAR", "F BRE"]
    conf = submit(svc, "eta", "FRANCE", "A PAR - MUN")
    assert conf.problems and conf.problems[0]["reason"] == "illegal order"
    with pytest.raises(GameError):
        svc.submit_orders("eta", "FRANCE", [], account="p-germany")
    # every submission is kept with its time and source
    db_rows = svc.history("eta")
    assert db_rows[0].phase == "S1901M"
    from judge.games.store import open_game
    db = open_game(tmp_path / "var", "eta")
    kept = db.execute("SELECT action, source, written FROM submissions WHERE power = 'FRANCE' ORDER BY id").fetchall()
    assert [k[0] for k in kept] == ["orders", "orders", "clear", "orders"]
    assert kept[0][1].startswith("test:") and kept[0][2] == "A PAR - BUR\nA MAR - SPA"
    assert len({k[1] for k in kept if k[0] == "orders"}) == 3


def test_rollback_replays_from_an_earlier_phase_and_keeps_history(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "theta")
    submit(svc, "theta", "FRANCE", "A PAR - BUR")
    past_grace(svc, clock, "theta")
    assert svc.status("theta").phase == "F1901M"
    svc.rollback("theta", "s1901m")
    status = svc.status("theta")
    assert status.phase == "S1901M" and status.status == "active"
    history = svc.history("theta")
    assert [(h.phase, h.rolled_back) for h in history] == [
        ("S1901M", True), ("F1901M", True), ("S1901M", False)]
    with pytest.raises(GameError):
        svc.rollback("theta", "F1905M")


def test_pause_stops_the_clock_and_resume_moves_the_deadline(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "iota")
    before = deadline(svc, "iota")
    svc.pause("iota")
    assert svc.due_games(clock() + timedelta(days=30)) == []
    clock.advance(days=3)
    svc.resume("iota")
    assert deadline(svc, "iota") == before + timedelta(days=3)


def test_press_white_and_grey(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "kappa", settings=Settings(press="grey"))
    svc.send_press("kappa", "FRANCE", ["ENGLAND"], "Channel stays empty?", account="p-france")
    svc.send_press("kappa", "FRANCE", ["GERMANY"], "Boo", anonymous=True, account="p-france")
    press = kinds(svc.pending_notices("kappa"), "press")
    assert {(n.recipient, n.payload["from"]) for n in press} == {
        ("p-england", "FRANCE"), ("p-germany", "anonymous"), ("gm", "FRANCE")}
    seven_player_game(svc, "lam", settings=Settings(press="white"))
    with pytest.raises(GameError):
        svc.send_press("lam", "FRANCE", ["GERMANY"], "Boo", anonymous=True, account="p-france")


def test_a_message_dispatched_twice_is_applied_once(tmp_path):
    """The mail layer dispatches at least once; after a crash a message comes again, maybe after the
    phase was played. Its orders must not land in the next phase."""
    from test_games_helpers import orders
    svc, clock = service(tmp_path)
    seven_player_game(svc, "dup")
    units = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "FRANCE": "A PAR", "GERMANY": "A BER", "ITALY": "A ROM",
             "RUSSIA": "A MOS", "TURKEY": "A CON"}
    for p, u in units.items():
        svc.submit_orders("dup", p, orders(*whole(svc, "dup", p, f"{u} H")), account=f"p-{p.lower()}",
                          source=f"inbound:{p}")
    assert svc.run_due() == {"dup": "processed"}
    again = svc.submit_orders("dup", "FRANCE", orders("A PAR H"), account="p-france", source="inbound:FRANCE")
    assert again.repeated and again.phase == "F1901M" and again.orders == ()
    first = svc.send_press("dup", "FRANCE", None, "Hello all", account="p-france", source="inbound:99")
    assert svc.send_press("dup", "FRANCE", None, "Hello all", account="p-france", source="inbound:99") == first
    assert len([n for n in svc.pending_notices("dup") if n.kind == "press"]) == 8   # seven powers and the master


def test_resignation_opens_the_power_and_forming_rules(tmp_path):
    svc, clock = service(tmp_path)
    accounts(svc, ["early", "late-comer"])
    svc.create_game("omi", seed=2)
    svc.join("omi", "early", ["FRANCE"])
    with pytest.raises(GameError):
        svc.start("omi")  # only one player so far
    with pytest.raises(GameError):
        svc.join("omi", "early", ["ATLANTIS"])
    svc.leave("omi", "early")
    assert svc.status("omi").signups == ()
    seven_player_game(svc, "pi")
    with pytest.raises(GameError):
        svc.join("pi", "late-comer")
    svc.resign("pi", "ITALY", account="p-italy")
    assert svc.status("pi").powers["ITALY"].status == "resigned"
    public = [n for n in svc.pending_notices("pi") if n.kind == "resigned" and n.recipient is None]
    assert public and public[0].payload["open_for_takeover"]
    with pytest.raises(GameError):
        submit(svc, "pi", "ITALY", "A ROM H")
    past_grace(svc, clock, "pi")
    assert "ITALY" in svc.history("pi")[0].civil_disorder
    assert svc.status("pi").powers["ITALY"].status == "resigned"
    svc.take_over("pi", "italy", "late-comer")
    italy = svc.status("pi").powers["ITALY"]
    assert (italy.account, italy.status, italy.missed) == ("late-comer", "active", 0)
    svc.submit_orders("pi", "ITALY", [("A ROM H", _o("A ROM H"))], account="late-comer")
    assert svc.games_of("late-comer") == [("pi", "ITALY")]


def _germany_misses_the_fall(tmp_path, settings):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "cd", settings=settings)
    submit(svc, "cd", "AUSTRIA", "A VIE - BOH")
    submit(svc, "cd", "FRANCE", "A PAR - BUR")
    submit(svc, "cd", "GERMANY", "A MUN H")
    past_grace(svc, clock, "cd")
    assert svc.status("cd").phase == "F1901M"
    submit(svc, "cd", "AUSTRIA", "A BOH - MUN")
    submit(svc, "cd", "FRANCE", "A BUR S A BOH - MUN")
    past_grace(svc, clock, "cd")  # Germany sends nothing this fall
    return svc, clock


def test_by_the_book_a_power_in_civil_disorder_does_not_retreat_its_dislodged_unit(tmp_path):
    # All three rulebooks, "Civil Disorder": a player who fails to submit orders on a Spring or Fall
    # turn is in civil disorder; "If they are dislodged, they are disbanded." (SET MISSED BOOK)
    svc, _ = _germany_misses_the_fall(tmp_path, {"missed_orders": "book"})
    status = svc.status("cd")
    assert status.powers["GERMANY"].status == "civil disorder"
    # the army dislodged from Munich had Kiel, Berlin, Ruhr, Silesia and Tyrolia open, but nobody
    # was waited for: it was disbanded and the game went on to the adjustments
    assert status.phase == "W1901A"
    fall = next(h for h in svc.history("cd") if h.phase == "F1901M")
    retreat = next(r for r in fall.results if r["phase"] == "F1901R")
    assert [(o["power"], o["order"], o["reason"], o["by_judge"]) for o in retreat["outcomes"]] == [
        ("GERMANY", "A MUN D", "civil disorder", True)]


def test_as_the_hobby_plays_a_power_that_missed_a_move_still_retreats(tmp_path):
    # issue 24: njudge, DPjudge, webDiplomacy and diplicity let a player who missed a movement
    # deadline retreat; the default for new games.
    svc, clock = _germany_misses_the_fall(tmp_path, None)
    status = svc.status("cd")
    assert status.powers["GERMANY"].status == "civil disorder"
    assert status.phase == "F1901R"
    submit(svc, "cd", "GERMANY", "A MUN R RUH")
    past_grace(svc, clock, "cd")
    assert svc.status("cd").phase == "W1901A"
    assert "A RUH" in svc.status("cd").position["units"]["GERMANY"]


def test_an_abandoned_power_loses_its_dislodged_units_even_as_the_hobby_plays(tmp_path):
    svc, _ = _germany_misses_the_fall(tmp_path, {"abandon_after": 1})
    status = svc.status("cd")
    assert status.powers["GERMANY"].status == "abandoned"
    assert status.phase == "W1901A"


def test_a_retreat_to_a_coast_the_fleet_cannot_reach_is_refused_as_the_move_would_be(tmp_path):
    # DATC 4.B.3, 6.B.3: F NWY - STP/SC is illegal (only the north coast is next to Norway); so is the retreat.
    svc, clock = service(tmp_path)
    seven_player_game(svc, "coast")
    for phase, russia, england in (
            ("S1901M", ["F STP/SC - BOT"], ["F EDI - NWG", "F LON - NTH"]),
            ("F1901M", ["F BOT - SWE"], ["F NWG H", "F NTH H"]),
            ("S1902M", ["F SWE - NWY"], ["F NWG H", "F NTH H"]),
            ("F1902M", ["F NWY H"], ["F NWG - NWY", "F NTH S F NWG - NWY"])):
        while svc.status("coast").phase != phase:  # a winter with builds nobody orders: waived
            past_grace(svc, clock, "coast")
        submit(svc, "coast", "RUSSIA", *russia)
        submit(svc, "coast", "ENGLAND", *england)
        past_grace(svc, clock, "coast")
    assert svc.status("coast").phase == "F1902R"
    conf = submit(svc, "coast", "RUSSIA", "F NWY R STP/SC")
    assert [(p["order"], p["reason"]) for p in conf.problems] == [("F NWY R STP/SC", "illegal order")]
    assert (conf.problems[0]["why"], conf.problems[0]["args"]) == ("cannot_reach_coast", ["F nwy", "sc", "stp"])
    past_grace(svc, clock, "coast")
    units = svc.status("coast").position["units"]["RUSSIA"]
    assert not [u for u in units if u.startswith("F STP")]  # not moved to the north coast: disbanded
