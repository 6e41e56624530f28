"""An njudge master at home, through a real `judge serve` over SMTP: a game created and set up in
njudge's words (CREATE ... RULES 2000, SET CENTERS, SET NO PRESS, SET MOVE CLOCK, SET MOVE DAYS
-MTWTF-, ...), joined with njudge's SIGNON ?game and SET PREFERENCE, then run (SET DEADLINE, WHOGAME)
and asked about (WHOIS, VERSION, PHASE and its orders kept, I AM ALSO, a DIARY) as njudge's players do,
its press set up in njudge's words (SET OBSERVER, SET PARTIAL MAY BE FAKED, SET NO LATE PRESS, SET MUST ORDER);
njudge's words with nothing like them here refused with the nearest. Each row of the vocabulary one
by one: tests/test_mail_other_judges.py."""
from __future__ import annotations

import smtplib
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

from judge.games.service import GameService

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import rows, start_judge, stop


def asked(tmp_path, port: int, frm: str, body: str) -> str:
    """Send a mail and return its reply's text, its lines joined."""
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    message_id = raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()
    (found,) = wait_until(lambda: rows(tmp_path / "var" / "judge.sqlite", "SELECT raw FROM outbox_mail WHERE"
                                       " instr(raw, CAST(? AS BLOB)) > 0", [f"In-Reply-To: <{message_id}>"]),
                          what=f"the reply to {body.splitlines()[0]!r}")
    reply = message_from_bytes(found[0], policy=policy.default)
    return " ".join(reply.get_body(("plain",)).get_content().split())


def test_an_njudge_master_creates_sets_up_and_runs_a_game_in_njudges_words(tmp_path):
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    service.close_games()
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    try:
        created = asked(tmp_path, port, "gm@dip.test", "\n".join((
            "CREATE ?vet gm-pw standard RULES 2000", "SET CENTERS 17", "SET NO PRESS", "SET MOVE CLOCK 20:00",
            "SET MOVE DAYS -MTWTF-", "SET DIAS", "SET NMR", "SET MAX ABSENCE 5", "SET NO REVEAL",
            "SET COMMENT For veterans", "GET master")))
        assert "created vet; you are its master" in created and "settings: RULES 2000" in created, created
        for njudge, ours in (("SET CENTERS 17", "SET VICTORY 17"), ("SET NO PRESS", "SET PRESS NONE"),
                             ("SET DIAS", "SET DRAWRULE ALL"), ("SET NMR", "SET NMR CD"),
                             ("SET MAX ABSENCE 5", "SET MAXABSENCE 5"), ("GET master", "HELP MASTER"),
                             ("SET NO REVEAL", "SET REVEAL OFF")):
            assert f"read `{njudge}` as `{ours}`" in created, (njudge, created)
        assert "VICTORY of vet: 17" in created and "MOVE DAYS of vet: mon tue wed thu fri" in created, created
        assert "MOVE CLOCK of vet: 20:00" in created and "read `SET MOVE" not in created, created   # njudge's own
        assert "COMMENT of vet: For veterans" in created and "UNSTART before the first phase" in created, created
        assert "ERROR" not in created, created
        for p in POWERS:     # njudge's way into a forming game, and its preference list (Turkey's: the last seat)
            joined = asked(tmp_path, port, f"{p.lower()}@dip.test",
                           f"SIGNON ?vet {p.lower()}-pw\nSET PREFERENCE {p[0]}")
            assert "joined vet" in joined, joined
            assert p == "TURKEY" or f"your preferences in vet: {p.title()}" in joined, joined
        day = datetime.now(UTC) + timedelta(days=3)      # njudge's date form: the day alone, at the MOVE CLOCK
        ran = asked(tmp_path, port, "gm@dip.test", f"signon Mvet gm-pw\nset deadline {day:%a %b} {day.day}\n"
                                                   "set rules 1982\nwhogame vet\nversion\nset manual process\n"
                                                   "SET OBSERVER ANY PRESS\nSET PARTIAL MAY BE FAKED\n"
                                                   "SET NO LATE PRESS\nSET MUST ORDER")
        assert f"deadline of vet set to {day:%a %d %b %Y} 20:00 UTC (UTC), read in the game's zone, UTC; a date" \
               " alone is at the game's deadline hour, 20:00" in ran, ran
        assert "SET RULES: the rules cannot change once the game has started" in ran, ran
        assert "read `whogame vet` as `SUMMARY vet`" in ran and "vet: Standard (2000 rules), active" in ran, ran
        assert "VICTORY 17" in ran and "PRESS none" in ran and "MOVE CLOCK 20:00" in ran, ran
        assert "this judge is version" in ran and "comment: For veterans" in ran, ran
        assert "read `set manual process` as `SET MANUALPROCESS ON`" in ran and "MANUALPROCESS of vet: on" in ran
        assert "OBSERVERS of vet: any" in ran and "read `SET PARTIAL MAY BE FAKED` as `SET FAKE ON`" in ran, ran
        assert "LATEPRESS of vet: off" in ran and "MUSTORDER of vet: on" in ran, ran
        player = asked(tmp_path, port, "france@dip.test", "Hello judge,\nWHOIS gm\nINFO PLAYER england\n"
                       "SIGNON Fvet france-pw\nDIARY RECORD\nGermany first.\nENDDIARY\n"
                       "PHASE Fall 1901 Movement\nA Par - Pic\nI AM ALSO france@home.test\nWAIT ?")
        assert "gm's record:" in player and "read `INFO PLAYER england` as `WHOIS england`" in player, player
        assert "Orders for France in vet, kept for Fall 1901 Movement:" in player, player
        assert "read `I AM ALSO france@home.test` as `SET ADDRESS ALSO france@home.test`" in player, player
        assert "a code is mailed to france@home.test" in player and player.count("ERROR") == 1, player   # WAIT ?
        assert "greetings and the like): Hello judge," in player, player
        assert "diary entry 1 kept for France in vet: nobody else reads it until the game ends" in player, player
        assert "WAIT alone is no command here, and a question mark asks nothing of the judge" in player, player
    finally:
        stop(process)
