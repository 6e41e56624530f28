"""One whole game set up and played entirely by mail through a running `judge serve` (issue 14):
private (an ALLOW list), anonymous, grey press, deadlines at a fixed local time on set weekdays in a
zone whose daylight-saving time changes within the game, a co-master who plays the phases, and an
end by concession, with what each player received checked mail by mail.

`judge serve` runs on the real clock (it has no fake one), so the game's schedule is what spans the
change of time: its movement phases last until after the zone's next DST change, its adjustment
phase falls before it, and every deadline must still be 20:00 local time on an allowed weekday.
The phases themselves are played at once by the co-master's PROCESS.
"""
from __future__ import annotations

import json
import math
import smtplib
import sqlite3
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

from mailjudge import mail
from servers.net import wait_until
from servers.serve import start_judge, stop

PLAYERS = {"AUSTRIA": "zanzibar", "ENGLAND": "quixote", "FRANCE": "yodeller", "GERMANY": "wobbegong",
           "ITALY": "vortexia", "RUSSIA": "umlautz", "TURKEY": "tundrak"}
HOLD = {"AUSTRIA": "A Vie H", "ENGLAND": "F Lon H", "GERMANY": "A Ber H", "ITALY": "A Rom H",
        "RUSSIA": "A Mos H", "TURKEY": "A Con H"}
ZONES = ("Europe/Paris", "America/New_York", "Australia/Sydney", "America/Santiago", "Pacific/Auckland")
DAYS = ("mon", "wed", "fri", "sat")


def next_change(zone: str, now: datetime) -> datetime:
    """The first hour after `now` at which the zone's UTC offset differs from now's."""
    tz, offset = ZoneInfo(zone), now.astimezone(ZoneInfo(zone)).utcoffset()
    when = now.replace(minute=0, second=0, microsecond=0)
    while when.astimezone(tz).utcoffset() == offset:
        when += timedelta(hours=1)
    return when


class Judge:
    """The running judge, its SMTP port, and its outbox read from judge.sqlite."""

    def __init__(self, tmp_path, port: int) -> None:
        self.db, self.port = tmp_path / "var" / "judge.sqlite", port

    def send(self, frm: str, body: str) -> str:
        raw = mail(frm, body)
        with smtplib.SMTP("127.0.0.1", self.port) as smtp:
            smtp.sendmail(frm, ["judge@dip.test"], raw)
        return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()

    def outbox(self) -> list[tuple[list[str], object]]:
        with sqlite3.connect(self.db) as conn:
            rows = conn.execute("SELECT recipients, raw FROM outbox ORDER BY created_at, rowid").fetchall()
        return [(json.loads(r), message_from_bytes(raw, policy=policy.default)) for r, raw in rows]

    def ask(self, frm: str, body: str) -> str:
        """Send a mail and wait for the judge's answer to it: its text with the lines joined."""
        mid = self.send(frm, body)
        found = wait_until(lambda: [m for _, m in self.outbox() if m["In-Reply-To"] == f"<{mid}>"], limit=180,
                           what=f"the answer to {body.splitlines()[0]!r}")
        return " ".join(found[0].get_body(("plain",)).get_content().split())

    def mails_to(self, address: str) -> list:
        return [m for to, m in self.outbox() if address in to]


def text(m) -> str:
    return " ".join(m.get_body(("plain",)).get_content().split())


def phases(tmp_path) -> list[tuple[str, datetime]]:
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        rows = game.execute("SELECT phase, deadline FROM phases WHERE rolled_back = 0 ORDER BY seq").fetchall()
    return [(p, datetime.fromisoformat(d.replace("Z", "+00:00"))) for p, d in rows]


