"""The daemon's tick as a pipeline (judge.mail.serve_hooks.Tick): each game's news is queued while
the later due games are still being played, every due game is played, every notice queued once,
and a tick that fails half-way leaves the rest to the next tick, nothing twice."""
from __future__ import annotations

import time
from collections import Counter
from datetime import timedelta

import pytest

from judge.games.model import Settings
from judge.mail.outbound import courier as courier_module
from judge.mail.outbound.courier import Courier
from judge.mail.serve_hooks import Tick

from mailjudge import POWERS, deliver

GAMES = ("g1", "g2", "g3")


@pytest.fixture
def rush(judge, monkeypatch):
    """Three games started at once, so due at once; the courier reading one game ahead and
    queueing each game alone, so three games show the pipeline the daemon runs with hundreds."""
    monkeypatch.setattr(courier_module, "READ_AHEAD", 1)
    monkeypatch.setattr(courier_module, "QUEUED_TOGETHER", 1)
    judge.service.create_account("gm", "gm@dip.test", "gm-secret")
    for p in POWERS:
        judge.service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
    for game in GAMES:
        judge.service.create_game(game, master="gm", settings=Settings(pictures=False))
        for p in POWERS:
            judge.service.join(game, p.lower(), [p])
    return judge


def results_by_game(judge) -> Counter:
    """How many results mails each game has queued (their subject: "g1: Spring 1901 Movement results")."""
    return Counter(s.subject.split(":")[0] for s in judge.outbox() if s.subject.endswith(" results"))


def phase(judge, game: str) -> str:
    return judge.service.status(game).position["phase"]


def later(judge) -> float:
    return (judge.clock() + timedelta(days=30)).timestamp()


def test_each_games_news_is_queued_while_the_later_games_are_played(rush):
    judge = rush
    courier = Courier(judge.service, judge.config)
    tick = Tick(judge.service, courier, judge.config)
    deliver(judge)                  # the start's notices queued: only the phases are left to play
    seen_before = {}                # game -> the results mails in the outbox as it was played
    wake = judge.service.wake

    def watched(name, now=None):
        seen_before[name] = sum(results_by_game(judge).values())
        return wake(name, now)
    judge.service.wake = watched
    tick(later(judge))
    assert all(phase(judge, g) != "S1901M" for g in GAMES)     # every due game played
    assert seen_before["g1"] == 0
    assert seen_before["g3"] > 0                               # g1's results out before g3 was played
    played = results_by_game(judge)
    assert set(played) == set(GAMES) and len(set(played.values())) == 1      # each game's whole news
    ids = [s.message_id for s in judge.outbox()]
    assert len(ids) == len(set(ids))
    assert judge.service.games_with_notices() == []


def test_a_tick_failing_half_way_leaves_the_rest_to_the_next_and_queues_nothing_twice(rush):
    judge = rush
    courier = Courier(judge.service, judge.config)
    tick = Tick(judge.service, courier, judge.config)
    deliver(judge)
    queue = courier._queue_games
    failing = [True]

    def once_broken(*args, **kwargs):
        if failing.pop() if failing else False:
            raise OSError("disk full")        # the judge file refusing the first game's mail
        return queue(*args, **kwargs)
    courier._queue_games = once_broken
    when = later(judge)
    with pytest.raises(OSError):
        tick(when)
    assert results_by_game(judge) == Counter()
    assert phase(judge, "g3") == "S1901M"       # not reached: still due, for the next tick
    assert phase(judge, "g1") != "S1901M" and set(judge.service.games_with_notices()) >= {"g1", "g2"}
    tick(when + 60)
    assert all(phase(judge, g) != "S1901M" for g in GAMES)
    played = results_by_game(judge)
    assert set(played) == set(GAMES) and len(set(played.values())) == 1
    ids = [s.message_id for s in judge.outbox()]
    assert len(ids) == len(set(ids))
    assert judge.service.games_with_notices() == []


def test_a_phase_played_looks_no_schema_up_and_decodes_its_position_once(rush, monkeypatch):
    """The deadline stage's economies (bench/games.py): raw SQL, not sqlite-utils' schema lookups;
    the phase's position decoded at most once, the new phase's not at all (it was just encoded)."""
    judge = rush
    deliver(judge)
    from judge.engine import notation
    from judge.games import gamefile, service as service_module
    decoded = []
    decode = notation.position_from_json
    monkeypatch.setattr(notation, "position_from_json", lambda *a: decoded.append(a) or decode(*a))
    statements = []
    open_game = service_module.open_game

    def traced(*args, **kwargs):
        db = open_game(*args, **kwargs)
        db.conn.set_trace_callback(statements.append)
        return db
    monkeypatch.setattr(service_module, "open_game", traced)
    judge.service._trim(0)                  # every game file opened again, traced
    monkeypatch.setattr(gamefile, "_decoded", gamefile.DecodedPositions())     # nothing decoded yet
    assert judge.service.wake("g2", judge.clock() + timedelta(days=30)) == "processed"
    assert len(decoded) == 1
    assert statements and not [s for s in statements if "sqlite_master" in s or "table_info" in s]
    assert sum(s.startswith("UPDATE powers SET waiting") for s in statements) == 0    # nobody was waiting


def test_in_a_rush_each_phase_is_on_disk_before_its_mail_is_queued(rush, monkeypatch):
    """A rush commits each phase without waiting for the disk and syncs its game's log on a thread of
    its own (GameService.syncing_aside): the courier queues a game's mail only once that log is synced."""
    from judge.mail.outbound import outgoing
    from judge.storage import syncer as syncer_module
    judge = rush
    courier = Courier(judge.service, judge.config)
    courier.pool_from = 2                   # three due games are a rush
    tick = Tick(judge.service, courier, judge.config)
    deliver(judge)
    events: list[tuple[str, str]] = []
    fsync = syncer_module.fsync_path

    def synced(path):
        if path.name.endswith(".sqlite-wal"):
            time.sleep(0.2)                 # a slow disk: the courier is at the game's mail meanwhile
            fsync(path)
            events.append(("synced", path.name.split(".")[0]))
        else:
            fsync(path)
    monkeypatch.setattr(syncer_module, "fsync_path", synced)
    send = outgoing.send_copies

    def queued(db, config, rendered, copies, **kwargs):
        if copies:          # (the public copy of a game nobody watches goes to nobody)
            events.append(("queued", copies[0].key.split(":")[1]))
        return send(db, config, rendered, copies, **kwargs)
    monkeypatch.setattr(outgoing, "send_copies", queued)
    tick(later(judge))
    assert all(phase(judge, g) != "S1901M" for g in GAMES)
    for game in GAMES:
        first_sync = events.index(("synced", game))
        first_mail = min(i for i, e in enumerate(events) if e == ("queued", game))
        assert first_sync < first_mail, events
    assert judge.service.games_with_notices() == []
