"""Issue 23 (6, and "a phase that cannot be played"): each game stands alone. A damaged game file is found,
reported (the keeper, the game's master and players) and left alone while the judge runs every other
game; a backup put back makes it run again. A game whose phase raises is held, told once, and played
when the judge restarts. All through a real `judge serve`, a real relay and real damaged files."""
from __future__ import annotations

import json
import shutil
import smtplib
import sqlite3
import time
from email import message_from_bytes, policy


from judge.games.service import GameService

from gamedamage import DAMAGE
from mailjudge import POWERS, mail
from servers.judge_process import JudgeServe, run_judge
from servers.net import wait_until
from servers.sink import Sink

GAMES = ("alpha", "beta", "gamma")
# What no player may ever read (SQLite's or Python's words).
NOT_FOR_PLAYERS = ("sqlite", "malformed", "not a database", "DatabaseError", "Traceback")


def three_games(data, games=GAMES):
    """Three started games (or those named) with the same seven players and master; every file closed
    (checkpointed)."""
    svc = GameService(data)
    svc.create_account("gm", "gm@dip.test", "gm-pw")
    for p in POWERS:
        svc.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    for game in games:
        svc.create_game(game, master="gm")
        for p in POWERS:
            svc.join(game, p.lower(), [p])
    svc.close_games()
    svc.judge.conn.close()


def serve_args(data, relay_port: int) -> list[str]:
    return ["--data", str(data), "--smtp-port", "0", "--address", "judge@dip.test",
            "--relay", f"127.0.0.1:{relay_port}", "--master", "keeper@dip.test"]


