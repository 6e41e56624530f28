"""What a mail has read of a game file is kept into its write transaction only while no other
connection has written the file (judge.games.gamefile.Snapshot, SQLite's data_version): a write by
another process between the mail's first reads and its transaction is seen by what the mail does
and answers next. In-process, on real files; counted by what is read, never timed."""
from __future__ import annotations

import json
import sqlite3

import sqlite_utils

from judge.engine import load_variant, notation
from judge.games import processing
from judge.engine.variant import starting_position
from judge.games.gamefile import DecodedPositions
from judge.games.ordercodec import order_to_json
from judge.games.store import game_path
from judge.storage.open_files import KEEP_OPEN_MOST
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


def test_what_each_power_owes_is_kept_through_writes_of_what_it_does_not_read(tmp_path):
    """An order mail's store writes its submission and the game's next_event_at after the orders:
    neither changes who owes what, so "is everyone in?" and the reply share one working out; a
    write of the orders or the powers makes it again."""
    svc, _ = service(tmp_path)
    seven_player_game(svc, "alpha")
    with svc.batch(), svc._write("alpha") as gf:
        row = gf.phase_now()
        first = processing.owed_by_power(gf, row)
        gf.submission(row.seq, "RUSSIA", svc.clock(), "test:1", "orders", "", [])
        gf.update_game(next_event_at=None)
        kept = processing.owed_by_power(gf, row)
        assert all(kept[p] is first[p] for p in first) and "A WAR" in kept["RUSSIA"].units
        hold = json.dumps(order_to_json(notation.parse_order(gf.variant, "A War H")))
        gf.put_orders(row.seq, "RUSSIA", [("war", 1, "A War H", hold, 1)], replace_all=False)
        again = processing.owed_by_power(gf, row)
        assert "A WAR" not in again["RUSSIA"].units and again["ENGLAND"] is not first["ENGLAND"]
        gf.set_power("ENGLAND", missed=1)
        assert processing.owed_by_power(gf, row)["ENGLAND"] is not again["ENGLAND"]
        # one power's, worked out alone (before an order mail's orders are stored): the same answer
        assert all(processing.owed(gf, row, p) == owes for p, owes in processing.owed_by_power(gf, row).items())


def test_each_game_kept_open_keeps_its_positions_decoded():
    """A backlog reaches every game in turn: each of as many games as the worker keeps open finds
    its position still decoded when its next mail comes (not decoded again for every mail)."""
    variant = load_variant("standard")
    text = json.dumps(notation.position_to_json(variant, starting_position(variant)))
    decoded = DecodedPositions()
    games = [sqlite_utils.Database(memory=True) for _ in range(KEEP_OPEN_MOST)]
    first = [decoded.position(db, variant, text) for db in games]
    assert all(decoded.position(db, variant, text) is seen for db, seen in zip(games, first, strict=True))
    assert len({id(p) for p in first}) == len(games)      # not shared between games


def _powers_read(db: sqlite_utils.Database, work) -> int:
    """How many times `work()` reads the powers table through this connection."""
    read: list[str] = []
    db.conn.set_trace_callback(read.append)
    try:
        work()
    finally:
        db.conn.set_trace_callback(None)
    return len([s for s in read if s.startswith("SELECT") and "FROM powers" in s])


def test_in_a_rush_what_was_read_of_a_game_is_kept_between_operations_until_a_write(tmp_path):
    """`snapshots_kept` (a deadline rush): a game's status, asked again with nothing written, is not
    read again; a write through the same connection, a commit by another connection and a write
    rolled back are each seen by the next read."""
    svc, _ = service(tmp_path, keep_open=8)
    seven_player_game(svc, "alpha")
    svc.status("alpha")
    db = svc._pool()[game_path(svc.data, "alpha")]
    assert _powers_read(db, lambda: svc.status("alpha")) == 1       # outside the block: read afresh each time
    with svc.snapshots_kept():
        assert svc.status("alpha").powers["GERMANY"].missed == 0
        assert _powers_read(db, lambda: svc.status("alpha")) == 0
        with sqlite3.connect(game_path(svc.data, "alpha")) as other:   # another process, meanwhile
            other.execute("UPDATE powers SET missed = 2 WHERE power = 'GERMANY'")
        other.close()
        assert svc.status("alpha").powers["GERMANY"].missed == 2
        assert svc.status("alpha").powers["RUSSIA"].owes
        submit(svc, "alpha", "RUSSIA", "A War - Ukr")                   # this connection writes
        assert not svc.status("alpha").powers["RUSSIA"].owes and svc.confirmation("alpha", "RUSSIA").orders
        assert _powers_read(db, lambda: svc.status("alpha")) == 0
        try:
            with svc._write("alpha") as gf:
                gf.set_power("GERMANY", missed=3)
                assert svc.status("alpha").powers["GERMANY"].missed == 3     # read inside the transaction
                raise RuntimeError("the operation fails: its writes are rolled back")
        except RuntimeError:
            pass
        assert svc.status("alpha").powers["GERMANY"].missed == 2
    assert _powers_read(db, lambda: svc.status("alpha")) == 1       # the block ended: afresh again
