"""A game set up by mail (CREATE with settings, a join password) and what anyone may ask of a game by
mail: MAP (a PNG attached), EXPORT (a JSON record that `judge adjudicate` replays), SUMMARY
(njudge's whogame), HISTORY from to, and a player's record on LIST and as the master's minimum."""
from __future__ import annotations

import json
import random

import pytest

from judge.games.answers import NoSuchGame
from judge.engine.notation import parse_order
from judge.mail.commands.game_settings import HELP_SETTINGS
from judge.mail.commands.info import hidden
from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Reports
from mailjudge import POWERS, MailJudge
from test_games_export import outcomes, replay, replayed_outcomes
from test_games_export import play as play_by_service
from test_games_helpers import STANDARD, a_game_state


@pytest.fixture
def judge(tmp_path):
    j = MailJudge(tmp_path)
    for name in ("gm", "ann", "bob"):
        j.service.create_account(name, f"{name}@dip.test", f"{name}-pw")
    yield j
    j.close()


def said(reply) -> str:
    return " ".join(reply.body.split())


def play(judge: MailJudge, game: str, phases: int, rng: random.Random) -> None:
    """Greedy orders from most powers, one or two silent each phase; processed by the service."""
    play_by_service(judge.service, game, phases, rng, account=str.lower)


# -- CREATE with settings -----------------------------------------------------------------------------

def test_create_takes_every_setting_set_knows_and_ends_with_the_same_settings_as_set(judge):
    examples = [f"{name} {example}".strip() for name, example, _ in HELP_SETTINGS]
    r = said(judge.reply_to("gm@dip.test", "CREATE beta gm-pw " + " ".join(examples)))
    assert "created beta; you are its master" in r and "settings: MOVEMENT 72; RETREAT 24;" in r, r
    judge.service.create_game("alpha", master="gm")
    judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\n" + "\n".join(f"SET {e}" for e in examples))
    created, set_ = (judge.service.status(g).settings for g in ("beta", "alpha"))
    assert created == set_ and created["press"] == "grey" and created["deadline_days"] == ["mon", "tue", "wed",
                                                                                           "thu", "fri"]


def test_create_with_a_variant_and_settings_in_any_case_and_commas(judge):
    r = said(judge.reply_to("gm@dip.test", "create gamma gm-pw standard press grey, clock 18:30, "
                                           "pressphases movement, reminders 12 2 nolist"))
    assert "created gamma" in r and "PRESSPHASES on" in r and "NOLIST on" in r
    settings = judge.service.status("gamma").settings
    assert (settings["press"], settings["deadline_clock"], settings["movement_press_only"]) == ("grey", "18:30", True)
    assert settings["reminder_hours"] == [12.0, 2.0] and settings["unlisted"] is True


@pytest.mark.parametrize("written, variant_id", [("ANCMED", "ancmed"), ("France-vs-Austria", "france-austria"),
                                                 ("FLEET-ROME", "fleetrome"), ("Standard", "standard")])
def test_create_takes_a_variant_by_its_id_or_its_name_as_help_variant_does(judge, written, variant_id):
    r = said(judge.reply_to("gm@dip.test", f"create delta gm-pw {written}"))
    assert "created delta" in r, r
    assert judge.service.status("delta").variant == variant_id


@pytest.mark.parametrize("words, why", [
    ("PRESS purple MOVEMENT -3", ["SET PRESS: 'purple' is not one of WHITE, GREY, BROADCAST, NONE",
                                  "SET MOVEMENT: hours must be more than 0"]),
    ("CLOCK AUTO", ["CLOCK AUTO needs players to choose for"]),
    ("GAMEZONE Mars/Olympus NOABSENCE 4", ["'Mars/Olympus' is not a time zone", "SET NOABSENCE takes no value"]),
    ("standard sideways", ["'sideways' is neither a variant nor a game setting"]),
    ("sideways", ["unknown variant 'sideways'; known: 1897, 1898,"]),
    ("chaos PLAYERS five", ["the five-player setup is for the standard map"]),
    ("nosuchvariant", ["nosuchvariant"]),
    ("GRACE", ["SET GRACE needs a value"]),
])
def test_a_create_with_a_wrong_setting_creates_nothing_and_says_why_of_each(judge, words, why):
    r = said(judge.reply_to("gm@dip.test", f"CREATE beta gm-pw {words}"))
    for reason in why:
        assert reason in r, r
    with pytest.raises(NoSuchGame):
        judge.service.status("beta")


