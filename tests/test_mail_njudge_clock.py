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

from judge.games.clock import parse_time
from mailjudge import MailJudge

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "njudge_dates.json").read_text())["cases"]
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
