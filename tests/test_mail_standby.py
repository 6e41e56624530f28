"""The standby list (judge.games.standby) through the in-process mail judge: SET STANDBY and the bare
STANDBY by mail; a resigned power offered to the standbys one at a time, the most reliable first, the
next asked when an offer runs out; the taker's JOIN or TAKE and hand-over mail; a player who comes
back first keeps the power; OFFERS ALL; who is never asked (another variant's standby, a player of
the game, the master); the master's SEEK; takeovers the master approves (judge.games.takeovers);
QUIET replacements; and each standby told once when its offer ends."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.games.clock import parse_time
from judge.storage.db import open_db

from mailjudge import HOLDS, POWERS, MailJudge, deliver, judge_with_master, start
from test_games_helpers import orders


@pytest.fixture
def j(tmp_path):
    yield from judge_with_master(tmp_path)


def tick(j: MailJudge, hours: float = 0) -> list:
    j.clock.set(j.clock() + timedelta(hours=hours))
    j.service.run_due()
    return deliver(j)


def standby(j: MailJudge, name: str, variants: str, *, sent: int = 0, phases: int = 0) -> str:
    """A registered account that puts itself on the list by mail; its record across games: `sent`
    orders in time of `phases` (written as the judge's cache of another, finished game's records)."""
    reply = j.reply_to(f"{name}@dip.test", f"REGISTER {name} {name}-pw\nSET STANDBY {variants}")
    if phases:
        with open_db(j.config.db_path) as db:
            db.execute("INSERT INTO player_records (name, account, on_time, late, missed, civil_disorder,"
                       " abandoned, finished) VALUES ('old', ?, ?, 0, ?, 0, 0, 1)", [name, sent, phases - sent])
            db.conn.commit()
    return reply.text


def offers(mails: list) -> list[str]:
    return [m.to[0].split("@")[0] for m in mails if "needs a player" in m.subject]


def ended(mails: list) -> dict[str, str]:
    """Who was told an offer is over, and the mail's words."""
    return {m.to[0].split("@")[0]: m.text for m in mails if "is no longer offered to you" in m.subject}


def master(j: MailJudge, lines: str) -> str:
    return j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\n" + lines).text


def test_set_standby_by_mail_says_what_one_is_on_and_refuses_an_unknown_variant(j):
    assert "standby list for these variants: abstraction2, standard" in standby(j, "sam", "standard,abstraction2")

    def sam(line: str) -> str:
        return j.reply_to("sam@dip.test", "REGISTER sam sam-pw\n" + line).text
    assert "for these variants: abstraction2, standard" in sam("SET STANDBY")
    assert "a variant this judge does not have" in sam("SET STANDBY nosuchland")
    assert "any variant" in sam("SET STANDBY any")
    assert "off the standby list" in sam("SET STANDBY OFF")
    assert "not on the standby list" in sam("SET STANDBY")


def test_a_resigned_power_goes_to_the_most_reliable_standby_then_the_next_when_the_offer_runs_out(j):
    start(j, offer_hours=24)
    standby(j, "tia", "ANY", sent=5, phases=10)          # on the list first, but less reliable
    standby(j, "sam", "standard", sent=10, phases=10)
    j.service.submit_orders("alpha", "ITALY", orders("A ROM - APU"), account="italy")
    j.service.resign("alpha", "ITALY", account="italy")
    first = tick(j)
    assert offers(first) == ["sam"]
    offer = next(m for m in first if "needs a player" in m.subject)
    assert "JOIN alpha password Italy" in offer.text and "yours alone until" in offer.text
    assert offers(tick(j, 1)) == [], "nobody else is asked while an offer is out"
    runs_out = tick(j, 24)
    assert offers(runs_out) == ["tia"]
    assert list(ended(runs_out)) == ["sam"] and "has run out" in ended(runs_out)["sam"]
    assert "TAKE alpha Italy" in ended(runs_out)["sam"], "one may still take it while it is open"
    again = tick(j, 1)
    assert offers(again) == [] and ended(again) == {}, "told once"
    handover = j.send("tia@dip.test", "JOIN alpha tia-pw Italy")
    assert "you now play Italy in alpha" in next(m for m in handover if m.to == ["tia@dip.test"]).text
    told = [m for m in deliver(j) if "now plays Italy" in m.subject]
    mine = [m for m in told if m.to == ["tia@dip.test"]]
    assert "you now play Italy" in mine[0].text and "Your units:" in mine[0].text and "Deadline" in mine[0].text
    assert "Orders standing for Italy" in mine[0].text and "A ROM - APU" in mine[0].text
    assert "Supply centres by year" in mine[0].text
    others = [m for m in told if m.to != ["tia@dip.test"]]
    assert others and all("Orders standing" not in m.text and "Supply centres" not in m.text for m in others)
    refused = j.reply_to("sam@dip.test", "JOIN alpha sam-pw Italy").text
    assert "no power is open for takeover" in refused and "Traceback" not in refused
    assert offers(tick(j, 48)) == []
    assert "sam" not in ended(told), "sam's offer had run out and was told so: nothing more"