# -- private games -------------------------------------------------------------------------------------

def test_a_join_password_set_by_mail_lets_in_only_those_who_know_it_and_is_never_repeated(judge):
    r = said(judge.reply_to("gm@dip.test", "CREATE alpha gm-pw PRESS grey PRIVATE open-sesame"))
    assert "alpha is private: joining needs its join password" in r and "open-sesame" not in r
    assert "JOIN alpha their-password PRIVATE the-join-password" in r
    refused = said(judge.reply_to("ann@dip.test", "JOIN alpha ann-pw France"))
    assert "alpha is private: joining needs its join password from the game master" in refused
    wrong = said(judge.reply_to("ann@dip.test", "JOIN alpha ann-pw France PRIVATE guess"))
    assert "(that one is not it)" in wrong
    ok = judge.reply_to("ann@dip.test", "JOIN alpha ann-pw France PRIVATE open-sesame")
    assert "joined alpha: 1 of 7 players" in said(ok) and "open-sesame" not in ok.body

    r = said(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nSET JOIN PASSWORD other-word"))
    assert "alpha is private" in r and "other-word" not in r
    assert "that one is not it" in said(judge.reply_to("bob@dip.test", "JOIN alpha bob-pw PRIVATE open-sesame"))
    assert "joined alpha" in said(judge.reply_to("bob@dip.test", "JOIN alpha bob-pw KEY other-word"))
    r = said(judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nSET PRIVATE none"))
    assert "alpha has no join password now; it is open to anyone" in r
    judge.service.create_account("cy", "cy@dip.test", "cy-pw")
    assert "joined alpha" in said(judge.reply_to("cy@dip.test", "JOIN alpha cy-pw"))
    assert "SET JOIN PASSWORD is for the master of alpha" in said(
        judge.reply_to("cy@dip.test", "SIGNON ?alpha cy-pw\nSET JOIN PASSWORD mine"))


def test_a_private_create_handled_again_after_a_crash_still_makes_the_game_private(judge):
    # the crash window: the game's file was committed (as create_game does first), the join
    # password and judge.sqlite's record of the mail were not; the same CREATE is handled again
    judge.service.create_game("alpha", master="gm")
    r = said(judge.reply_to("gm@dip.test", "CREATE alpha gm-pw PRIVATE open-sesame"))
    assert "alpha was created by you already; it is private" in r and "open-sesame" not in r
    assert "alpha is private: joining needs its join password" in said(judge.reply_to("ann@dip.test",
                                                                                      "JOIN alpha ann-pw"))
    assert "joined alpha" in said(judge.reply_to("ann@dip.test", "JOIN alpha ann-pw PRIVATE open-sesame"))


# -- MAP, EXPORT, SUMMARY, HISTORY ---------------------------------------------------------------------

@pytest.fixture
def played(tmp_path):
    j = MailJudge(tmp_path)
    j.seven_players()
    for name in ("ann", "bob"):
        j.service.create_account(name, f"{name}@dip.test", f"{name}-pw")
    play(j, "alpha", 5, random.Random(7))
    yield j
    j.close()


def attachments(reply) -> dict[str, bytes]:
    return {part.get_filename(): part.get_content() for part in reply.mail.iter_attachments()}


def test_map_attaches_a_picture_of_the_board_now_or_of_a_phase_played(played):
    phase = played.service.status("alpha").phase
    forged = said(played.reply_to("ann@dip.test", "MAP alpha"))     # From alone proves nothing
    assert "MAP sends a file, and nothing in this mail proved it was you who asked" in forged
    assert not attachments(played.reply_to("ann@dip.test", "MAP alpha"))
    now = played.reply_to("ann@dip.test", "REGISTER ann ann-pw\nMAP alpha")
    assert f"the board of alpha in {phase}, as it stands, before its orders: attached as alpha-{phase}.png" in said(now)
    then = played.reply_to("ann@dip.test", "register ann ann-pw\nmap alpha F1901M")
    assert "the board of alpha in F1901M, with its orders and what became of them" in said(then)
    for reply, name in ((now, f"alpha-{phase}.png"), (then, "alpha-F1901M.png")):
        files = attachments(reply)
        assert list(files) == [name] and files[name][:8] == b"\x89PNG\r\n\x1a\n"
    assert attachments(now)[f"alpha-{phase}.png"] != attachments(then)["alpha-F1901M.png"]
    wrong = said(played.reply_to("ann@dip.test", "REGISTER ann ann-pw\nMAP alpha F1999M\nMAP nosuch"))
    assert "alpha has no phase F1999M" in wrong and "MAP alpha, or MAP alpha with one of:" in wrong
    assert "there is no game called nosuch" in wrong


def test_export_by_mail_is_the_record_judge_adjudicate_replays_to_the_games_results(played, tmp_path):
    played.service.rollback("alpha", "F1901M")
    play(played, "alpha", 2, random.Random(8))
    reply = played.reply_to("bob@dip.test", "REGISTER bob bob-pw\nEXPORT alpha")
    record = json.loads(attachments(reply)["alpha.json"])
    history = [h for h in played.service.history("alpha") if h.processed_at and not h.rolled_back]
    assert f"the record of alpha: {len(history)} phases played, attached as alpha.json;" in said(reply)
    assert "`judge adjudicate alpha.json` replays it" in said(reply) and record["replayable"] == {"ok": True}
    response = replay(tmp_path, record)
    assert set().union(*map(replayed_outcomes, response["phases"])) == outcomes(
        [r for h in history for r in h.results])
    now = played.service.status("alpha").position
    assert {k: response["next"][k] for k in ("phase", "units", "centres")} == {
        k: now[k] for k in ("phase", "units", "centres")}


def test_summary_is_whogame_who_plays_since_when_and_centres_by_year_unlike_list(played):
    played.service.create_account("newbie", "newbie@dip.test", "nb")
    r = said(played.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nEJECT Austria\nREPLACE Austria newbie@dip.test"))
    assert "is now played by newbie" in r, r
    phase = played.service.status("alpha").phase
    summary = played.reply_to("ann@dip.test", "SUMMARY alpha").body
    listed = played.reply_to("ann@dip.test", "LIST alpha").body
    assert summary != listed and "master: gm" in summary
    rows = [line.split() for line in summary.splitlines()]
    assert ["Austria", "austria", "S1901M", "2026-03-02", "replaced"] in rows, summary
    assert any(row[:2] == ["newbie", phase] for row in rows), summary
    assert ["power", "1901", "1902"] in rows and "supply centres at the end of each year:" in summary
    centres = {row[0]: row[1:] for row in rows if row and row[0] in ("England", "Russia") and len(row) == 3}
    assert all(n.isdigit() for n in centres["Russia"]), summary
    assert "phases played: 5, S1901M to " in " ".join(summary.split())


def test_history_from_to_a_year_and_single_phases(played):
    def phases_in(body: str) -> list[str]:
        return [line.strip().rstrip(":") for line in body.splitlines() if line.strip().endswith(":")
                and line.strip()[:1] in "SFW" and line.strip()[1:5].isdigit()]
    assert phases_in(played.reply_to("ann@dip.test", "HISTORY alpha S1901M F1901M").body) == ["S1901M", "F1901M"]
    assert phases_in(played.reply_to("ann@dip.test", "HISTORY alpha FROM F1901M TO S1902M").body)[0] == "F1901M"
    year = phases_in(played.reply_to("ann@dip.test", "HISTORY alpha 1901").body)
    assert year[0] == "S1901M" and all("1901" in p for p in year) and len(year) >= 2
    assert phases_in(played.reply_to("ann@dip.test", "HISTORY alpha S1901M-F1901M").body) == ["S1901M", "F1901M"]
    wrong = said(played.reply_to("ann@dip.test", "HISTORY alpha S1901M F1999M\nHISTORY alpha spring"))
    assert "no phase F1999M has been played" in wrong and "'SPRING' is not a phase" in wrong


# -- a player's record ---------------------------------------------------------------------------------

def test_the_record_on_list_and_the_masters_minimum_to_join_by_mail(played):
    listed = said(played.reply_to("austria@dip.test", "LIST"))
    record = played.service.record("austria")
    assert f"your record: orders sent in {record.reliability:.0f}% of {record.phases} phases" in listed
    game = said(played.reply_to("ann@dip.test", "LIST alpha"))
    assert f"Austria austria {record.reliability:.0f}% of {record.phases}" in game
    played.reply_to("gm@dip.test", "CREATE beta gm-secret RELIABILITY 101")
    assert "a percentage is from 0 to 100" in said(
        played.reply_to("gm@dip.test", "CREATE beta gm-secret RELIABILITY 101")
    )
    played.reply_to("gm@dip.test", "CREATE beta gm-secret RELIABILITY 99.5")
    worst = min(POWERS, key=lambda p: played.service.record(p.lower()).reliability or 100).lower()
    refused = said(played.reply_to(f"{worst}@dip.test", f"JOIN beta {worst}-pw"))
    assert "beta asks for players who sent orders in at least 99.5% of their phases" in refused
    assert "joined beta" in said(played.reply_to("ann@dip.test", "JOIN beta ann-pw"))     # a newcomer may


# -- ROLLBACK by mail ----------------------------------------------------------------------------------

def test_rollback_by_mail_restores_the_powers_and_its_notice_lists_the_dislodged_unit(tmp_path):
    j = MailJudge(tmp_path)
    try:
        j.seven_players()
        svc = j.service

        def orders(power: str, *texts: str) -> None:
            svc.submit_orders("alpha", power, list(zip(texts, (parse_order(STANDARD, t) for t in texts), strict=True)),
                              account=power.lower())

        orders("FRANCE", "A MAR - BUR", "A PAR - PIC", "F BRE H")
        orders("GERMANY", "A MUN - RUH", "A BER - MUN", "F KIE H")
        j.clock.set(svc.status("alpha").deadline["utc"])
        svc.process("alpha")
        orders("FRANCE", "A BUR H", "A PIC H", "F BRE H")
        orders("GERMANY", "A RUH - BUR", "A MUN S A RUH - BUR", "F KIE H")
        j.clock.set(svc.status("alpha").deadline["utc"])
        svc.process("alpha")
        assert svc.status("alpha").phase == "F1901R"
        at_retreat = {p: (i.status, i.missed) for p, i in svc.status("alpha").powers.items()}
        j.clock.set(svc.status("alpha").deadline["utc"])
        svc.process("alpha")                           # France sends no retreat: civil disorder
        assert svc.status("alpha").powers["FRANCE"].missed == 1
        svc.mark_notices_queued("alpha", [n.id for n in svc.pending_notices("alpha")])
        r = said(j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nROLLBACK F1901R"))
        assert "alpha rolled back to F1901R" in r
        assert {p: (i.status, i.missed) for p, i in svc.status("alpha").powers.items()} == at_retreat
        [notice] = [n for n in svc.pending_notices("alpha") if n.kind == "rollback" and n.recipient == "france"]
        text = " ".join(render_notice(Reports(), svc, notice).body.split())
        assert "France's dislodged army in Burgundy retreats to " in text and "or disbands." in text
    finally:
        j.close()



@pytest.mark.parametrize("settings, state, viewer, hide", [
    ({"anonymous": True}, "active", "ann", True),
    ({"anonymous": True}, "active", "gm", False),         # the master sees who plays
    ({"anonymous": True}, "finished", "ann", False),      # revealed at the end
    ({"anonymous": False}, "active", "ann", False),
    ({}, "active", None, False),                          # a judge whose games have no such setting
])
def test_who_may_see_the_players_names_in_summary_and_list(settings, state, viewer, hide):
    assert hidden(a_game_state(settings=settings, status=state), viewer) is hide
