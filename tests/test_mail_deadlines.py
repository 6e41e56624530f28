"""Deadlines by mail through a real `judge serve` process: an order the judge acknowledged before a
phase was played is in that phase, whatever the backlog or a restart; mail that comes after is
answered "too late" and kept from everyone else; one stray line does not make a power "in".

Processing is held back by a write lock the test takes on the game's file: the judge takes (250) the
mail, but cannot store its orders until the lock goes, as behind a slow mail. The deadline passes
meanwhile; the phase must still be played with every order.
"""
import json
import smtplib
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

from judge.games.model import Settings
from judge.games.service import GameService

from mailjudge import POWERS, mail
from servers.net import wait_until
from servers.serve import kill, rows, start_judge, stop
from test_games_helpers import orders, whole

TICK = {"JUDGE_TICK_SECONDS": "0.2"}
# One order per power: nobody is "in", so the phase waits for its deadline.
ORDERS = {"AUSTRIA": "A Vie - Gal", "ENGLAND": "F Lon - Nth", "FRANCE": "A Par - Bur", "GERMANY": "A Mun - Ruh",
          "ITALY": "A Ven H", "RUSSIA": "A War - Ukr", "TURKEY": "A Con - Bul"}


def seven_players(tmp_path) -> GameService:
    service = GameService(tmp_path / "var")
    service.create_account("gm", "gm@dip.test", "gm-pw")
    service.create_game("alpha", master="gm", settings=Settings(grace_hours=0, pictures=False))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])
    return service


def send(port: int, power: str, body: str) -> str:
    """Mail from the power's player, signed on; returns its Message-ID once the judge took it (250)."""
    raw = mail(f"{power.lower()}@dip.test", f"signon {power[0]}alpha {power.lower()}-pw\n{body}")
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(f"{power.lower()}@dip.test", ["judge@dip.test"], raw)
    return raw.split(b"Message-ID: <", 1)[1].split(b">", 1)[0].decode()


def reply(tmp_path, message_id: str) -> str:
    """The judge's reply to one mail, as text with its lines joined."""
    db = tmp_path / "var" / "judge.sqlite"
    found = wait_until(lambda: rows(db, "SELECT raw FROM outbox_mail WHERE instr(raw, CAST(? AS BLOB)) > 0",
                                    [f"In-Reply-To: <{message_id}>"]), what=f"the reply to {message_id}")
    from email import message_from_bytes, policy
    return " ".join(message_from_bytes(found[0][0], policy=policy.default).get_body(("plain",)).get_content().split())


@contextmanager
def game_locked(tmp_path):
    """Hold the game file's write lock: whatever would write to the game waits (as behind a slow mail)."""
    conn = sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite", isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def deadline_in(service: GameService, seconds: int) -> datetime:
    when = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=seconds)
    service.move_deadline("alpha", when)
    return when


def sleep_past(when: datetime) -> None:
    while datetime.now(timezone.utc) <= when + timedelta(seconds=1):
        time.sleep(0.1)


def phase_orders(tmp_path, phase: str) -> dict[str, list[str]]:
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        found = game.execute("SELECT o.power, o.written FROM orders o JOIN phases p ON p.seq = o.phase_seq "
                             "WHERE p.phase = ? AND p.rolled_back = 0 ORDER BY o.power", [phase]).fetchall()
    out: dict[str, list[str]] = {}
    for power, written in found:
        out.setdefault(power, []).append(written)
    return out


def assert_every_order_counted(service: GameService, tmp_path) -> None:
    spring = next(h for h in service.history("alpha") if h.phase == "S1901M")
    assert spring.civil_disorder == ()
    assert phase_orders(tmp_path, "S1901M") == {p: [o] for p, o in ORDERS.items()}
    assert phase_orders(tmp_path, "F1901M") == {}          # nothing stored for the next phase
    played = {(o["power"], o["written"]) for o in spring.results[0]["outcomes"] if not o["by_judge"]}
    assert played == set(ORDERS.items())


def test_orders_taken_before_the_deadline_count_though_the_judge_is_behind(tmp_path):
    service = seven_players(tmp_path)
    process, port = start_judge(tmp_path, **TICK)
    try:
        deadline = deadline_in(service, 8)
        with game_locked(tmp_path):
            sent = [send(port, p, o) for p, o in ORDERS.items()]
            sleep_past(deadline)                          # the deadline passes with all seven waiting
        wait_until(lambda: service.status("alpha").phase == "F1901M", what="the spring to be played")
        for mid in sent:
            assert "too late" not in reply(tmp_path, mid)
    finally:
        stop(process)
    assert_every_order_counted(service, tmp_path)


def test_orders_taken_before_a_crash_count_after_a_restart_past_the_deadline(tmp_path):
    service = seven_players(tmp_path)
    process, port = start_judge(tmp_path, **TICK)
    try:
        deadline = deadline_in(service, 8)
        with game_locked(tmp_path):
            for p, o in ORDERS.items():
                send(port, p, o)
            kill(process)                                 # stored and acknowledged, not yet read
        sleep_past(deadline)
        process, port = start_judge(tmp_path, **TICK)
        wait_until(lambda: service.status("alpha").phase == "F1901M", what="the spring to be played")
    finally:
        stop(process)
    assert_every_order_counted(service, tmp_path)


