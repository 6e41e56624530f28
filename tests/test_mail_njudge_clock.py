"""njudge's clock by mail: SET DEADLINE in njudge's date forms (tests/data/mail/njudge_dates.json),
the per-phase clocks (SET MOVE|RETREAT|ADJUST CLOCK|DAYS|NEXT|GRACE, grace until a date), and a
pause that only stops the clock: RESUME lands on the game's hour and weekdays, and players may
send orders and press meanwhile. One in-process judge for the module, one game on it."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from judge.games.clock import iso, parse_time, processing_time
from judge.games.model import Settings
from mailjudge import MailJudge
from test_games_helpers import service, seven_player_game

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "mail" / "njudge_dates.json").read_text())["cases"]
GRACE = json.loads((DATA / "phase_grace.json").read_text())["cases"]
MASTER = "SIGNON Malpha gm-secret\n"


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    j = MailJudge(tmp_path_factory.mktemp("njclock"))
    j.seven_players()
    yield j
    j.close()


def said(reply) -> str:
    return " ".join(reply.body.split())


def deadline(judge) -> datetime:
    return parse_time(judge.service.status("alpha").deadline["utc"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['said']}@{c['now'][:10]}")
def test_set_deadline_reads_njudges_dates_in_the_games_zone(judge, case):
    judge.service.set_settings("alpha", time_zone=case["zone"], deadline_clock=case["clock"],
                               movement_clock=case.get("move_clock"))
    now = judge.clock.set(case["now"])
    before = parse_time(case["before"]) if "before" in case else now + timedelta(days=1)
    judge.service.move_deadline("alpha", before)
    text = said(judge.reply_to("gm@dip.test", MASTER + f"SET DEADLINE {case['said']}"))
    if "refused" in case:
        assert f"cannot use {case['said']!r} as a deadline: {case['refused']}" in text, text
        assert f"read in the game's zone, {case['zone']}" in text, text      # the fix names the zone
        assert deadline(judge) == before
        return
    local = deadline(judge).astimezone(ZoneInfo(case["zone"]))
    assert local.strftime("%Y-%m-%d %H:%M") == case["deadline"], text
    assert f"read in the game's zone, {case['zone']}" in text, text
    hour = f"a date alone is at the game's deadline hour, {local:%H:%M}"
    assert (hour in text) == case["implied"], text


@pytest.mark.parametrize("case", GRACE, ids=lambda c: f"{c['kind']}-{'-'.join(map(str, c['settings'].values()))}")
def test_grace_is_the_phase_kinds_own_or_the_games_or_until_the_masters_date(case):
    settings = Settings.from_json(case["settings"])
    assert iso(processing_time(settings, parse_time(case["deadline"]), case["kind"])) == case["played"]


def test_per_phase_clocks_by_mail_show_in_summary_and_a_grace_date_is_read_in_the_games_zone(judge):
    judge.clock.set("2026-11-27T07:00:00Z")
    judge.service.set_settings("alpha", time_zone="Europe/Paris", deadline_clock="20:00", movement_clock=None)
    text = said(judge.reply_to("gm@dip.test", MASTER + "SET MOVE CLOCK 23:00\nSET RETREAT DAYS -MTWTF-\n"
                                                       "SET ADJUST GRACE 6\nSET GRACE Dec 12\nSUMMARY alpha"))
    assert "MOVE CLOCK of alpha: 23:00 (was game's)" in text, text
    assert "RETREAT DAYS of alpha: mon tue wed thu fri (was game's)" in text, text
    assert "ADJUST GRACE of alpha: 6 (was game's)" in text, text
    assert "GRACE UNTIL of alpha: 2026-12-12 22:00 UTC (was none)" in text, text   # the movement clock, in Paris
    assert "MOVE CLOCK 23:00; RETREAT DAYS mon tue wed thu fri; ADJUST GRACE 6" in text, text
    assert "RETREAT CLOCK" not in text and "MOVE DAYS" not in text, text            # unset: the game's
    text = said(judge.reply_to("gm@dip.test", MASTER + "SET MOVE CLOCK game\nSET GRACE UNTIL none\nSET GRACE Nov 2"))
    assert "MOVE CLOCK of alpha: game's (was 23:00)" in text and "GRACE UNTIL of alpha: none" in text, text
    assert "SET GRACE UNTIL: Mon Nov 2 2026 20:00 (Europe/Paris) is already past" in text, text


def test_a_pause_only_stops_the_clock_and_resume_keeps_the_games_hour_and_weekdays(judge):
    judge.clock.set("2026-11-30T09:00:00Z")                              # a Monday
    judge.service.set_settings("alpha", time_zone="Europe/Paris", deadline_clock="18:00",
                               deadline_days=("tue", "thu", "sat"), movement_clock=None, grace_until=None)
    judge.service.move_deadline("alpha", parse_time("2026-12-01T17:00:00Z"))   # Tuesday 18:00 in Paris
    assert "players may still send orders and press" in said(judge.reply_to("gm@dip.test", MASTER + "PAUSE"))
    text = said(judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nA Par - Bur\nPRESS TO Germany\n"
                                                  "Burgundy is mine\nENDPRESS"))
    assert "A Par - Bur read as: Army Paris -> Burgundy" in text and "press sent to Germany" in text, text
    assert "the clock is stopped: the game is paused until the master's RESUME" in text, text
    assert judge.service.status("alpha").status == "paused"
    judge.clock.advance(days=1)
    text = said(judge.reply_to("gm@dip.test", MASTER + "RESUME"))
    # Tuesday 18:00 and a day's pause: Wednesday is no deadline day here, so Thursday 18:00
    assert "alpha resumed; the deadline is Thu 03 Dec 2026 18:00 CET (Europe/Paris)" in text, text
    orders = judge.service.confirmation("alpha", "FRANCE").orders
    assert [o["written"] for o in orders] == ["A Par - Bur"]


def test_set_start_holds_every_phase_until_its_date_and_the_deadline_falls_no_sooner(judge):
    judge.clock.set("2026-12-07T09:00:00Z")                              # a Monday
    judge.service.set_settings("alpha", time_zone="Europe/Paris", deadline_clock="18:00", deadline_days=(),
                               movement_clock=None, grace_until=None, grace_hours=0)
    judge.service.move_deadline("alpha", parse_time("2026-12-08T17:00:00Z"))
    text = said(judge.reply_to("gm@dip.test", MASTER + "SET START Dec 10"))
    assert "START of alpha: 2026-12-10 17:00 UTC (was none)" in text, text           # 18:00 in Paris
    # CREATE reads a date in the new game's zone, at its clock (none here: the hour it is now there)
    text = said(judge.reply_to("gm@dip.test", "CREATE other gm-secret GAMEZONE Asia/Tokyo START Dec 10\n"
                                              "CREATE another gm-secret START Dec 1"))
    assert "created other" in text and judge.service.status("other").settings["earliest"] == "2026-12-10T09:00:00Z"
    assert "created another" in text and "START was not set: Tue Dec 1 2026 09:00 (UTC) is already past" in text
    judge.clock.set("2026-12-09T09:00:00Z")                              # the deadline (no grace) has passed
    assert "alpha" not in judge.service.run_due() and judge.service.wake("alpha") == "nothing"
    assert judge.service.status("alpha").phase == "S1901M"              # held: nothing played before Dec 10
    judge.clock.set("2026-12-10T17:00:00Z")
    assert judge.service.run_due().get("alpha") not in (None, "nothing")
    assert judge.service.status("alpha").phase != "S1901M"


def test_grey_press_refused_for_another_reason_is_not_told_to_drop_grey(judge):
    judge.service.set_settings("alpha", press="none")
    text = said(judge.reply_to("germany@dip.test", "SIGNON Galpha germany-pw\npress grey to france\nhello\nendpress"))
    assert "alpha has no press between players" in text and "the press was not sent" in text, text
    assert "without GREY" not in text, text
    judge.service.set_settings("alpha", press="white")
    text = said(judge.reply_to("germany@dip.test", "SIGNON Galpha germany-pw\npress grey to france\nhello\nendpress"))
    assert "white press: messages are signed" in text and "without GREY" in text, text


def test_a_game_starting_before_its_start_date_has_its_first_deadline_no_sooner(tmp_path):
    svc, clock = service(tmp_path, start="2026-03-02T12:00:00Z")
    seven_player_game(svc, "early", settings=Settings(time_zone="Europe/Paris", deadline_clock="20:00",
                                                      earliest="2026-03-10T08:00:00Z"))
    # 48 hours would be Wednesday 4 March; held until Tuesday 10 March 09:00 in Paris, then the 20:00 clock
    assert svc.status("early").deadline["utc"] == "2026-03-10T19:00:00Z"
