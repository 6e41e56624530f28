"""Chaos at the deadline: `judge serve` is killed (SIGKILL) at random moments while a backlog of
players' orders waits at a phase's deadline, then started again, round after round (the moments
drawn from a seeded generator). Every order the judge acknowledged before the deadline is in
that phase: none lost, none applied twice, none applied to another phase, nobody in civil disorder.
"""
import random
import re
import sqlite3
import time
from datetime import datetime, timezone

from mailjudge import POWERS
from servers.net import wait_until
from servers.serve import kill, rows, start_judge, stop
from test_mail_deadlines import TICK, deadline_in, send, seven_players

ROUNDS = 4
SEED = 20261123


def test_killed_at_random_around_deadlines_no_order_is_lost_doubled_or_misfiled(tmp_path):
    rng = random.Random(SEED)
    service = seven_players(tmp_path)
    db = tmp_path / "var" / "judge.sqlite"
    sent: dict[str, tuple[str, str, str]] = {}     # Message-ID -> (phase, power, order)
    kills = 0
    process, port = start_judge(tmp_path, **TICK)
    try:
        for _ in range(ROUNDS):
            # players answer the last results once they are mailed (orders sent before would be too late
            # for the phase just played, and rightly refused: judge/games/submissions.py too_late)
            wait_until(lambda: rows(db, "SELECT 1 FROM game_index WHERE name = 'alpha' AND pending_notices = 0"),
                       what="the last results mailed")
            phase = service.status("alpha").phase
            units = service.status("alpha").position["units"]
            deadline = deadline_in(service, 3)
            for power in POWERS:          # one unit each: nobody is in, so the deadline decides
                order = f"{rng.choice(units[power])} H"
                sent[send(port, power, order)] = (phase, power, order)
            for _ in range(rng.choice((1, 2))):
                time.sleep(rng.uniform(0.0, 2.0))
                kill(process)
                kills += 1
                time.sleep(rng.uniform(0.0, 1.0))         # down for a while: the deadline may pass meanwhile
                process, port = start_judge(tmp_path, **TICK)
            wait_until(lambda phase=phase: service.status("alpha").phase != phase, what=f"{phase} to be played")
            assert datetime.now(timezone.utc) >= deadline      # played at its deadline, not before
        wait_until(lambda: not rows(db, "SELECT 1 FROM inbound WHERE state IN ('new', 'claimed')"),
                   what="every mail to be handled")
    finally:
        stop(process)

    inbound = dict(rows(db, "SELECT message_id, id FROM inbound WHERE duplicate_of IS NULL"))
    assert rows(db, "SELECT state, count(*) FROM inbound GROUP BY state") == [("processed", len(sent))]
    with sqlite3.connect(tmp_path / "var" / "games" / "alpha.sqlite") as game:
        submitted = game.execute("SELECT s.source, p.phase FROM submissions s JOIN phases p ON p.seq = s.phase_seq "
                                 "WHERE s.source LIKE 'mail:%'").fetchall()
        standing = {(phase, power, written) for phase, power, written in game.execute(
            "SELECT p.phase, o.power, o.written FROM orders o JOIN phases p ON p.seq = o.phase_seq")}
    by_mail: dict[int, list[str]] = {}
    for source, phase in submitted:
        by_mail.setdefault(int(re.match(r"mail:(\d+):", source).group(1)), []).append(phase)
    lost = [m for m, what in sent.items() if what not in standing or not by_mail.get(inbound[m])]
    twice = [m for m in sent if len(by_mail.get(inbound[m], [])) > 1]
    wrong = [m for m, (phase, _, _) in sent.items() if any(p != phase for p in by_mail.get(inbound[m], []))]
    disorder = [h.phase for h in service.history("alpha") if h.civil_disorder]
    print(f"chaos: {ROUNDS} rounds, {kills} kills, {len(sent)} orders; lost {len(lost)}, twice {len(twice)}, "
          f"wrong phase {len(wrong)}, phases with civil disorder {len(disorder)}")
    assert (lost, twice, wrong, disorder) == ([], [], [], [])
