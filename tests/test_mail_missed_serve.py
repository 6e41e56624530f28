"""A missed movement deadline through a real `judge serve`, the hobby's reading and the rulebooks' side
by side on the same position (issue 24): Germany sends nothing in Fall 1901 while Austria and France
dislodge her army in Munich. In the game played as the hobby plays (the default), Germany still gets
her retreat and sends it by mail; in the game played by the book (`missed_orders` BOOK), the army is
disbanded and the game goes straight on to the adjustments."""
from judge.games.model import MissedOrders, Settings
from judge.games.service import GameService

from mailjudge import POWERS
from servers.net import wait_until
from servers.serve import start_judge, stop
from servers.served_mail import answer_to, send, text
from test_games_helpers import orders

SPRING = {"AUSTRIA": ["A VIE - BOH"], "FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN H", "A BER H", "F KIE H"]}
FALL = {"AUSTRIA": ["A BOH - MUN"], "FRANCE": ["A BUR S A BOH - MUN"]}     # Germany sends nothing


def test_a_power_that_missed_a_move_retreats_by_mail_as_the_hobby_plays_and_not_by_the_book(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    # a movement phase of three seconds: the fall's deadline passes while the test waits
    quick = dict(grace_hours=0, movement_hours=3 / 3600, pictures=False)
    games = {"hob": Settings(**quick), "bok": Settings(**quick, missed_orders=MissedOrders.BOOK)}
    for name, settings in games.items():
        service.create_game(name, master="gm", settings=settings)
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        for name in games:
            for p in POWERS:
                service.join(name, p.lower(), [p])
            for p in POWERS:       # every power in: the spring is played at once
                service.submit_orders(name, p, orders(*SPRING.get(p, [])), account=p.lower())
        for name in games:
            wait_until(lambda name=name: service.status(name).phase == "F1901M", what=f"{name}'s spring to be played")
            for p, lines in FALL.items():
                service.submit_orders(name, p, orders(*lines), account=p.lower())
        for name in games:
            wait_until(lambda name=name: service.status(name).phase not in ("F1901M", None), what=f"{name}'s fall")

        book = service.status("bok")
        assert book.phase == "W1901A" and "A MUN" not in book.position["units"]["GERMANY"]
        assert "A MUN" in book.position["units"]["AUSTRIA"]

        hobby = service.status("hob")
        assert hobby.phase == "F1901R" and hobby.powers["GERMANY"].status == "civil disorder"
        sent = send(port, "germany@dip.test", "signon Ghob germany-pw\nA Mun R Ruh")
        assert "Germany is in" in text(answer_to(tmp_path, sent))
        wait_until(lambda: service.status("hob").phase == "W1901A", what="the retreat to be played")
        after = service.status("hob")
        assert "A RUH" in after.position["units"]["GERMANY"] and "A MUN" in after.position["units"]["AUSTRIA"]
    finally:
        stop(process)
