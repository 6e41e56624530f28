"""The replies players found unclear (issue 14, item 9), each tried as a new user would, by mail."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine import load_variant, starting_position
from judge.engine.calendar import PhaseKind
from judge.language.parse import OrderReader
from judge.mail.commands.game_settings import HELP_SETTINGS
from judge.mail.outbound.compose import reply_subject
from judge.mail.words.notices import render_notice
from judge.mail.outbound.quarantine import set_aside
from judge.mail.words.reports import Reports
from judge.mail.words.textlayout import WIDTH
from mailjudge import MailJudge, mail

DATA = Path(__file__).parent / "data" / "mail" / "replies"
REACH = json.loads((DATA / "reach.json").read_text())["cases"]
STANDARD = load_variant("standard")


def said(reply) -> str:
    return " ".join(reply.body.split())


@pytest.fixture
def judge(tmp_path):
    j = MailJudge(tmp_path)
    yield j
    j.close()


@pytest.mark.parametrize("case", REACH, ids=[c["line"] for c in REACH])
def test_a_destination_not_understood_suggests_only_places_the_unit_can_reach(case):
    reader = OrderReader(STANDARD)
    parsed = reader.parse(case["line"], PhaseKind.MOVEMENT, power="ENGLAND", position=starting_position(STANDARD))
    [error] = parsed.errors
    assert list(error.suggestions) == case["suggest"] and error.expected.endswith("can reach")
    assert not set(error.suggestions) & set(case["never"])


def test_the_reply_by_mail_suggests_edinburghs_neighbours(judge):
    judge.seven_players()
    r = said(judge.reply_to("england@dip.test", "SIGNON Ealpha england-pw\nF Edi - Nrt"))
    assert "expected: a place a fleet in Edinburgh can reach did you mean: North Sea or Norwegian Sea" in r
    assert "North Atlantic" not in r


# -- times: the late notice, a late order -------------------------------------------------------------

def rendered(judge: MailJudge, kind: str) -> dict[str | None, str]:
    """The pending notices of a kind in alpha, rendered as the courier would, by recipient."""
    reports = Reports()
    return {n.recipient: render_notice(reports, judge.service, n).body
            for n in judge.service.pending_notices("alpha") if n.kind == kind}


def block(body: str, label: str) -> list[str]:
    """The lines of a `label: ...` block of times, its continuation lines included."""
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(label + ":"))
    out = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith(" " * (len(label) + 2)) or "time left" in line:
            break
        out.append(line)
    return out


def test_the_late_notice_says_when_the_phase_is_played_in_the_readers_zone_too(judge):
    judge.seven_players()
    judge.service.set_settings("alpha", time_zone="Europe/Paris")
    judge.service.accounts.set_time_zone("gm", "Europe/Paris")
    judge.clock.advance(hours=49)
    judge.service.run_due()
    mails = rendered(judge, "late")
    player = block(mails["france"], "Played at")
    assert "(Europe/Paris, game time)" in player[0] and "(Asia/Tokyo, your time)" in player[1], player
    master = block(mails["gm"], "Played at")            # the master lives in the game's zone: UTC too
    assert "(Europe/Paris, game time)" in master[0] and master[1].strip().endswith("00:00 UTC (UTC)"), master


def test_a_late_order_is_told_it_still_counts_and_until_when_grace_ends(judge):
    judge.seven_players()
    judge.clock.advance(hours=49)                      # the deadline passed an hour ago; 12 hours of grace
    judge.service.run_due()
    r = said(judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur"))
    assert ("Time left: none: the deadline has passed, but orders sent now still count until the grace"
            " period ends, in 11 hours, at Thu 05 Mar 2026 00:00 UTC (UTC)") in r, r
    judge.service.set_settings("alpha", nmr_policy="wait")
    r = said(judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nA Mar H"))
    assert "Time left: none: the deadline has passed, but orders sent now still count: this game waits" in r


# -- who wrote it ------------------------------------------------------------------------------------

def test_the_owner_hears_that_a_mail_which_proved_nothing_may_not_be_theirs(judge):
    judge.seven_players()
    r = said(judge.reply_to("france@dip.test", "SIGNON Falpha guessed\nA Par - Bur"))
    assert ("This mail came from your address, france@dip.test, but nothing in it proved it was you"
            " (no right password). Mail is easily sent in another's name: if you did not send it,"
            " someone else may have") in r
    assert "someone else may have" not in said(judge.reply_to("france@dip.test", "LIST"))
    assert "someone else may have" not in said(judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nFOO"))
    before = judge.last_outbox_row()
    judge.processor.archive.store(mail("france@dip.test", "LIST"), mail_from="mallory@elsewhere.test",
                                  rcpt_tos=["judge@dip.test"], via="smtp")
    judge.processor.process_next()
    [reply] = judge.outbox(after=before)
    assert "but its envelope sender was mallory@elsewhere.test" in said(reply)


def test_the_secret_reply_address_is_offered_for_orders_only_to_a_player_in_a_game(judge):
    offer = "to send more orders without the password"
    registered = judge.reply_to("new@dip.test", "REGISTER newbie pw1 Europe/Paris")
    assert offer not in said(registered) and "registered newbie" in said(registered)
    assert offer not in said(judge.reply_to("new@dip.test", "LIST"))
    judge.service.create_account("gm", "gm@dip.test", "gm-pw")
    judge.service.create_game("alpha", master="gm")
    assert offer in said(judge.reply_to("new@dip.test", "JOIN alpha pw1"))
    assert offer in said(judge.reply_to("gm@dip.test", "LIST"))             # the master of a game


# -- subjects and line numbers -------------------------------------------------------------------------

@pytest.mark.parametrize("subject, reply", json.loads((DATA / "subjects.json").read_text())["cases"])
def test_a_reply_subject_has_one_re(subject, reply):
    assert reply_subject(subject) == reply


def test_a_reply_by_mail_to_a_deep_thread_has_one_re(judge):
    assert judge.reply_to("ann@dip.test", "LIST", subject="Re: Re: RE: AW: orders").subject == "Re: orders"


def test_a_one_line_html_mail_has_its_error_on_line_1(judge):
    r = judge.reply_to("ann@dip.test", "<p>SIGNON Falpha</p>", html=True)
    assert "ERROR on line 1: SIGNON Falpha" in r.body
    r = judge.reply_to("ann@dip.test", "<div>LIST</div><div>HISTORY</div>", html=True)
    assert "ERROR on line 2: HISTORY" in r.body      # each div a line the writer typed, as on their screen


# -- no line wider than 77 columns -------------------------------------------------------------------------

def too_wide(text: str) -> list[str]:
    """Lines wider than 77 columns that could have been wrapped (a lone word longer than that cannot)."""
    return [line for line in text.splitlines() if len(line) > WIDTH and " " in line.strip()]


SESSION = json.loads((DATA / "session.json").read_text())


def test_every_reply_of_a_session_by_mail_fits_in_77_columns(judge):
    judge.seven_players()
    for name in ("ann", "bob"):
        judge.service.create_account(name, f"{name}@dip.test", f"{name}-pw", time_zone="America/Los_Angeles")
    sent = []
    for step in SESSION["mails"]:
        if step.get("advance_hours"):
            judge.clock.advance(hours=step["advance_hours"])
            judge.service.run_due()
            continue
        sent += judge.send(step["from"], step["body"], html=step.get("html", False))
    assert len(sent) >= len(SESSION["mails"]) - 3
    wide = [(s.subject, line) for s in sent for line in too_wide(s.subject + "\n" + s.body)]
    assert not wide, wide[:10]


def test_every_reply_template_fits_in_77_columns():
    reports = Reports()
    topics = [None, "orders", "commands", "press", "deadlines", "master", "settings", "nosuchtopic"]
    mails = [reports.render("reply_help.j2", topic=t, settings=HELP_SETTINGS) for t in topics]
    mails += [reports.render("reply_repeat.j2", earlier=12, subject=reply_subject("x" * 30 + " orders"))]
    for to_owner in (True, False):
        mails.append(reports.render("reply_alert.j2", game="a-rather-long-game-name", inbound_id=123456,
                                    to_owner=to_owner, text="wrong password for account ann (from a@b.test)"))
    mails.append(reports.render("reply_bounce.j2", game="alpha", power="Austria", account="ann",
                                address="ann@very-long-domain-name.example.org", inbound_id=99,
                                diagnostic="550 5.1.1 <ann@very-long-domain-name.example.org>: Recipient address"
                                           " rejected: User unknown in virtual mailbox table"))
    wide = [line for m in mails for line in too_wide(m.subject + "\n" + m.body)]
    assert not wide, wide[:10]


def test_the_set_aside_note_and_the_keepers_alert_fit_in_77_columns(judge):
    long_subject = "Re: Re: my orders for the spring of 1901, with a question about convoys and supports"
    archive = judge.processor.archive
    stored = archive.store(mail("ann@dip.test", "LIST", subject=long_subject), mail_from="ann@dip.test",
                           rcpt_tos=["judge@dip.test"], via="smtp")
    before = judge.last_outbox_row()
    error = "KeyError: 'a very long explanation of what went wrong inside the judge, " + "and more " * 12 + "'"
    said_ = set_aside(judge.config, archive.db, stored, 5, error)
    sent = judge.outbox(after=before)
    assert "keeper alerted" in said_ and len(sent) == 2
    assert [s.subject for s in sent if "ann@dip.test" in s.to] == [
        "Re: my orders for the spring of 1901, with a question about convoys and supports"]
    wide = [line for s in sent for line in too_wide(s.body)]
    assert not wide, wide
