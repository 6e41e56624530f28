"""Deadlines on a daily grid (judge.games.deadlines): cases in tests/data/deadline_grid.json, the
auto clock, and a game whose phases keep to the grid."""
from __future__ import annotations

import json
from datetime import date, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from judge.games.clock import Absence, deadline_for, iso, parse_time
from judge.games.deadlines import auto_clock, parse_clock, parse_days
from judge.games.model import Settings

from test_games_helpers import seven_player_game, service

CASES = json.loads((Path(__file__).parent / "data" / "deadline_grid.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_deadline_on_the_grid(case):
    settings = Settings.from_json(case["settings"])
    absences = [Absence(parse_time(a), parse_time(b)) for a, b in case.get("absences", [])]
    assert iso(deadline_for(settings, case["kind"], parse_time(case["start"]), absences)) == case["deadline"]


def test_clock_and_days_have_one_spelling_and_refuse_nonsense():
    assert [parse_clock(t) for t in ("18:00", "1800", "18", "9.30")] == [time(18), time(18), time(18), time(9, 30)]
    assert parse_days(["Sunday", "mon", "MON", "Fri"]) == ("mon", "fri", "sun")
    for bad in ("25:00", "18:75", "six", ""):
        with pytest.raises(ValueError):
            parse_clock(bad)
    with pytest.raises(ValueError, match="not a day of the week"):
        parse_days(["someday"])
    assert Settings(deadline_clock="7").deadline_clock == "07:00"


def test_the_auto_clock_picks_the_hour_most_players_are_awake_and_says_who_it_suits():
    zones = {"ann": "Europe/London", "bert": "Europe/Berlin", "carla": "America/New_York",
             "dai": "Asia/Tokyo", "eve": "America/Los_Angeles", "fay": "Europe/Paris", "gus": "Australia/Sydney"}
    chosen = auto_clock("Europe/London", zones, date(2026, 6, 1))
    # 13:00 in London (summer time) is 08:00 in New York, 21:00 in Tokyo and 22:00 in Sydney; only
    # Los Angeles (05:00) is asleep. An hour earlier New York is; an hour later Sydney is.
    assert (chosen.clock, chosen.not_suited) == (time(13), ("eve",))
    assert len(chosen.suits) == max(sum(_awake(h, z) for z in zones.values()) for h in range(24)) == 6
    europe = auto_clock("Europe/Berlin", {"a": "Europe/Berlin", "b": "Europe/Lisbon"}, date(2026, 6, 1))
    assert europe.clock == time(18) and europe.not_suited == ()


def _awake(hour: int, zone: str) -> bool:
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo
    instant = datetime(2026, 6, 1, hour, tzinfo=ZoneInfo("Europe/London")).astimezone(timezone.utc)
    local = instant.astimezone(ZoneInfo(zone)).time()
    return time(8) <= local <= time(22)


def test_a_game_on_a_grid_keeps_its_deadlines_at_the_clock_through_early_and_late_phases(tmp_path):
    svc, clock = service(tmp_path, start="2026-03-02T09:13:00Z")
    seven_player_game(svc, settings={"time_zone": "Europe/Berlin", "deadline_clock": "20:00",
                                     "movement_hours": 48, "retreat_hours": 24, "adjustment_hours": 24})
    seen = []
    for _ in range(6):
        status = svc.status("alpha")
        seen.append((status.phase, parse_time(status.deadline["utc"])))
        clock.advance(hours=7)            # played at an odd hour, long before the deadline
        svc.process("alpha")
    assert len({phase for phase, _ in seen}) == 6
    local = [d.astimezone(ZoneInfo("Europe/Berlin")) for _, d in seen]
    assert {d.strftime("%H:%M") for d in local} == {"20:00"}, [iso(d) for _, d in seen]
    assert local[0].strftime("%a %d %b") == "Wed 04 Mar"      # started Monday 10:13: 48 hours on, at 20:00