def test_a_player_who_comes_back_first_keeps_the_power_and_the_offer_is_withdrawn(j):
    start(j, abandon_after=1)
    standby(j, "sam", "ANY")
    for p in POWERS:
        if p != "ITALY":
            j.service.submit_orders("alpha", p, orders(HOLDS[p]), account=p.lower())
    j.clock.set(parse_time(j.service.status("alpha").deadline["utc"]) + timedelta(hours=2))
    assert offers(tick(j)) == ["sam"]
    assert j.service.status("alpha").powers["ITALY"].status == "abandoned"
    j.service.submit_orders("alpha", "ITALY", orders("A ROM H"), account="italy")
    assert j.service.status("alpha").powers["ITALY"].status == "active"
    back = tick(j, 1)
    assert offers(back) == [] and list(ended(back)) == ["sam"] and "its player came back" in ended(back)["sam"]
    refused = j.reply_to("sam@dip.test", "JOIN alpha sam-pw Italy").text
    assert "no power is open for takeover (one offered earlier has been taken, or its player came back)" in refused
    assert j.service.status("alpha").powers["ITALY"].account == "italy"


def test_offers_all_asks_every_standby_at_once_and_the_first_join_takes_it(j):
    start(j)
    set_all = j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET OFFERS ALL").text
    assert "OFFERS of alpha: 0" in " ".join(set_all.split())
    standby(j, "sam", "ANY", sent=10, phases=10)
    standby(j, "tia", "standard")
    j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nEJECT Italy")
    mails = tick(j)
    assert sorted(offers(mails)) == ["sam", "tia"]
    assert "every standby at once" in next(m for m in mails if "needs a player" in m.subject).text
    assert "you now play Italy" in j.reply_to("tia@dip.test", "JOIN alpha tia-pw Italy").text
    taken = deliver(j)
    assert list(ended(taken)) == ["sam"] and "taken by another player" in ended(taken)["sam"]
    assert "no power is open for takeover" in j.reply_to("sam@dip.test", "JOIN alpha sam-pw Italy").text
    assert offers(tick(j, 30)) == []
    j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nEJECT Italy")
    assert offers(tick(j)) == ["sam"], "open again: asked afresh (tia, who had it, is not)"


def test_nobody_is_offered_a_power_in_another_variant_in_a_game_they_play_or_master_or_may_not_join(j):
    start(j, min_reliability=80)
    standby(j, "abe", "abstraction2", sent=10, phases=10)
    standby(j, "dee", "ANY", sent=10, phases=10)
    j.service.set_access("alpha", deny=["dee"])                 # the master's DENY list
    standby(j, "lax", "ANY", sent=5, phases=10)                 # below the game's minimum record
    j.reply_to("france@dip.test", "SIGNON Falpha france-pw\nSET STANDBY ANY")
    j.reply_to("gm@dip.test", "SIGNON Malpha gm-secret\nSET STANDBY ANY")
    j.service.resign("alpha", "ITALY", account="italy")
    assert offers(tick(j)) == []
    assert offers(tick(j, 30)) == []
    standby(j, "sam", "standard")
    assert offers(tick(j, 1)) == ["sam"]


