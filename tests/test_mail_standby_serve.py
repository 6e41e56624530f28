"""The standby list through a real `judge serve`: a standby registers and goes on the list by mail
(STANDBY); Italy's player resigns; the tick mails the standby the offer; the standby takes Italy by
TAKE, gets the hand-over mail and then orders for Italy, and the reply says Italy is in."""
from judge.games.model import Settings
from judge.games.service import GameService

from mailjudge import POWERS
from servers.serve import start_judge, stop
from servers.served_mail import answer_to, queued, send, text

GAME = "beta"


def test_a_standby_takes_the_offered_power_by_mail_and_orders_for_it(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game(GAME, master="gm", settings=Settings(pictures=False))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join(GAME, p.lower(), [p])
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        listed = send(port, "sam@dip.test", "REGISTER sam sam-pw\nSTANDBY standard")
        assert "on the standby list for these variants: standard" in text(answer_to(tmp_path, listed))
        send(port, "italy@dip.test", f"SIGNON I{GAME} italy-pw\nRESIGN")
        offer = queued(tmp_path, "sam@dip.test", f"{GAME}: Italy needs a player")
        assert f"TAKE {GAME} Italy password" in text(offer)
        joined = send(port, "sam@dip.test", f"TAKE {GAME} Italy sam-pw")
        assert f"you now play Italy in {GAME}" in text(answer_to(tmp_path, joined))
        handover = queued(tmp_path, "sam@dip.test", f"{GAME}: sam now plays Italy")
        assert "Your units:" in text(handover) and "Rome" in text(handover)
        ordered = send(port, "sam@dip.test", f"SIGNON I{GAME} sam-pw\nA Rom - Apu\nA Ven H\nF Nap - Ion")
        assert "Italy is in" in text(answer_to(tmp_path, ordered))
        assert service.status(GAME).powers["ITALY"].account == "sam"
    finally:
        stop(process)
