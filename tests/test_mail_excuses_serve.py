"""An excused miss through a real `judge serve`: France sends nothing by a deadline while her seat has
an excuse left; the judge mails her personally (with the calendar update), tells Germany only that
the deadline moved, moves it, and the phase is then played with the orders France sends."""
from judge.games.clock import parse_time
from judge.games.model import Settings
from judge.games.service import GameService

from mailjudge import POWERS
from servers.net import wait_until
from servers.serve import start_judge, stop
from servers.served_mail import answer_to, queued, send, text
from test_games_helpers import orders

GAME = "beta"
# every unit of the others ordered: they are in, so France alone holds the phase back
HOLDS = {"AUSTRIA": ["A VIE H", "A BUD H", "F TRI H"], "ENGLAND": ["F LON H", "F EDI H", "A LVP H"],
         "GERMANY": ["A BER H", "A MUN H", "F KIE H"], "ITALY": ["A ROM H", "A VEN H", "F NAP H"],
         "RUSSIA": ["A MOS H", "A WAR H", "F SEV H", "F STP/SC H"], "TURKEY": ["A CON H", "A SMY H", "F ANK H"]}


def calendar(message) -> str:
    [ics] = [p for p in message.iter_attachments() if p.get_content_type() == "text/calendar"]
    return ics.get_content()


def test_a_missed_deadline_with_an_excuse_left_moves_and_the_phase_is_played_with_the_late_orders(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    # a spring of four seconds, so its deadline passes while the test waits
    service.create_game(GAME, master="gm", settings=Settings(grace_hours=0, movement_hours=4 / 3600, excuses=1,
                                                             excuse_hours=1, pictures=False))
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        for p in POWERS:
            service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
            service.join(GAME, p.lower(), [p])
        first = parse_time(service.status(GAME).deadline["utc"])
        for p, lines in HOLDS.items():
            service.submit_orders(GAME, p, orders(*lines), account=p.lower())
        mine = queued(tmp_path, "france@dip.test", f"{GAME}: you missed Spring 1901 Movement; an excuse is spent")
        told = queued(tmp_path, "germany@dip.test", f"{GAME}: the deadline for Spring 1901 Movement has moved")
        status = service.status(GAME)
        assert status.phase == "S1901M" and status.powers["FRANCE"].excuses_used == 1
        moved = parse_time(status.deadline["utc"])
        assert (moved - first).total_seconds() >= 3600
        assert "one of your 1 excuse is spent" in text(mine) and "You have none left" in text(mine)
        assert "France was excused" in text(told) and "excuse is spent" not in text(told)
        stamp = moved.strftime("%Y%m%dT%H%M%SZ")
        assert stamp in calendar(mine) and stamp in calendar(told)
        # France answers at once: every power is in, and the phase is played with her orders
        sent = send(port, "france@dip.test", f"signon F{GAME} france-pw\nA Par - Bur\nA Mar H\nF Bre - Mao")
        answer = answer_to(tmp_path, sent)
        assert "France is in" in text(answer), text(answer)
        wait_until(lambda: service.status(GAME).phase != "S1901M", what="spring to be played")
        after = service.status(GAME)
        assert {"A BUR", "F MAO", "A MAR"} <= set(after.position["units"]["FRANCE"])
        assert after.powers["FRANCE"].status == "active"
        results = queued(tmp_path, "germany@dip.test", f"{GAME}: Spring 1901 Movement results")
        assert "Burgundy" in text(results) and "Mid-Atlantic Ocean" in text(results)
    finally:
        stop(process)
