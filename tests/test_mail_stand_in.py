"""SET STANDIN by mail: a resigned power nobody takes is played by the judge's stand-in
(judge.engine.stand_in) for two game years, every order legal and shown as the judge's in the results
mail, until a player takes it over; then its orders are the player's again (or the units hold)."""
from __future__ import annotations

import pytest

from judge.engine.outcomes import Reason
from judge.mail.outbound.courier import Courier
from mailjudge import POWERS, MailJudge

STAND_IN_MARK = "(stand-in)"


@pytest.fixture
def playing(tmp_path):
    """Seven players (turkey@dip.test plays Turkey, ...) and the master gm; no pictures (quicker)."""
    j = MailJudge(tmp_path)
    j.dispatch.courier = Courier(j.service, j.config)     # notices go out after each mail, as in serve
    j.service.create_account("gm", "gm@dip.test", "gm-secret")
    j.service.create_game("alpha", master="gm", settings={"pictures": False})
    for p in POWERS:
        j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        j.service.join("alpha", p.lower(), [p])
    yield j
    j.close()


def said(sent) -> str:
    return " ".join(sent.body.split())


def answer(j, frm: str, body: str) -> str:
    """The judge's reply to this mail (the notices it sent besides are left aside)."""
    replies = [s for s in j.send(frm, body) if s.mail["In-Reply-To"] and frm in s.to]
    assert len(replies) == 1
    return said(replies[0])


def process(judge) -> list:
    """The master plays the current phase (before its deadline: nobody else is counted as missing)."""
    return judge.send("gm@dip.test", "SIGNON Malpha gm-secret\nPROCESS")


def turkish_outcomes(judge) -> list[list[dict]]:
    """Turkey's stored outcomes, phase by phase, from the game's record (judge.games.export)."""
    return [[o for o in r["outcomes"] if o["power"] == "TURKEY"]
            for phase in judge.service.export("alpha")["phases"] for r in phase.get("results", ())]


def test_a_resigned_power_is_played_by_the_stand_in_until_taken_over(playing):
    j = playing
    assert "STANDIN of alpha: on (was off)" in answer(j, "gm@dip.test", "SIGNON Malpha gm-secret\nSET SMART_CD ON")
    answer(j, "turkey@dip.test", "SIGNON Talpha turkey-pw\nRESIGN")
    assert "STANDIN on" in answer(j, "gm@dip.test", "SUMMARY alpha")

    results_mails = []
    while j.service.status("alpha").phase != "S1903M":        # two game years, the master playing each phase
        mails = process(j)
        results_mails += [s for s in mails if s.subject.endswith("results") and s.to == ["gm@dip.test"]]
    assert len(results_mails) >= 4
    played = [os for os in turkish_outcomes(j) if os]
    assert len(played) >= 4                               # every movement, and the winters' builds
    for outcomes in played:
        for o in outcomes:
            assert o["by_judge"] and o.get("stand_in"), o
            assert o["reason"] not in (Reason.ILLEGAL.value, Reason.NOT_NEEDED.value), o
    moved = [o for os in played for o in os if o["reason"] == Reason.MOVED.value]
    assert moved, "the stand-in takes the empty centres next door (Bulgaria, Armenia...), never only holds"
    for mail in results_mails:
        assert STAND_IN_MARK in mail.body, mail.body
        assert "the judge's stand-in gave their orders" in said(mail)
    assert "no order given: held" not in " ".join(m.body for m in results_mails if "Turkey" in m.body
                                                 and "Turkey (" not in m.body)

    # the game's record replays to its own positions, the stand-in's orders read from its results
    assert j.service.export("alpha")["replayable"] == {"ok": True}

    # a player takes Turkey over: from the next phase on the stand-in gives no orders for it
    j.send("tariq@dip.test", "REGISTER tariq tariq-pw\nJOIN alpha tariq-pw Turkey")
    assert j.service.status("alpha").powers["TURKEY"].status == "active"
    before = len(turkish_outcomes(j))
    mails = process(j)
    after = [o for os in turkish_outcomes(j)[before:] for o in os]
    assert after and not any(o.get("stand_in") for o in after)
    assert all(o["reason"] == Reason.HELD.value for o in after)      # the new player sent nothing: they hold
    results = [s for s in mails if s.subject.endswith("results") and s.to == ["gm@dip.test"]]
    assert results and STAND_IN_MARK not in results[0].body


def test_off_by_default_a_resigned_power_just_holds(playing):
    j = playing
    answer(j, "turkey@dip.test", "SIGNON Talpha turkey-pw\nRESIGN")
    process(j)
    outcomes = turkish_outcomes(j)[0]
    assert outcomes and all(o["reason"] == Reason.HELD.value and not o.get("stand_in") for o in outcomes)