def test_one_unit_of_four_ordered_is_not_in_and_the_reply_says_when_the_phase_is_played(tmp_path):
    service = seven_players(tmp_path)
    for p in POWERS:
        if p != "RUSSIA":
            service.submit_orders("alpha", p, orders(*whole(service, "alpha", p)))
    process, port = start_judge(tmp_path, **TICK)
    try:
        text = reply(tmp_path, send(port, "RUSSIA", "A Mos H"))
        assert "Russia is not in yet" in text
        deadline = service.status("alpha", viewer="russia").deadline["shown"]["UTC"]
        assert f"The phase will be played at {deadline} (UTC)" in text
        assert "Every power is in" not in text
        time.sleep(1.5)                                   # several ticks: nothing may be played early
        assert service.status("alpha").phase == "S1901M"
        text = reply(tmp_path, send(port, "RUSSIA", "F Sev H\nF StP/sc H\nA War H"))
        assert "Russia is in" in text and "Every power is in: the phase will be played" in text
        wait_until(lambda: service.status("alpha").phase == "F1901M", what="the early play the reply promised")
    finally:
        stop(process)


def italy_dislodged_in_trieste(tmp_path) -> GameService:
    """Fall 1901 retreats: Italy's army in Trieste dislodged by Austria, Italy also in Apulia."""
    service = seven_players(tmp_path)
    spring = {"AUSTRIA": ["F Tri - Alb"], "ITALY": ["A Ven - Tri", "A Rom - Apu"]}
    fall = {"AUSTRIA": ["A Bud - Tri", "A Vie S A Bud - Tri"]}
    for moves in (spring, fall):
        for p in POWERS:
            service.submit_orders("alpha", p, orders(*whole(service, "alpha", p, *moves.get(p, []))))
        service.process("alpha")
    assert service.status("alpha").phase == "F1901R"
    return service


def test_stray_and_late_lines_in_a_retreat_phase_are_refused_to_their_sender_only(tmp_path):
    service = italy_dislodged_in_trieste(tmp_path)
    process, port = start_judge(tmp_path, **TICK)
    try:
        # Italy's stray line: an order for its army in Apulia, which was not dislodged.
        text = reply(tmp_path, send(port, "ITALY", "A Apu - Ven"))
        assert "too late for Fall 1901 Movement (played" in text and "no unit was dislodged in Apulia" in text
        assert "Italy is not in yet" in text and "Every power is in" not in text
        # Austria's movement orders, written before it knew the fall was played.
        text = reply(tmp_path, send(port, "AUSTRIA", "A Vie - Gal\nF Alb - Gre"))
        assert text.count("too late for Fall 1901 Movement (played") == 2
        time.sleep(1.5)                                   # several ticks: the retreat is not played early
        assert service.status("alpha").phase == "F1901R"
        assert phase_orders(tmp_path, "F1901R") == {}
        text = reply(tmp_path, send(port, "ITALY", "A Tri - Tyr"))
        assert "Italy is in" in text
        wait_until(lambda: service.status("alpha").phase != "F1901R", what="the retreat to be played")
    finally:
        stop(process)
    assert phase_orders(tmp_path, "F1901R") == {"ITALY": ["A Tri - Tyr"]}
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        # a results notice names the phase whose stored result it reports
        results = [json.loads(r[0]) for r in game.execute(
            "SELECT p.result FROM notices n JOIN phases p ON p.seq = json_extract(n.payload, '$.results_of')"
            " WHERE n.kind = 'results'")]
    retreat = [r for n in results for r in n["results"] if r["phase"] == "F1901R"]
    assert retreat and all(o["power"] == "ITALY" for r in retreat for o in r["outcomes"])


# -- the same rules in-process, with a manual clock ------------------------------------------------

def test_the_tick_runs_only_after_the_mail_received_before_its_moment(tmp_path):
    from judge.mail.intake.archive import Archive
    from mailjudge import MailJudge
    judge = MailJudge(tmp_path)
    moments = iter([100.0, 200.0])
    archive = Archive(judge.config.db_path, clock=lambda: next(moments))
    early = archive.store(mail("a@dip.test", "help"), mail_from="a@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    late = archive.store(mail("b@dip.test", "help"), mail_from="b@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    seen = []

    def tick(now):
        seen.append(dict(rows(judge.config.db_path, "SELECT id, state FROM inbound")))
    assert judge.processor.tick(tick, 150.0)
    assert seen == [{early.id: "processed", late.id: "new"}]      # read what came before 150, not after
    judge.close()
    archive.close()


def test_orders_received_before_a_play_but_read_after_it_are_too_late_and_kept_nowhere(tmp_path):
    from judge.mail.intake.archive import Archive
    from mailjudge import MailJudge
    judge = MailJudge(tmp_path)
    judge.seven_players()
    judge.clock.advance(hours=1)
    archive = Archive(judge.config.db_path, clock=lambda: judge.clock().timestamp())
    archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur"), mail_from="france@dip.test",
                  rcpt_tos=["judge@dip.test"], via="smtp")
    judge.clock.advance(hours=1)
    judge.service.process("alpha")                    # the master plays the spring meanwhile
    judge.processor.process_next()
    [answer] = [s for s in judge.outbox() if "france@dip.test" in s.to]
    assert ("A Par - Bur too late for Spring 1901 Movement (played at Mon 02 Mar 2026 14:00 UTC), not used;"
            " now Fall 1901 Movement, deadline") in answer.text
    assert "=== France in alpha, Fall 1901 Movement ===" in answer.body   # what the phase now needs
    assert judge.service.confirmation("alpha", "FRANCE").orders == ()
    judge.close()
    archive.close()
