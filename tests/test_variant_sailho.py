"""Sail Ho!'s face-to-face press (DPjudge's FTF_PRESS, the game setting `ftf_press` its variant turns
on): press between players only in movement phases, and no private press once the deadline has
passed with a power late; a broadcast, and press to the master, still go. By mail in-process
(tests/mailjudge.py); the game itself is played by mail with the other maps (by_mail.json). Only in movement
phases: tests/test_games_press.py, with njudge's table rule."""
from __future__ import annotations

from mailjudge import MailJudge, deliver

GAME = "gsail"


def test_sail_ho_press_is_face_to_face_by_mail(tmp_path):
    judge = MailJudge(tmp_path)
    try:
        reply = judge.reply_to("gm@dip.test", f"REGISTER gm gm-Secret9\nCREATE {GAME} gm-Secret9 sailho PICTURES OFF")
        assert f"created {GAME}" in reply.body
        for power in ("north", "south", "east", "west"):
            reply = judge.reply_to(f"{power}@dip.test", f"REGISTER {power} {power}-Secret9\n"
                                                        f"JOIN {GAME} {power}-Secret9 {power.upper()}")
            assert f"joined {GAME}" in reply.body, reply.body
        status = judge.service.status(GAME)
        assert status.status == "active" and status.settings["ftf_press"]
        [start] = [m.body for m in deliver(judge) if "north@dip.test" in m.to and "Press" in m.body]
        assert "none in retreat and adjustment phases; no private press once a deadline has passed" in " ".join(
            start.split())

        def press(line: str) -> str:
            body = f"SIGNON N{GAME} north-Secret9\n{line}\nThe islands are ours to share.\nENDPRESS"
            return " ".join(judge.reply_to("north@dip.test", body).body.split())

        assert "press sent to South" in press("PRESS TO S")          # before the deadline: private press goes
        judge.clock.set(status.deadline["utc"])                        # the deadline passes, every power late
        refused = press("PRESS TO S")
        assert "face-to-face press: once the deadline has passed no private press goes" in refused, refused
        assert "press sent to everyone" in press("BROADCAST"), press("BROADCAST")
        assert "press sent to the master" in press("PRESS TO M")
        assert judge.service.status(GAME).phase == "S1901M"         # (still in the grace: nothing played)
    finally:
        judge.close()