def test_a_restart_neither_loses_an_offer_nor_mails_it_twice(j, tmp_path):
    start(j)
    standby(j, "sam", "ANY", sent=10, phases=10)
    standby(j, "tia", "ANY")
    j.service.resign("alpha", "ITALY", account="italy")
    assert offers(tick(j, 1)) == ["sam"]
    j.close()
    again = MailJudge(tmp_path, start=j.clock().isoformat())
    try:
        assert offers(tick(again, 1)) == [], "sam's offer is still out after the restart"
        assert offers(tick(again, 24)) == ["tia"]
    finally:
        again.close()


def test_under_fog_of_war_the_hand_over_shows_no_centre_table(j):
    start(j, fog=True)
    standby(j, "sam", "ANY")
    j.service.resign("alpha", "ITALY", account="italy")
    assert offers(tick(j)) == ["sam"]
    j.send("sam@dip.test", "JOIN alpha sam-pw Italy")
    [mine] = [m for m in deliver(j) if m.to == ["sam@dip.test"] and "now plays Italy" in m.subject]
    assert "Your units:" in mine.text and "Supply centres" not in mine.text


def test_the_bare_standby_word_and_standby_off(j):
    def sam(line: str) -> str:
        return j.reply_to("sam@dip.test", "REGISTER sam sam-pw\n" + line).text
    assert "not on the standby list" in sam("STANDBY")
    assert "standby list for these variants: abstraction2, standard" in sam("STANDBY standard abstraction2")
    assert "for these variants: abstraction2, standard" in sam("STANDBY")
    assert "any variant" in sam("standby any")
    assert "off the standby list" in sam("STANDBY OFF")
    assert "not on the standby list" in sam("STANDBY")
    refused = j.reply_to("nobody@dip.test", "STANDBY ANY").text
    assert "not registered" in refused and "Traceback" not in refused


def test_take_accepts_an_offer_as_join_does_and_joins_no_game_still_forming(j):
    start(j)
    standby(j, "sam", "ANY")
    j.service.resign("alpha", "ITALY", account="italy")
    offer = next(m for m in tick(j) if "needs a player" in m.subject)
    assert "TAKE alpha Italy password" in offer.body
    assert "you now play Italy in alpha" in j.reply_to("sam@dip.test", "TAKE alpha Italy sam-pw").text
    assert j.service.status("alpha").powers["ITALY"].account == "sam"
    late = j.reply_to("tia@dip.test", "REGISTER tia tia-pw\nTAKE alpha Italy tia-pw").text
    assert "no power is open for takeover" in late
    j.service.create_game("beta", master="gm")
    forming = j.reply_to("tia@dip.test", "TAKE beta France tia-pw").text
    assert "beta has not started: TAKE is for a power open in a game under way" in forming
    assert j.service.status("beta").signups == ()
    assert "Wrong password" not in forming and "Traceback" not in forming


def test_the_master_seeks_a_player_for_a_power_still_played(j):
    start(j)
    standby(j, "sam", "ANY")
    assert "is for the master of alpha" in j.reply_to("italy@dip.test", "SIGNON Ialpha italy-pw\nSEEK Italy").text
    assert "Italy in alpha is offered to the standby list" in master(j, "SEEK Italy")
    offer = next(m for m in tick(j) if "needs a player" in m.subject)
    assert offer.to == ["sam@dip.test"] and "the game master asks for one" in offer.text
    assert j.service.status("alpha").powers["ITALY"].account == "italy", "its player plays on meanwhile"
    j.service.submit_orders("alpha", "ITALY", orders("A ROM H"), account="italy")
    assert "no longer offered" in master(j, "SEEK Italy OFF")
    stopped = deliver(j)
    assert "withdrawn: the power is no longer open" in ended(stopped)["sam"]
    assert "no power is open for takeover" in j.reply_to("sam@dip.test", "JOIN alpha sam-pw Italy").text
    master(j, "SEEK Italy")
    assert offers(tick(j)) == ["sam"], "asked afresh, in the same second too"
    assert "you now play Italy" in j.reply_to("sam@dip.test", "TAKE alpha Italy sam-pw").text
    told = deliver(j)
    [ousted] = [m for m in told if m.to == ["italy@dip.test"]]
    assert "you no longer play Italy" in ousted.text and "sam has taken it over" in ousted.text
    [mine] = [m for m in told if m.to == ["sam@dip.test"]]
    assert "you now play Italy" in mine.text and "A ROM H" in mine.text
    refused = j.reply_to("italy@dip.test", "SIGNON Ialpha italy-pw\nA ROM - APU").text
    assert "were not taken" in refused and "Traceback" not in refused
    assert [o["written"] for o in j.service.confirmation("alpha", "ITALY").orders] == ["A ROM H"]
    assert "'Narnia' is not a power in alpha" in master(j, "SEEK Narnia")


