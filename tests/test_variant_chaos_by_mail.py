"""Chaos by mail (issue 29): its 34 powers sign on by the start of their names (one letter cannot
tell Belgium from Berlin), a game stopped at a turn limit before anyone has Chaos's 18 centres is a
draw of the survivors, not a win with 3 of 34, and the end mail names the last phase played; a
build refused names the power's own centres. Through the mail pipeline (tests/mailjudge.py)."""
from __future__ import annotations

import pytest

from judge.engine import load_variant
from judge.engine.outcomes import Why
from judge.games.model import Settings
from judge.mail.outbound.courier import Courier
from judge.mail.words.reason_words import because

from mailjudge import MailJudge

CHAOS = load_variant("chaos")


def chaos_game(j: MailJudge, name: str, settings: Settings | None = None) -> None:
    """A Chaos game under way: a master and one account per power, each in its own power."""
    j.service.create_account("gm", "gm@dip.test", "gm-secret")
    j.service.create_game(name, variant="chaos", master="gm", settings=settings)
    for p in CHAOS.powers:
        j.service.create_account(p.id.lower(), f"{p.id.lower()}@dip.test", f"{p.id.lower()}-pw")
        j.service.join(name, p.id.lower(), [p.id])
    assert j.service.status(name).status == "active"


pytestmark = pytest.mark.xdist_group("variant_chaos_by_mail")     # one worker makes the shared game once


@pytest.fixture
def judge(tmp_path):
    j = MailJudge(tmp_path)
    yield j
    j.close()


@pytest.fixture(scope="module")
def mess(tmp_path_factory):
    """One Chaos game for the sign-on checks, which only sign on and vote (34 accounts made once)."""
    j = MailJudge(tmp_path_factory.mktemp("chaos"))
    chaos_game(j, "mess")
    yield j
    j.close()


def body(j: MailJudge, frm: str, text: str) -> str:
    return " ".join(j.reply_to(frm, text).body.split())


@pytest.mark.parametrize("who,power", [("Ber", "BERLIN"), ("bel", "BELGIUM"), ("Berlin", "BERLIN"),
                                       ("Pa", "PARIS"), ("Paris", "PARIS"), ("Lo", "LONDON"),
                                       ("St", "STPETERSBURG"), ("StPetersburg", "STPETERSBURG"),
                                       ("A", "ANKARA"), ("Vienn", "VIENNA")])
def test_a_chaos_power_signs_on_by_any_start_of_its_name_that_is_its_alone(mess, who, power):
    name = CHAOS.power(power).name
    answer = body(mess, f"{power.lower()}@dip.test", f"SIGNON {who}mess {power.lower()}-pw\nSET DRAW")
    assert f"signed on as {name} in mess" in answer and "you vote for a draw" in answer, answer


@pytest.mark.parametrize("who,could", [("B", "Belgium or Berlin or Brest or Budapest or Bulgaria"),
                                       ("V", "Venice or Vienna"), ("Se", "Serbia or Sevastopol")])
def test_a_start_two_powers_share_is_refused_naming_them(mess, who, could):
    answer = body(mess, "berlin@dip.test", f"SIGNON {who}mess berlin-pw")
    assert f"{who} could be {could} in mess" in answer, answer
    assert "signed on" not in answer and "Ber (Berlin)" in answer


def test_orders_after_a_sign_on_by_name_are_that_powers(judge):
    chaos_game(judge, "mess")
    answer = body(judge, "paris@dip.test", "SIGNON Parismess paris-pw\nBuild A Par")
    assert "signed on as Paris in mess" in answer and "ERROR" not in answer, answer
    assert "not read" not in answer
    judge.service.process("mess")
    assert judge.service.status("mess").position["units"]["PARIS"] == ["A PAR"]


