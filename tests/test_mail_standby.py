"""The standby list (judge.games.standby) through the in-process mail judge: SET STANDBY by mail; a
resigned power offered to the standbys one at a time, the most reliable first, the next asked when
an offer runs out; the taker's JOIN and hand-over mail; a player who comes back first keeps the power;
OFFERS ALL; and who is never asked (another variant's standby, a player of the game, the master)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.games.clock import parse_time
from judge.games.model import Settings
from judge.mail.outbound.courier import Courier
from judge.storage.db import open_db

from mailjudge import POWERS, MailJudge
from test_games_helpers import orders

HOLDS = {"AUSTRIA": "A VIE H", "ENGLAND": "A LVP H", "FRANCE": "A PAR H", "GERMANY": "A BER H",
         "ITALY": "A ROM H", "RUSSIA": "A MOS H", "TURKEY": "A CON H"}


@pytest.fixture
def j(tmp_path):
    judge = MailJudge(tmp_path)
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    yield judge
    judge.close()


def start(j: MailJudge, **settings) -> None:
    j.service.create_game("alpha", master="gm", settings=Settings(grace_hours=2, pictures=False, **settings))
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        j.service.join("alpha", p.lower(), [p])
    deliver(j)


def deliver(j: MailJudge) -> list:
    """The courier's run, as the daemon's tick makes it: the pending notices into the outbox."""
    before = j.last_outbox_row()
    Courier(j.service, j.config).run(open_db(j.config.db_path))
    return j.outbox(after=before)


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
    assert offers(tick(j, 24)) == ["tia"]
    assert offers(tick(j, 1)) == []
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
    assert offers(tick(j, 1)) == []
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