def send(port: int, frm: str, body: str) -> str:
    raw = mail(frm, body)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(frm, ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def mails_to(sink, address: str) -> list:
    return [message_from_bytes(r.raw, policy=policy.default) for r in sink.received if address in r.rcpt_tos]


def at_least(sink, address: str, count: int) -> list:
    """The mail to this address once there are `count` of them, else none."""
    got = mails_to(sink, address)
    return got if len(got) >= count else []


def text(m) -> str:
    return " ".join(m.get_body(("plain",)).get_content().split())


def reply_to(sink, address: str, message_id: str) -> str:
    got = wait_until(lambda: [m for m in mails_to(sink, address) if f"<{message_id}>" in str(m["In-Reply-To"])],
                     what=f"the reply to {message_id}")
    return text(got[0])


def troubles(data) -> list[tuple]:
    with sqlite3.connect(data / "judge.sqlite") as conn:
        return conn.execute("SELECT name, kind, phase, told FROM game_trouble ORDER BY name").fetchall()


# Each kind of damage to a game file of its own, both in one judge: each darkens only its own game.
# (The game, its damage in tests/gamedamage.py.)
DAMAGED = {"beta": "across", "delta": "middle"}


def unavailable_mail(sink, address: str, count: int) -> list:
    """The mail to this address saying a game is unavailable, once there are `count` of them, else none."""
    got = [m for m in mails_to(sink, address) if "is unavailable" in str(m["Subject"])]
    return got if len(got) >= count else []


def unavailable(game: str) -> str:
    return f"game {game} is unavailable: its file is damaged; the keeper has been told"


def test_a_damaged_game_file_among_healthy_games_darkens_only_its_own_game(tmp_path):
    data = tmp_path / "var"
    three_games(data, ("alpha", "gamma", *DAMAGED))
    for game, damage in DAMAGED.items():
        shutil.copy(data / "games" / f"{game}.sqlite", tmp_path / f"{game}-backup.sqlite")
        DAMAGE[damage](data / "games" / f"{game}.sqlite")

    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        # the judge started; the keeper hears, with SQLite's words; the master and players plainly
        for game in DAMAGED:
            keeper = wait_until(lambda game=game: [m for m in mails_to(relay, "keeper@dip.test")
                                                   if f"game {game} is damaged" in str(m["Subject"])],
                                what=f"the keeper's mail on {game}")
            assert str(keeper[0]["Subject"]) == f"Judge: game {game} is damaged"
            assert f"games/{game}.sqlite" in text(keeper[0])
        # (the healthy games' start notices, pending since they were made, go out too, in any order)
        told = wait_until(lambda: unavailable_mail(relay, "france@dip.test", len(DAMAGED)), what="the players' mail")
        assert sorted(str(m["Subject"]) for m in told) == [f"Diplomacy: game {g} is unavailable"
                                                          for g in sorted(DAMAGED)]
        wait_until(lambda: at_least(relay, "gm@dip.test", len(DAMAGED)), what="the master's mail")
        assert not any(w.lower() in text(m).lower() for m in told for w in NOT_FOR_PLAYERS)

        # a player of a damaged game gets a plain answer; the same player's healthy games run
        for game in DAMAGED:
            answer = reply_to(relay, "france@dip.test", send(judge.port, "france@dip.test",
                                                              f"SIGNON F{game} france-pw\nA PAR - BUR"))
            assert unavailable(game) in answer
            assert not any(w.lower() in answer.lower() for w in NOT_FOR_PLAYERS)
        for game in ("alpha", "gamma"):
            answer = reply_to(relay, "france@dip.test", send(judge.port, "france@dip.test",
                                                              f"SIGNON F{game} france-pw\nA PAR - BUR"))
            assert "unavailable" not in answer
        assert run_judge("status", "alpha", "--data", str(data)).returncode == 0
        for game in DAMAGED:
            refused = run_judge("status", game, "--data", str(data))
            assert refused.returncode == 1 and unavailable(game) in refused.stdout and "Traceback" not in refused.stderr
    assert judge.stop() == 0
    assert [t[:2] for t in troubles(data)] == [(g, "damaged") for g in sorted(DAMAGED)]
    doctor = run_judge("doctor", "--data", str(data))
    assert doctor.returncode == 1 and "damaged" in doctor.stdout
    assert all(f"games/{g}.sqlite" in doctor.stdout for g in DAMAGED)
    for game in ("alpha", "gamma"):
        with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
            assert conn.execute("SELECT count(*) FROM orders").fetchone()[0] == 1

    # the keeper puts the backups back: each file is checked at start-up and its game runs again
    for game in DAMAGED:
        shutil.copy(tmp_path / f"{game}-backup.sqlite", data / "games" / f"{game}.sqlite")
    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        for game in DAMAGED:
            answer = reply_to(relay, "france@dip.test", send(judge.port, "france@dip.test",
                                                              f"SIGNON F{game} france-pw\nA PAR - BUR"))
            assert "unavailable" not in answer
    assert judge.stop() == 0
    assert troubles(data) == []
    doctor = run_judge("doctor", "--data", str(data)).stdout
    assert not any(f"{g}.sqlite is damaged" in doctor for g in DAMAGED)


def unreadable_position(conn) -> None:
    """The phase's stored position names a province the map does not have (a hand edit gone wrong, or a
    defect that wrote it): the game cannot even be read at start-up."""
    seq, position = conn.execute("SELECT seq, position FROM phases ORDER BY seq DESC LIMIT 1").fetchone()
    position = json.loads(position)
    position["units"]["FRANCE"] = ["A Atlantis"]
    conn.execute("UPDATE phases SET position = ? WHERE seq = ?", [json.dumps(position), seq])


def unreadable_order(conn) -> None:
    """An order stored in a form the engine cannot take: the game reads, only playing the phase fails."""
    seq = conn.execute("SELECT max(seq) FROM phases").fetchone()[0]
    sid = conn.execute("INSERT INTO submissions (phase_seq, power, at, action, written, read) VALUES"
                       " (?, 'FRANCE', '2026-01-01T00:00:00Z', 'orders', 'A PAR H', '[]')", [seq]).lastrowid
    conn.execute("INSERT INTO orders (phase_seq, power, slot, position, written, read, submission_id) VALUES"
                 " (?, 'FRANCE', 'PAR', 0, 'A PAR H', '{\"what\": \"no such order\"}', ?)", [seq, sid])


# Each way of breaking a phase in a game of its own, both games in one judge: each is held and told
# once, and neither holds the other nor the healthy games. (The game, how its phase is broken.)
BROKEN = {"beta": unreadable_position, "delta": unreadable_order}
HEALTHY = ("alpha", "gamma")


def due_now(data, game: str) -> None:
    with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
        conn.execute("UPDATE phases SET deadline = '2000-01-01T00:00:00Z'")
        conn.execute("UPDATE game SET next_event_at = '2000-01-01T00:00:00Z'")


def held_mail(sink, address: str, game: str) -> list:
    return [m for m in mails_to(sink, address) if f"game {game} is held" in str(m["Subject"])]


def test_a_phase_the_engine_cannot_play_holds_only_its_game_and_is_played_after_a_restart(tmp_path):
    data = tmp_path / "var"
    three_games(data, (*HEALTHY, *BROKEN))
    mend = {}
    for game, breakage in BROKEN.items():
        with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
            before = conn.execute("SELECT max(rowid) FROM orders").fetchone()[0] or 0
            good = conn.execute("SELECT position FROM phases ORDER BY seq DESC LIMIT 1").fetchone()[0]
            breakage(conn)
        mend[game] = (before, good)
    for game in (*HEALTHY, *BROKEN):      # all due: the others are played while the broken ones are held
        due_now(data, game)

    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        for game in BROKEN:
            keeper = wait_until(lambda game=game: held_mail(relay, "keeper@dip.test", game),
                                what=f"the keeper's mail on {game}")
            assert str(keeper[0]["Subject"]) == f"Judge: game {game} is held"
            assert "S1901M" in text(keeper[0])
            master = wait_until(lambda game=game: held_mail(relay, "gm@dip.test", game),
                                what=f"the master's mail on {game}")
            assert "S1901M" in text(master[0])
            assert not any(w.lower() in text(master[0]).lower() for w in NOT_FOR_PLAYERS)
        wait_until(lambda: all(phase_of(data, g) == "F1901M" for g in HEALTHY), what="the others played")
    assert judge.stop() == 0
    for game in BROKEN:          # told once each
        assert len(held_mail(relay, "keeper@dip.test", game)) == len(held_mail(relay, "gm@dip.test", game)) == 1
        assert phase_of(data, game) == "S1901M"
    assert troubles(data) == [(game, "held", "S1901M", 1) for game in sorted(BROKEN)]

    # restarted, still broken: held again, nobody told twice
    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        wait_until(lambda: troubles(data) == [(game, "held", "S1901M", 1) for game in sorted(BROKEN)],
                   what="held again")
        assert judge.process.poll() is None
    assert judge.stop() == 0
    assert mails_to(relay, "keeper@dip.test") == [] and mails_to(relay, "gm@dip.test") == []

    # fixed (the position mended), restarted: the phases are played at once
    for game, (before, good) in mend.items():
        with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
            conn.execute("UPDATE phases SET position = ? WHERE seq = (SELECT max(seq) FROM phases)", [good])
            conn.execute("DELETE FROM orders WHERE rowid > ?", [before])
    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        wait_until(lambda: all(phase_of(data, g) == "F1901M" for g in BROKEN), what="the mended games played")
    assert judge.stop() == 0
    assert troubles(data) == []


def phase_of(data, game: str) -> str:
    with sqlite3.connect(data / "games" / f"{game}.sqlite") as conn:
        return conn.execute("SELECT phase FROM phases WHERE seq = (SELECT phase_seq FROM game)").fetchone()[0]


# -- SIGTERM with a backlog ---------------------------------------------------------------------------

BACKLOG = 4000


def test_sigterm_with_thousands_of_mails_waiting_exits_within_seconds_losing_none(tmp_path):
    """Issue 23 item 9: the judge finishes the mail in hand and exits; the rest waits in the archive."""
    from judge.mail.intake.archive import Archive, Arrival

    data = tmp_path / "var"
    data.mkdir()
    archive = Archive(data / "judge.sqlite")
    arrivals = [Arrival(mail(f"p{n % 40}@players.test", "HELP"), f"p{n % 40}@players.test", ("judge@dip.test",),
                        "smtp", "127.0.0.1") for n in range(BACKLOG)]
    for start in range(0, BACKLOG, 500):
        archive.store_many(arrivals[start:start + 500])
    archive.close()
    with Sink() as relay, JudgeServe(serve_args(data, relay.port)) as judge:
        wait_until(lambda: relay.received, what="the first replies")      # it is working through them
        started = time.monotonic()
        status = judge.stop()
        took = time.monotonic() - started
    assert status == 0 and took < 30, (status, took, judge.errors)
    with sqlite3.connect(data / "judge.sqlite") as conn:
        states = dict(conn.execute("SELECT state, count(*) FROM inbound GROUP BY state").fetchall())
    assert sum(states.values()) == BACKLOG and set(states) <= {"processed", "new"}, states
    assert states.get("new", 0) > 0, states     # stopped part-way: the rest is left for the next start
    print(f"SIGTERM with {BACKLOG} mails waiting: exited in {took:.2f} s, {states.get('processed', 0)} processed")
