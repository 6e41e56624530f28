"""Orders for a later phase, as njudge's players send them (`PHASE Fall 1901 Movement`, then order
lines): kept, confirmed as kept for that phase, checked against the board only when it opens, used
then; a line whose unit is not there then is void, and the player is told which and why."""
from __future__ import annotations

from test_mail_master_power import answer, playing, said, to  # noqa: F401 - the fixture, used by name


def played(j) -> list:
    """The master's PROCESS: the phase now is played, and the mail it set off."""
    return j.send("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")


def test_orders_after_a_phase_line_are_kept_and_used_when_that_phase_opens(playing):  # noqa: F811
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur\nF Bre - Mid\n"
               "PHASE Fall 1901 Movement\nA Bur - Bel\nF Mid - Spa/nc\nA Par - Pic")
    assert "the orders after this line are kept for Fall 1901 Movement, used when that phase opens" in r
    assert "Orders for France in alpha, kept for Fall 1901 Movement:" in r
    assert "A Bur - Bel" in r and "Spa" in r
    assert "Kept for Fall 1901 Movement (used when it opens): A Bur - Bel; F Mid - Spa/nc; A Par - Pic" in r
    assert [o["written"] for o in playing.service.confirmation("alpha", "FRANCE").orders] == \
        ["A Par - Bur", "F Bre - Mid"]      # the spring's orders only: the fall's are kept apart
    sent = played(playing)
    told = [s for s in to(sent, "france@dip.test") if "kept for Fall 1901 Movement" in s.subject]
    assert len(told) == 1, [s.subject for s in sent]
    text = said(told[0])
    assert "A Bur - Bel" in text and "France has no unit in Paris now" in text
    standing = [o["written"] for o in playing.service.confirmation("alpha", "FRANCE").orders]
    assert standing == ["A Bur - Bel", "F Mid - Spa/nc"]


def test_a_phase_line_that_names_no_phase_keeps_its_orders_out_of_the_phase_now(playing):  # noqa: F811
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nPHASE Autumn 1901\nA Par - Pic")
    assert "ERROR on line 2: PHASE Autumn 1901" in r and "names no phase of this game" in r
    assert "ERROR on line 3: A Par - Pic" in r and "not used: the PHASE line before it names no phase" in r
    assert "column" not in r and "Token" not in r
    assert playing.service.confirmation("alpha", "FRANCE").orders == ()


def test_a_phase_line_for_the_phase_now_or_a_past_one(playing):  # noqa: F811
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nPHASE S1901M\nA Par - Pic")
    assert "the orders after this line are for Spring 1901 Movement, the phase now played" in r
    assert [o["written"] for o in playing.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Pic"]
    played(playing)
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nPHASE Spring 1901 Movement\nA Pic - Bel")
    assert "Spring 1901 Movement is past: the game is at Fall 1901 Movement" in r
    assert "not kept: Spring 1901 Movement is not a later phase" in r
    assert playing.service.confirmation("alpha", "FRANCE").orders == ()


def test_orders_kept_for_a_phase_never_played_are_void_and_the_player_told(playing):  # noqa: F811
    r = answer(playing, "italy@dip.test", "SIGNON Ialpha italy-pw\nPHASE Spring 1901 Retreats\nA Ven R Tyr\n"
               "PHASE F1901M\nA Ven - Tyr\nF Nap - Ion")
    assert "kept for Spring 1901 Retreat" in r and "kept for Fall 1901 Movement" in r
    sent = played(playing)          # nobody is dislodged: no retreats, straight to the fall
    subjects = [s.subject for s in to(sent, "italy@dip.test")]
    assert "alpha: your orders kept for Spring 1901 Retreat" in subjects, subjects
    void = said(next(s for s in to(sent, "italy@dip.test") if "Spring 1901 Retreat" in s.subject))
    assert "all void" in void and "Spring 1901 Retreat was not played" in void
    assert [o["written"] for o in playing.service.confirmation("alpha", "ITALY").orders] == \
        ["A Ven - Tyr", "F Nap - Ion"]
    assert [s for s in sent if "your orders kept" in s.subject and "italy@dip.test" not in s.to] == []
