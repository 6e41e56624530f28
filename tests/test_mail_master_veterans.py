"""The master's tools njudge and DPjudge masters know, by mail (issue 25): ALLOW and DENY that take
names off again (`ALLOW -sam`) and empty the list (`ALLOW NONE`); EJECT by account, address or of
an observer; SET MASTER and a master's RESIGN (never a game left without a master); UNSTART before
the first phase; RESUME undoing a TERMINATE within a day; SET COMMENT, SET REVEAL OFF (njudge's NO
REVEAL), SET MANUALPROCESS and SET MANUALSTART with START; and a master's draw vote for a power
after BECOME. All in-process (tests/mailjudge.py); njudge's spellings of each, one per row, are in
tests/test_mail_other_judges.py."""
from __future__ import annotations

import pytest

from mailjudge import deliver

# the seven players of a full game, each with the power they ask for (none named like a power)
SEATS = {"ann": "Austria", "bob": "England", "cy": "France", "dan": "Germany", "eve": "Italy", "fay": "Russia",
         "gus": "Turkey"}


@pytest.fixture
def judge(judge):
    for name in ("gm", *SEATS, "hal", "ivy"):
        judge.service.create_account(name, f"{name}@dip.test", f"{name}-pw")
    judge.service.create_game("alpha", master="gm")
    return judge


def said(reply) -> str:
    return " ".join(reply.body.split())


def master(judge, *lines: str) -> str:
    return said(judge.reply_to("gm@dip.test", "\n".join(("SIGNON Malpha gm-pw", *lines))))


def fill(judge) -> None:
    for name, power in SEATS.items():
        judge.service.join("alpha", name, [power.upper()])


def test_allow_and_deny_take_a_name_off_again_and_none_empties_the_list(judge):
    r = master(judge, "ALLOW ann bob", "DENY cy", "ALLOW -bob -dan")
    assert "alpha is private: only those invited may join; invited: ann; kept out: cy" in r, r
    assert "dan was not on the ALLOW list" in r, r
    assert "only players its game master invites may join" in said(judge.reply_to("bob@dip.test", "JOIN alpha bob-pw"))
    r = master(judge, "ALLOW NONE", "DENY NONE")
    assert "the ALLOW list of alpha is emptied alpha is open to anyone; invited: nobody; kept out: cy" in r, r
    assert "the DENY list of alpha is emptied alpha is open to anyone; invited: nobody; kept out: nobody" in r, r
    for name in ("bob", "cy"):       # anyone may join again, the one kept out too
        assert "joined alpha" in said(judge.reply_to(f"{name}@dip.test", f"JOIN alpha {name}-pw"))
    judge.reply_to("gm@dip.test", "SIGNON Malpha gm-pw\nSET JOIN PASSWORD club-key")
    r = master(judge, "ALLOW dan", "ALLOW NONE")      # a join password still keeps the game private
    assert "alpha is private: only those invited may join; invited: nobody" in r, r
    r = master(judge, "ALLOW ivy zed")
    assert "ALLOW: there is no account zed; nothing was changed" in r, r
    assert judge.service.set_access("alpha").allow == ()


def test_eject_takes_a_player_by_name_or_address_and_ends_an_observers_watch(judge):
    fill(judge)
    judge.service.observe("alpha", "hal")
    r = master(judge, "EJECT ann", "EJECT bob@dip.test", "EJECT hal", "EJECT ivy", "EJECT nobody@dip.test", "EJECT T")
    assert "Austria was taken from its player in alpha" in r and "England was taken from its player in alpha" in r, r
    assert "Turkey was taken from its player in alpha" in r, r          # a power's letter, as before
    assert "hal no longer observes alpha" in r and judge.service.observers("alpha") == [], r
    assert "ivy neither plays a power in alpha nor observes it: nothing was changed" in r, r
    assert "'nobody@dip.test' is neither a power in alpha nor a registered player" in r, r
    powers = judge.service.status("alpha").powers
    assert {p for p in ("AUSTRIA", "ENGLAND", "TURKEY", "FRANCE") if p in judge.service.open_powers("alpha")} == {
        "AUSTRIA", "ENGLAND", "TURKEY"} and powers["FRANCE"].account == "cy"


def test_the_master_hands_the_game_over_or_steps_down_and_never_leaves_it_without_one(judge):
    r = master(judge, "RESIGN")
    assert "alpha would be left with no master: hand it to another first (SET MASTER name)" in r, r
    sent = judge.send("gm@dip.test", "SIGNON Malpha gm-pw\nSET MASTER ann@dip.test")
    (reply,) = [s for s in sent if "gm@dip.test" in s.to]
    assert "ann@dip.test" in reply.to, reply.to                      # the new master reads it too
    assert "ann is now the master of alpha (this reply goes to them too); you are no longer one" in said(reply)
    assert judge.service.status("alpha").masters == ("ann",)
    assert "ERROR on line 1: SIGNON Malpha" in master(judge, "SET PRESS GREY")     # gm is no master of it now
    assert judge.service.status("alpha").settings["press"] == "white"
    r = said(judge.reply_to("ann@dip.test", "SIGNON Malpha ann-pw\nPROMOTE bob\nPROMOTE cy"))
    r = said(judge.reply_to("cy@dip.test", "SIGNON Malpha cy-pw\nSET MASTER dan"))
    assert "only the master of alpha may hand it over; a co-master steps down with RESIGN" in r, r
    r = said(judge.reply_to("ann@dip.test", "SIGNON Malpha ann-pw\nRESIGN"))
    assert "you are no longer a master of alpha; its master is bob" in r, r      # the first co-master
    r = said(judge.reply_to("cy@dip.test", "SIGNON Malpha cy-pw\nRESIGN"))
    assert "you are no longer a master of alpha; its master is bob" in r, r      # a co-master's own rights
    assert judge.service.status("alpha").masters == ("bob",)


