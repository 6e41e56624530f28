"""One log line when a game is created, starts, plays a phase or ends (logger `judge.news`, which
`judge serve` shows without --verbose): a keeper or a newcomer sees the games move in the log."""
from __future__ import annotations

import logging

from judge.mail.outbound.courier import Courier
from mailjudge import POWERS, MailJudge


def test_a_game_made_started_and_played_is_told_once_each(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="judge.news")
    j = MailJudge(tmp_path)
    j.dispatch.courier = Courier(j.service, j.config)
    try:
        j.service.create_account("gm", "gm@dip.test", "gm-pw")
        j.send("gm@dip.test", "CREATE alpha gm-pw")
        for p in POWERS:
            j.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        for p in POWERS:
            j.send(f"{p.lower()}@dip.test", f"JOIN alpha {p.lower()}-pw {p}")
        j.send("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")
    finally:
        j.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "judge.news"]
    assert lines[0].startswith("game alpha created: standard, 5th rules, master gm")
    assert lines.count("game alpha started") == 1
    assert [line for line in lines if "played" in line] == ["game alpha played Spring 1901 Movement"]