def test_the_standard_map_signs_on_by_initial_or_name_and_the_shortest_reading_wins(judge):
    judge.seven_players("game")
    judge.service.create_game("agame", master="gm")     # "SIGNON Fagame": F in agame, never Fa in game
    for sign in ("F", "Fr", "France", "fRANCE"):
        assert "signed on as France in game" in body(judge, "france@dip.test", f"SIGNON {sign}game france-pw")
    assert "signed on as France in agame" not in body(judge, "france@dip.test", "SIGNON Fagame france-pw")
    assert "names no power in game" in body(judge, "france@dip.test", "SIGNON Xgame france-pw")


def test_m_alone_stays_the_masters_where_a_power_is_named_m_something(judge):
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    judge.service.create_game("americas", variant="empire", master="gm")
    assert "signed on as the master in americas" in body(judge, "gm@dip.test", "SIGNON Mamericas gm-secret")
    assert "X (Mexico)" in body(judge, "ann@dip.test", "HELP VARIANT Empire")      # its letter; or Me, Mex...


def test_helps_say_a_power_signs_on_by_the_start_of_its_name(judge):
    assert "The start of the power's name does as well" in body(judge, "ann@dip.test", "HELP")
    answer = body(judge, "ann@dip.test", "HELP VARIANT Chaos")
    assert "Ber (Berlin), Br (Brest), Bud (Budapest)" in answer and "Pa (Paris)" in answer
    assert "A (Austria), E (England), F (France)" in body(judge, "ann@dip.test", "HELP VARIANT standard")


def test_a_chaos_game_stopped_at_its_last_year_is_a_draw_of_the_survivors_named_in_its_last_phase(judge):
    judge.dispatch.courier = Courier(judge.service, judge.config)       # the notices go out with the replies
    chaos_game(judge, "mess", Settings(last_year=1900, pictures=False))
    judge.send("paris@dip.test", "SIGNON Pamess paris-pw\nBuild A Par")    # (with the game's start notice)
    judge.send("london@dip.test", "SIGNON Lomess london-pw\nBuild F Lon")
    before = judge.last_outbox_row()
    judge.send("gm@dip.test", "SIGNON Mmess gm-secret\nPROCESS")      # Winter 1900 played: 1900 was the last year
    result = judge.service.status("mess").result
    assert result["how"] == "turn limit" and result["drawn"] and result["phase"] == "W1900A"
    assert sorted(result["winners"]) == sorted(CHAOS.power_ids)     # each still owns its centre
    ends = [s for s in judge.outbox(after=before) if "paris@dip.test" in s.to and "is over" in s.subject]
    assert len(ends) == 1 and "34-way draw" in ends[0].subject and "wins" not in ends[0].subject
    text = " ".join(ends[0].body.split())
    assert "before any power had the 18 supply centres its victory asks, so it ends in a draw" in text
    assert "The game ended in Winter 1900 Adjustment." in text and "Spring 1901" not in text


def test_the_standard_game_at_its_last_year_still_goes_to_the_most_centres(judge):
    judge.seven_players("game")
    judge.service.create_game("short", master="gm", settings=Settings(last_year=1901))
    for p in ("austria", "england", "france", "germany", "italy", "russia", "turkey"):
        judge.service.join("short", p, [p.upper()])
    for _ in range(3):
        if judge.service.status("short").status == "finished":
            break
        judge.service.process("short")
    result = judge.service.status("short").result
    assert result["how"] == "turn limit" and "drawn" not in result and result["winners"] == ["RUSSIA"]
    assert result["phase"] in ("F1901M", "W1901A")


@pytest.mark.parametrize("why,sites,words", [
    (Why.NOT_HOME_CENTRE, ("par",), "Brest is not your home centre (Paris)"),
    (Why.NOT_HOME_CENTRE, ("bre", "mar", "par"), "Brest is not one of your home centres (Brest, Marseilles, Paris)"),
    (Why.NOT_OWN_CENTRE, ("lon",), "Brest is not your supply centre (London)"),
    (Why.NOT_HOME_CENTRE, (), "Brest is not one of your home centres"),      # a result stored before
])
def test_a_refused_build_names_the_powers_own_centres_in_the_number_it_has(why, sites, words):
    assert because(CHAOS, why, ("bre", *sites)) == words