def test_the_master_approves_or_rejects_a_takeover_and_a_rejected_offer_goes_to_the_next(j):
    start(j, offer_hours=24)
    assert "APPROVE of alpha: on (was off)" in " ".join(master(j, "SET APPROVE TAKEOVERS ON").split())
    standby(j, "sam", "ANY", sent=10, phases=10)
    standby(j, "tia", "ANY", sent=5, phases=10)
    j.service.resign("alpha", "ITALY", account="italy")
    offer = next(m for m in tick(j) if "needs a player" in m.subject)
    assert offer.to == ["sam@dip.test"] and "the master approves each takeover" in offer.text
    held = j.reply_to("sam@dip.test", "TAKE alpha Italy sam-pw").text
    assert "waits for the master's approval" in held
    assert j.service.status("alpha").powers["ITALY"].status == "resigned"
    [ask] = [m for m in deliver(j) if "asks to take Italy" in m.subject]
    assert ask.to == ["gm@dip.test"] and "APPROVE sam" in ask.body and "REJECT sam" in ask.body
    assert offers(tick(j, 30)) == [], "nobody else is asked while the master decides"
    assert "no takeover by tia waits" in master(j, "APPROVE tia")
    assert "rejected: they are told, with thanks" in master(j, "REJECT sam")
    mails = tick(j)
    assert "chosen not to hand it over to you" in ended(mails)["sam"]
    assert offers(mails) == ["tia"]
    j.reply_to("tia@dip.test", "TAKE alpha Italy tia-pw")
    assert "tia now plays Italy in alpha" in master(j, "APPROVE tia")
    [mine] = [m for m in deliver(j) if m.to == ["tia@dip.test"] and "now plays Italy" in m.subject]
    assert "you now play Italy" in mine.text and "Your units:" in mine.text
    assert j.service.status("alpha").powers["ITALY"].account == "tia"


def test_a_player_back_before_the_master_approves_keeps_the_power(j):
    start(j, abandon_after=1, approve_takeovers=True)
    standby(j, "sam", "ANY")
    for p in POWERS:
        if p != "ITALY":
            j.service.submit_orders("alpha", p, orders(HOLDS[p]), account=p.lower())
    j.clock.set(parse_time(j.service.status("alpha").deadline["utc"]) + timedelta(hours=2))
    assert offers(tick(j)) == ["sam"]
    assert "waits for the master's approval" in j.reply_to("sam@dip.test", "JOIN alpha sam-pw Italy").text
    j.service.submit_orders("alpha", "ITALY", orders("A ROM H"), account="italy")
    assert "its player came back" in ended(deliver(j))["sam"]
    assert "no takeover by sam waits" in master(j, "APPROVE sam")
    assert j.service.status("alpha").powers["ITALY"].account == "italy"


def test_a_quiet_game_tells_the_others_only_that_the_power_has_a_player_again(j):
    start(j)
    assert "QUIET of alpha: on (was off)" in " ".join(master(j, "SET QUIET ON").split())
    standby(j, "sam", "ANY")
    j.service.resign("alpha", "ITALY", account="italy")
    tick(j)
    j.send("sam@dip.test", "TAKE alpha Italy sam-pw")
    told = [m for m in deliver(j) if "Italy" in m.subject]
    others = [m for m in told if m.to not in (["sam@dip.test"], ["gm@dip.test"])]
    assert others and all(m.subject == "alpha: Italy has a player again" for m in others)
    assert all("sam" not in m.text and "Italy has a player again" in m.text for m in others)
    [gm] = [m for m in told if m.to == ["gm@dip.test"]]
    assert "sam now plays Italy" in gm.text
    [mine] = [m for m in told if m.to == ["sam@dip.test"]]
    assert "you now play Italy" in mine.text
