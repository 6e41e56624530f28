"""The serve hooks (judge.mail.serve_hooks): the tick plays the games at the daemon's moment, and the courier
runs one at a time however many threads call it."""
from __future__ import annotations

import threading
from datetime import timedelta

from judge.mail.outbound.courier import Courier
from judge.mail.serve_hooks import Tick
from judge.storage.db import open_db


def phase(judge) -> str:
    return judge.service.status("alpha").position["phase"]


def test_the_tick_plays_the_games_at_the_daemons_moment_not_at_the_services_clock(playing):
    judge = playing
    tick = Tick(judge.service, Courier(judge.service, judge.config), judge.config)
    start = judge.clock()
    tick((start + timedelta(hours=1)).timestamp())
    assert phase(judge) == "S1901M"                        # before the deadline: nothing to play
    tick((start + timedelta(days=30)).timestamp())
    assert phase(judge) != "S1901M"                        # the daemon's moment is past the deadline
    assert judge.clock() == start                          # and the service's own clock never moved
    assert any("Spring 1901" in s.subject for s in judge.outbox())   # the courier ran after the play


def test_two_threads_running_the_courier_queue_each_notice_once(playing):
    judge = playing
    courier = Courier(judge.service, judge.config)
    judge.service.process("alpha")                          # notices pending for every player
    inside, most = [0], [0]
    counting = threading.Lock()
    deliver = courier._queue_games                        # games' notices written out

    def watched(*args, **kwargs):
        with counting:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            return deliver(*args, **kwargs)
        finally:
            with counting:
                inside[0] -= 1
    courier._queue_games = watched
    queued = []

    def run():
        db = open_db(judge.config.db_path)
        try:
            queued.append(courier.run(db))
        finally:
            db.conn.close()
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert most[0] == 1                                     # never two deliveries at once
    assert sorted(queued)[:-1] == [0, 0, 0] and queued and max(queued) > 0   # one run queued it all
    ids = [s.message_id for s in judge.outbox()]
    assert len(ids) == len(set(ids))
