"""What a mail has read of a game file is kept into its write transaction only while no other
connection has written the file (judge.games.gamefile.Snapshot, SQLite's data_version): a write by
another process between the mail's first reads and its transaction is seen by what the mail does
and answers next. In-process, on real files; counted by what is read, never timed."""
from __future__ import annotations

import sqlite3

from judge.games.store import game_path
from test_games_helpers import seven_player_game, service, submit


def test_a_write_by_another_connection_before_the_mails_transaction_is_read_again(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, "alpha")
    with svc.batch():       # one mail
        assert svc.status("alpha").powers["GERMANY"].missed == 0       # read before its transaction
        with sqlite3.connect(game_path(svc.data, "alpha")) as other:   # another process, meanwhile
            other.execute("UPDATE powers SET missed = 2 WHERE power = 'GERMANY'")
        other.close()
        submit(svc, "alpha", "RUSSIA", "A War - Ukr")      # the mail's transaction begins
        assert svc.status("alpha").powers["GERMANY"].missed == 2


def test_what_the_mail_read_is_kept_when_nobody_else_wrote(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, "alpha")
    read: list[str] = []
    with svc.batch():
        svc.status("alpha")
        db = svc._pool()[game_path(svc.data, "alpha")]
        db.conn.set_trace_callback(read.append)
        submit(svc, "alpha", "RUSSIA", "A War - Ukr")
    assert not [s for s in read if s.startswith("SELECT") and "FROM powers" in s], read


def test_a_power_is_confirmed_once_a_mail_until_the_file_or_the_readers_zone_changes(tmp_path):
    svc, _ = service(tmp_path)
    seven_player_game(svc, "alpha")
    with svc.batch():       # one mail: stored orders, the reply's lines, its summary
        stored = submit(svc, "alpha", "RUSSIA", "A War - Ukr")
        asked = svc.confirmation("alpha", "RUSSIA")
        assert asked is svc.confirmation("alpha", "RUSSIA") and asked.orders == stored.orders
        svc.accounts.set_time_zone("p-russia", "Asia/Tokyo")     # SET ZONE in the same mail
        told = svc.confirmation("alpha", "RUSSIA")
        shown = told.deadline["shown"].values()
        assert told.deadline != asked.deadline and any("JST" in t or "+09" in t for t in shown)
        # the game's state, made once for nobody in particular, shows the deadline in a viewer's zone too
        assert svc.status("alpha", viewer="p-russia").deadline == told.deadline != svc.status("alpha").deadline
        again = submit(svc, "alpha", "RUSSIA", "A Mos - StP")      # the file written again
        assert svc.confirmation("alpha", "RUSSIA").orders == again.orders != told.orders
        # the player as the viewer, or nobody named (the player then): the same answer, made once
        assert svc.confirmation("alpha", "RUSSIA", viewer="p-russia") is svc.confirmation("alpha", "RUSSIA")
    assert svc.units_without_orders("alpha", "RUSSIA") == svc.confirmation("alpha", "RUSSIA").units_without_orders