def test_manual_start_waits_for_start_and_unstart_goes_back_to_forming_before_the_first_phase(judge):
    r = master(judge, "SET MANUALSTART ON", "SET COMMENT Veterans only, two moves a week")
    assert "MANUALSTART of alpha: on (was off)" in r and "COMMENT of alpha: Veterans only, two moves a week" in r, r
    fill(judge)
    assert judge.service.status("alpha").status == "forming"       # full, and held for the master's START
    assert "comment: Veterans only, two moves a week" in said(judge.reply_to("ivy@dip.test", "SUMMARY alpha"))
    r = master(judge, "SET COMMENT Veterans\u202e only\x07")      # a right-to-left override, a bell: not kept
    assert "COMMENT of alpha: Veterans only (was Veterans only, two moves a week)" in r, r
    assert "alpha has started: the powers are given out" in master(judge, "START")
    deliver(judge)
    judge.reply_to("cy@dip.test", "SIGNON Falpha cy-pw\nA Par H")
    r = master(judge, "UNSTART", "UNSTART")
    assert "alpha is forming again with its 7 players signed up; everyone is told" in r, r
    assert "alpha has not started yet: it is forming already" in r, r
    state = judge.service.status("alpha")
    assert state.status == "forming" and not state.powers and len(state.signups) == 7
    told = deliver(judge)
    assert sorted(a for m in told if m.subject == "alpha is forming again" for a in m.to) == sorted(
        f"{n}@dip.test" for n in ("gm", *SEATS)), [(m.subject, m.to) for m in told]
    assert "alpha has started" in master(judge, "START")
    starts = [m for m in deliver(judge) if "cy@dip.test" in m.to]     # started again: told again
    assert starts and "France" in starts[0].text, [m.subject for m in starts]
    judge.service.process("alpha")
    r = master(judge, "UNSTART")
    assert "alpha has played S1901M already: it can go back to forming only before its first phase is played" in r


def test_resume_undoes_a_terminate_within_a_day_and_not_after(judge):
    fill(judge)
    judge.reply_to("cy@dip.test", "SIGNON Falpha cy-pw\nA Par - Bur")
    assert "alpha is over" in master(judge, "TERMINATE")
    judge.clock.advance(hours=20)
    r = master(judge, "RESUME")
    assert "alpha is not over after all: the TERMINATE is undone, the game is active as it was" in r, r
    state = judge.service.status("alpha")
    assert state.status == "active" and state.result is None and state.phase == "S1901M"
    assert state.deadline["utc"] == "2026-03-05T08:00:00Z", state.deadline   # 48 hours from now, not from before
    assert "Orders standing now: Army Paris -> Burgundy" in said(judge.reply_to("cy@dip.test", "SIGNON Falpha cy-pw"))
    told = [m for m in deliver(judge) if m.subject.startswith("alpha is not over after all")]
    assert told and all("goes on from Spring 1901 Movement as it was" in " ".join(m.text.split()) for m in told)
    master(judge, "TERMINATE")
    judge.clock.advance(hours=25)
    r = master(judge, "RESUME")
    assert "more than a day ago: a TERMINATE can be undone only within a day, and the game stays over" in r, r
    assert judge.service.status("alpha").status == "finished"


def test_manual_process_plays_a_phase_only_at_the_masters_process(judge):
    fill(judge)
    assert "MANUALPROCESS of alpha: on (was off)" in master(judge, "SET MANUALPROCESS ON")
    r = said(judge.reply_to("cy@dip.test", "SIGNON Falpha cy-pw\nA Par H"))
    assert "The phase will be played when the game master says so" in r and "played at" not in r, r
    judge.clock.advance(days=5)            # far past the deadline and its grace
    judge.service.run_due()
    r = said(judge.reply_to("cy@dip.test", "SIGNON Falpha cy-pw"))
    assert "orders sent now still count until the game master plays the phase" in r, r
    assert judge.service.status("alpha").phase == "S1901M"
    assert "alpha S1901M:" in master(judge, "PROCESS")
    assert judge.service.status("alpha").phase == "F1901M"


@pytest.mark.parametrize("reveal, shown", [("SET REVEAL", True), ("SET NO REVEAL", False)])
def test_an_anonymous_games_players_are_shown_at_its_end_unless_no_reveal(judge, reveal, shown):
    r = master(judge, "SET ANONYMOUS ON", reveal)
    assert f"REVEAL of alpha: {'on' if shown else 'off'}" in r, r
    fill(judge)
    master(judge, "TERMINATE")
    summary = said(judge.reply_to("ivy@dip.test", "SUMMARY alpha"))
    assert ("France cy" in summary) is shown, summary


def test_a_master_votes_a_draw_for_the_power_it_acts_for(judge):
    fill(judge)
    r = master(judge, "BECOME France", "SET DRAW")
    assert "France votes for a draw" in r and "ERROR" not in r, r
    for name in SEATS:
        if name != "cy":
            judge.reply_to(f"{name}@dip.test", f"SIGNON {SEATS[name][0]}alpha {name}-pw\nSET DRAW")
    assert judge.service.status("alpha").result["how"] == "draw"


def test_a_full_game_held_by_manual_start_starts_when_the_master_turns_it_off(judge):
    master(judge, "SET MANUALSTART ON")
    fill(judge)
    assert "MANUALSTART of alpha: off (was on)" in master(judge, "SET MANUALSTART OFF")
    assert judge.service.status("alpha").status == "active"
