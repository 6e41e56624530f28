"""Deadlines over weeks: time zones, grace, reminders, waiting, absences, and the NMR policies."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.games.clock import Absence, ManualClock, deadline_for, parse_time, reminder_times, shown
from judge.games.model import Settings
from judge.games.service import GameError
from test_games_helpers import seven_player_game, service, submit, whole


def deadline(svc, game):
    return parse_time(svc.status(game).deadline["utc"])


def test_times_are_shown_in_each_zone_with_summer_time():
    winter = shown("2026-01-15T18:00:00Z", ["UTC", "America/New_York", "Asia/Kolkata"])
    assert winter == {"UTC": "Thu 15 Jan 2026 18:00 UTC", "America/New_York": "Thu 15 Jan 2026 13:00 EST",
                      "Asia/Kolkata": "Thu 15 Jan 2026 23:30 IST"}
    summer = shown("2026-07-15T18:00:00Z", ["America/New_York", "Europe/Berlin"])
    assert summer == {"America/New_York": "Wed 15 Jul 2026 14:00 EDT", "Europe/Berlin": "Wed 15 Jul 2026 20:00 CEST"}
    assert parse_time("2026-03-29 02:30", "Europe/London") == parse_time("2026-03-29T02:30:00+01:00")


def test_phase_lengths_reminders_and_absences_arithmetic():
    s = Settings(movement_hours=48, retreat_hours=12, reminder_hours=(24, 4), after_absence_hours=24)
    start = parse_time("2026-05-01T12:00:00Z")
    assert deadline_for(s, "M", start) == start + timedelta(hours=48)
    assert deadline_for(s, "R", start) == start + timedelta(hours=12)
    # a reminder that would fall before the phase began is not sent
    assert [h for h, _ in reminder_times(s, start + timedelta(hours=12), start)] == [4.0]
    away = Absence(start + timedelta(hours=40), start + timedelta(hours=100))
    chained = Absence(start + timedelta(hours=110), start + timedelta(hours=130))
    assert deadline_for(s, "M", start, [away]) == start + timedelta(hours=124)
    assert deadline_for(s, "M", start, [away, chained]) == start + timedelta(hours=154)


def test_reminders_go_only_to_powers_that_still_owe_orders(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "rem", settings=Settings(reminder_hours=(24, 4)))
    for p in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        unit = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "GERMANY": "A BER", "ITALY": "A ROM",
                "RUSSIA": "A MOS", "TURKEY": "A CON"}[p]
        submit(svc, "rem", p, *whole(svc, "rem", p, f"{unit} H"))
    clock.set(deadline(svc, "rem") - timedelta(hours=24))
    assert svc.run_due() == {"rem": "reminded"}
    assert svc.run_due() == {}  # once only
    clock.set(deadline(svc, "rem") - timedelta(hours=4))
    assert svc.run_due() == {"rem": "reminded"}
    reminders = [n for n in svc.pending_notices("rem") if n.kind == "reminder"]
    assert sorted((n.recipient, n.payload["hours_left"]) for n in reminders) == [
        ("gm", 4.0), ("gm", 24.0), ("p-france", 4.0), ("p-france", 24.0)]
    assert reminders[0].payload["yours"] == ["FRANCE"]
    assert set(reminders[0].payload["deadline"]["shown"]) == {"UTC", "Europe/Berlin"}
    submit(svc, "rem", "FRANCE", "A PAR H")
    assert svc.run_due() == {}  # France is not in: two of its units have no orders
    submit(svc, "rem", "FRANCE", *whole(svc, "rem", "FRANCE", "A PAR H"))
    assert svc.run_due() == {"rem": "processed"}


def test_grace_period_then_civil_disorder_or_waiting(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "cd", settings=Settings(grace_hours=6))
    seven_player_game(svc, "wait", settings=Settings(grace_hours=6, nmr_policy="wait"))
    clock.set(deadline(svc, "cd"))
    assert svc.run_due() == {"cd": "late", "wait": "late"}
    clock.advance(hours=5, minutes=59)
    assert svc.run_due() == {}
    clock.advance(minutes=1)
    assert svc.run_due() == {"cd": "processed"}
    clock.advance(days=20)
    assert "wait" not in svc.run_due() and svc.status("wait").phase == "S1901M"
    assert svc.process("wait") == "processed"  # the master forces it
    assert svc.history("wait")[0].civil_disorder != ()


def test_a_late_power_that_orders_in_the_grace_period_is_not_in_civil_disorder(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "late")
    clock.set(deadline(svc, "late"))
    svc.run_due()
    assert svc.status("late").powers["ITALY"].status == "late"
    submit(svc, "late", "ITALY", "A ROM H")
    clock.advance(hours=12)
    svc.run_due()
    assert "ITALY" not in svc.history("late")[0].civil_disorder
    assert svc.status("late").powers["ITALY"].status == "active"


def test_absences_move_the_deadline_within_limits(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "abs", settings=Settings(max_absence_days=7, after_absence_hours=24))
    before = deadline(svc, "abs")
    start, end = clock() + timedelta(days=1), clock() + timedelta(days=5)
    with pytest.raises(GameError):
        svc.add_absence("abs", "p-italy", start, clock() + timedelta(days=10))  # too long for a player
    with pytest.raises(GameError):
        svc.add_absence("abs", "p-italy", end, start)
    out = svc.add_absence("abs", "p-italy", start, end)
    assert out.deadline_moved and deadline(svc, "abs") == end + timedelta(hours=24) > before
    moved = [n for n in svc.pending_notices("abs") if n.kind == "deadline_moved"]
    assert {n.recipient for n in moved} >= {"p-italy", "p-france", "gm", None}
    # the master may set a longer one, and the next phase's deadline avoids it too
    svc.add_absence("abs", "p-france", end + timedelta(days=3), end + timedelta(days=20), by_master=True)
    assert deadline(svc, "abs") == end + timedelta(hours=24)
    clock.set(end + timedelta(hours=36))
    assert svc.run_due() == {"abs": "processed"}
    assert deadline(svc, "abs") == end + timedelta(days=21)


def test_waiting_holds_back_early_processing(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "hold")
    units = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "FRANCE": "A PAR", "GERMANY": "A BER", "ITALY": "A ROM",
             "RUSSIA": "A MOS", "TURKEY": "A CON"}
    svc.set_wait("hold", "TURKEY", True, account="p-turkey")
    for p, u in units.items():
        submit(svc, "hold", p, f"{u} H")
    assert svc.run_due() == {}
    clock.set(deadline(svc, "hold"))
    assert svc.run_due() == {}  # everybody ordered, so nobody is late
    clock.advance(hours=12)
    assert svc.run_due() == {"hold": "processed"}  # waiting does not stop the deadline
    assert svc.history("hold")[0].civil_disorder == ()
    assert svc.status("hold").powers["TURKEY"].waiting is False


def test_manual_clock_moves_only_when_told():
    c = ManualClock("2026-01-01T00:00:00Z")
    assert c() == c() == parse_time("2026-01-01T00:00:00Z")
    c.advance(hours=1)
    assert c() == parse_time("2026-01-01T01:00:00Z")


def test_under_the_wait_policy_a_waiting_power_does_not_hold_back_the_deadline(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "w2", settings=Settings(nmr_policy="wait"))
    units = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "FRANCE": "A PAR", "GERMANY": "A BER", "ITALY": "A ROM",
             "RUSSIA": "A MOS", "TURKEY": "A CON"}
    svc.set_wait("w2", "ITALY", True, account="p-italy")
    for p, u in units.items():
        submit(svc, "w2", p, f"{u} H")
    assert svc.run_due() == {}
    clock.set(deadline(svc, "w2") + timedelta(hours=12))
    assert svc.run_due() == {"w2": "processed"}