def test_a_private_anonymous_grey_press_game_with_a_co_master_by_mail_to_its_end(tmp_path):
    now = datetime.now(timezone.utc)
    # the zone whose clocks change soonest, but not before the short phases' deadlines (up to 4 days)
    zone = min((z for z in ZONES if next_change(z, now) - now > timedelta(days=6)), key=lambda z: next_change(z, now))
    change = next_change(zone, now)
    movement = math.ceil((change - now).total_seconds() / 3600) + 72    # movement deadlines after the change
    process, port = start_judge(tmp_path, JUDGE_TICK_SECONDS="0.2")
    j = Judge(tmp_path, port)
    try:
        # -- set up, by mail only ------------------------------------------------------------------
        r = j.ask("gm@dip.test", f"REGISTER gm gm-pw Europe/London\nCREATE alpha gm-pw\nSET ANONYMOUS ON\n"
                                 f"SET PRESS GREY\nSET PICTURES OFF\nSET GAMEZONE {zone}\nSET CLOCK 20:00\n"
                                 f"SET DAYS {' '.join(DAYS)}\nSET MOVEMENT {movement}\nSET ADJUSTMENT 24\n"
                                 "SET RETREAT 24")
        assert "created alpha" in r and "ANONYMOUS of alpha: on" in r and "PRESS of alpha: grey" in r
        assert f"GAMEZONE of alpha: {zone}" in r and "CLOCK of alpha: 20:00" in r
        for name in [*PLAYERS.values(), "cm", "stranger"]:
            assert "registered" in j.ask(f"{name}@dip.test", f"REGISTER {name} {name}-pw")
        r = j.ask("gm@dip.test", f"SIGNON Malpha gm-pw\nALLOW {' '.join(PLAYERS.values())}\nPROMOTE cm")
        assert "alpha is private: only those invited may join" in r and "cm is now a co-master of alpha" in r
        r = j.ask("stranger@dip.test", "JOIN alpha stranger-pw")
        assert "alpha is private: only players its game master invites may join" in r
        for power, name in PLAYERS.items():
            r = j.ask(f"{name}@dip.test", f"JOIN alpha {name}-pw {power[0]}")
            assert "joined alpha" in r
        wait_until(lambda: len([m for to, m in j.outbox() if "has started" in m["Subject"]]) == 9,
                   what="the start mails to seven players and two masters")

        # -- play: grey press, orders, the co-master processing each phase -------------------------
        r = j.ask("yodeller@dip.test", "SIGNON Falpha yodeller-pw\nPRESS GREY TO England\nWatch Belgium.\n"
                                       "ENDPRESS\nA Mar - Spa")
        assert "grey press sent to England" in r
        for phase, france in (("S1901M", "A Mar - Spa"), ("F1901M", "A Spa H")):
            for power, name in PLAYERS.items():
                order = france if power == "FRANCE" else HOLD[power]
                j.ask(f"{name}@dip.test", f"SIGNON {power[0]}alpha {name}-pw\n{order}")
            assert f"alpha {phase}:" in j.ask("cm@dip.test", f"SIGNON Malpha cm-pw\nPROCESS {phase}")
        r = j.ask("yodeller@dip.test", "SIGNON Falpha yodeller-pw\nBuild A Mar")
        # the only adjustment owed: the phase is played as soon as it is in, no PROCESS needed
        wait_until(lambda: phases(tmp_path)[-1][0] == "S1902M", limit=180, what="the winter to be played")

        # -- the end: every other player concedes to France ----------------------------------------
        others = [p for p in PLAYERS if p != "FRANCE"]
        for power in others[:-1]:
            r = j.ask(f"{PLAYERS[power]}@dip.test", f"SIGNON {power[0]}alpha {PLAYERS[power]}-pw\nCONCEDE France")
            assert "you concede alpha to France" in r
        last = others[-1]
        r = j.ask(f"{PLAYERS[last]}@dip.test", f"SIGNON {last[0]}alpha {PLAYERS[last]}-pw\nCONCEDE France")
        assert "France wins and the game is over" in r
        wait_until(lambda: len([m for _, m in j.outbox() if "is over" in m["Subject"]]) >= 9,
                   what="the end of the game told to every player and both masters")
    finally:
        stop(process)

    # -- the deadlines: 20:00 in the game's zone on an allowed day, on both sides of the change ------
    schedule = phases(tmp_path)
    assert [p for p, _ in schedule] == ["S1901M", "F1901M", "W1901A", "S1902M"]
    tz = ZoneInfo(zone)
    for phase, deadline in schedule:
        local = deadline.astimezone(tz)
        assert local.strftime("%H:%M") == "20:00", (phase, local)
        assert local.strftime("%a").lower() in DAYS, (phase, local)
    offsets = {phase: deadline.astimezone(tz).utcoffset() for phase, deadline in schedule}
    assert schedule[0][1] > change > dict(schedule)["W1901A"]
    assert offsets["S1901M"] != offsets["W1901A"], "the game's deadlines span the zone's change of time"

    # -- what each player received -------------------------------------------------------------------
    names = set(PLAYERS.values())
    for power, name in PLAYERS.items():
        got = j.mails_to(f"{name}@dip.test")
        subjects = [m["Subject"] for m in got]
        start = [m for m in got if "has started" in m["Subject"]]
        assert len(start) == 1 and power.title() in start[0]["Subject"]
        assert "20:00" in text(start[0]) and zone in text(start[0])
        for phase in ("Spring 1901", "Fall 1901", "Winter 1901"):
            assert sum(phase in s and "results" in s for s in subjects) == 1, (name, phase, subjects)
        end = [m for m in got if "is over" in m["Subject"]]
        assert len(end) == 1 and "France wins" in end[0]["Subject"]
        assert all(n in text(end[0]) for n in names)            # the end reveals who played what
        for m in got:
            if m is end[0]:
                continue
            raw = m.as_string().lower()
            leaked = [n for n in names - {name} if n in raw]
            assert not leaked, (name, m["Subject"], leaked)      # anonymous until the end
        asked = [m for m in got if "a concession to France" in m["Subject"]]
        assert bool(asked) == (power != "FRANCE" and power != others[0])
    grey = [m for m in j.mails_to("quixote@dip.test") if "press from anonymous" in m["Subject"]]
    assert len(grey) == 1 and "Watch Belgium." in text(grey[0])
    for master in ("gm", "cm"):      # both masters: the true sender of grey press, every result, the names
        got = j.mails_to(f"{master}@dip.test")
        copy = [m for m in got if "Watch Belgium." in text(m)]
        assert len(copy) == 1 and "press from France to England" in text(copy[0])
        start = [m for m in got if "has started" in m["Subject"]]
        assert len(start) == 1 and all(n in text(start[0]) for n in names)
        assert any("is over" in m["Subject"] for m in got)
