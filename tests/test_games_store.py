"""Storage: files, migrations, WAL, password hashes, the index of due games, and the order codec."""
from __future__ import annotations

import json
from datetime import timedelta
from zoneinfo import ZoneInfoNotFoundError

import pytest

from judge.games.answers import NoSuchGame
from judge.engine import load_variant
from judge.engine.geography import Coast, Location, UnitKind
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, UnitRef, Waive
from judge.games.accounts import hash_password, verify_password
from judge.games.model import NmrPolicy, Settings
from judge.games.ordercodec import order_from_json, order_to_json
from judge.games.store import GAME_MIGRATIONS, JUDGE_MIGRATIONS, check_game_name, open_game, open_judge
from test_games_helpers import process_at_deadline, seven_player_game, service, submit


def test_files_are_wal_and_migrated_once(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "alpha")
    game = open_game(tmp_path / "var", "alpha")
    judge = open_judge(tmp_path / "var")
    assert game.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert judge.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert game.execute("SELECT component, version FROM schema_versions").fetchall() == [("game", len(GAME_MIGRATIONS))]
    versions = dict(judge.execute("SELECT component, version FROM schema_versions").fetchall())
    assert versions["games"] == len(JUDGE_MIGRATIONS)
    assert {"game", "powers", "phases", "submissions", "orders", "press", "votes", "absences", "notices",
            "events", "signups", "power_history"} <= set(game.table_names())
    assert (tmp_path / "var" / "games" / "alpha.sqlite").exists()
    with pytest.raises(NoSuchGame, match="no game called 'nosuchgame'"):
        open_game(tmp_path / "var", "nosuchgame")
    assert not issubclass(NoSuchGame, KeyError)     # a stray KeyError is never taken for a missing game


def test_game_names_are_safe_file_names():
    assert check_game_name(" Alpha-1 ") == "alpha-1"
    for bad in ("", "../x", "a b", "x" * 40, "-x"):
        with pytest.raises(ValueError):
            check_game_name(bad)


def test_passwords_only_as_salted_hashes(tmp_path):
    svc, clock = service(tmp_path)
    svc.create_account("ann", "Ann@Example.org", "correct horse")
    stored = svc.judge.execute("SELECT password FROM accounts WHERE name = 'ann'").fetchone()[0]
    assert stored.startswith("scrypt$") and "correct horse" not in stored
    assert svc.accounts.check_password("ann", "correct horse")
    assert not svc.accounts.check_password("ann", "Correct horse")
    assert hash_password("x") != hash_password("x")  # a new salt each time
    assert verify_password("x", hash_password("x")) and not verify_password("x", None)
    assert svc.accounts.by_address("ANN@example.ORG").name == "ann"
    with pytest.raises(ValueError):
        svc.create_account("bob", "ann@example.org", "pw")


def test_due_games_use_the_index_and_the_index_is_rebuilt_from_game_files(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, "alpha")
    seven_player_game(svc, "beta")
    plan = " ".join(r[3] for r in svc.judge.execute(
        "EXPLAIN QUERY PLAN SELECT name FROM game_index WHERE next_event_at IS NOT NULL AND next_event_at <= ? "
        "ORDER BY next_event_at LIMIT 10", ["2030-01-01T00:00:00Z"]))
    assert "game_index_due" in plan
    assert svc.due_games() == []
    assert svc.due_games(clock() + timedelta(days=30)) == ["alpha", "beta"]
    assert svc.due_games(clock() + timedelta(days=30), limit=1) == ["alpha"]
    svc.judge.execute("DELETE FROM game_index WHERE name = 'beta'")
    svc.judge.execute("DELETE FROM game_powers WHERE name = 'beta'")
    svc.judge.execute("UPDATE game_index SET next_event_at = NULL WHERE name = 'alpha'")
    assert svc.due_games(clock() + timedelta(days=30)) == []
    assert svc.sync_index() == 2
    assert svc.due_games(clock() + timedelta(days=30)) == ["alpha", "beta"]


def test_settings_round_trip_and_refuse_nonsense():
    s = Settings(movement_hours=72, reminder_hours=(2, 24), nmr_policy=NmrPolicy.WAIT, time_zone="Asia/Kolkata")
    assert Settings.from_json(s.to_json()) == s and s.reminder_hours == (24.0, 2.0)
    with pytest.raises(ValueError):
        Settings.from_json({"movment_hours": 3})
    with pytest.raises(ZoneInfoNotFoundError):
        Settings(time_zone="Mars/Olympus")
    with pytest.raises(ValueError):
        Settings(abandon_after=0)


def test_order_codec_round_trips_every_kind_of_order():
    stp = Location("stp", Coast.SOUTH)
    a = UnitRef(Location("par"), UnitKind.ARMY)
    examples = [
        Hold(a), Move(a, Location("bur")), Move(UnitRef(Location("lon")), Location("nwy"), True, ("nth",)),
        SupportHold(a, UnitRef(Location("mar"), None, "FRANCE")),
        SupportMove(UnitRef(Location("bot"), UnitKind.FLEET), UnitRef(Location("fin"), UnitKind.ARMY, "RUSSIA"), stp),
        Convoy(UnitRef(Location("nth"), UnitKind.FLEET), UnitRef(Location("lon"), UnitKind.ARMY), Location("nwy")),
        Retreat(a, Location("gas")), Disband(a), Build(UnitKind.FLEET, stp), Waive(),
    ]
    for order in examples:
        assert order_from_json(order_to_json(order)) == order
    load_variant("standard")


def test_an_older_judge_file_is_migrated_at_start_up(tmp_path):
    from judge.games.store import JUDGE_MIGRATIONS, JUDGE_SCHEMA
    from judge.storage.db import migrate, open_db
    old = open_db(tmp_path / "var" / "judge.sqlite")
    migrate(old, JUDGE_SCHEMA.as_of(1))  # as the first release left it
    old.execute("INSERT INTO game_index (name, variant, status, updated_at) VALUES ('x', 'standard', 'forming', '')")
    old.close()
    svc, clock = service(tmp_path)
    assert dict(svc.judge.execute("SELECT component, version FROM schema_versions"))["games"] == len(JUDGE_MIGRATIONS)
    assert "game_powers" in svc.judge.table_names()
    svc.judge.execute("DELETE FROM game_index")
    seven_player_game(svc, "alpha")
    assert svc.games_of("p-france") == [("alpha", "FRANCE")]
    assert svc.games_of("nobody") == []


def test_threads_share_a_service_and_two_services_share_the_files(tmp_path):
    """The daemon dispatches from a thread pool while the scheduler ticks: writers take turns."""
    from concurrent.futures import ThreadPoolExecutor
    from judge.games.service import GameService
    from test_games_helpers import submit, whole
    svc, clock = service(tmp_path)
    seven_player_game(svc, "busy")
    other = GameService(tmp_path / "var", clock=clock)
    units = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "FRANCE": "A PAR", "GERMANY": "A BER", "ITALY": "A ROM",
             "RUSSIA": "A MOS", "TURKEY": "A CON"}
    with ThreadPoolExecutor(max_workers=7) as pool:
        list(pool.map(lambda p: submit(svc if p < "M" else other, "busy", p,
                                       *whole(svc, "busy", p, f"{units[p]} H")), units))
    assert svc.due_games() == ["busy"]
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(lambda s: s.run_due(), [svc, other, svc, other]))
    assert sorted(v for d in done for v in d.values()).count("processed") == 1
    assert svc.status("busy").phase == "F1901M"


def test_a_crash_while_creating_a_game_leaves_nothing_in_the_way(tmp_path):
    svc, clock = service(tmp_path)
    open_game(tmp_path / "var", "half", create=True).close()  # the file, but the creation never committed
    assert svc.sync_index() == 0 and svc.list_games() == []
    svc.create_game("half")
    assert [g.name for g in svc.list_games()] == ["half"]


def test_the_quick_start_up_sweep_reindexes_only_the_game_files_changed_behind_the_index(tmp_path):
    """A crash between a game's commit and its index row leaves the file changed and the row old: the
    start-up sweep (quick) finds it by its fingerprint and rebuilds that row, and leaves the rest.
    The service keeps its files open as the daemon's does, and closes them as the daemon stops."""
    import sqlite3
    from judge.games.service import GameService
    svc, clock = service(tmp_path, keep_open=8)
    seven_player_game(svc, "alpha")
    seven_player_game(svc, "beta")
    svc.close_games()
    svc.judge.conn.close()
    written = dict(sqlite3.connect(tmp_path / "var" / "judge.sqlite").execute(
        "SELECT name, updated_at FROM game_index"))
    with sqlite3.connect(tmp_path / "var" / "games" / "beta.sqlite") as conn:      # committed, never indexed
        conn.execute("UPDATE game SET next_event_at = '2026-03-02T12:30:00Z' WHERE id = 1")
    clock.advance(hours=1)
    again = GameService(tmp_path / "var", clock=clock)
    assert again.sync_index(quick=True) == 2
    rows = {r[0]: r[1:] for r in again.judge.execute("SELECT name, updated_at, next_event_at FROM game_index")}
    assert rows["alpha"][0] == written["alpha"]                   # unchanged: not opened, not rewritten
    assert rows["beta"] == (clock().strftime("%Y-%m-%dT%H:%M:%SZ"), "2026-03-02T12:30:00Z")
    assert again.due_games(clock()) == ["beta"]
    clock.advance(hours=1)
    assert again.sync_index(quick=True) == 2                        # and now nothing is stale
    assert {r[0]: r[1] for r in again.judge.execute("SELECT name, updated_at FROM game_index")}["beta"] \
        == rows["beta"][0]


@pytest.mark.parametrize("obj", [
    {}, {"b": 1, "a": [1, 2.5, None, True]}, {"é": "ü – ♞", "nested": {"z": 1, "a": {"y": [], "b": {}}}},
    {"kind": "results", "powers": ["FRANCE"], "deadline": {"utc": "2026-06-01T12:00:00Z", "shown": {"UTC": "x"}}},
])
def test_a_notice_encoded_by_members_is_json_dumps_sorted(obj):
    from judge.games.gamefile import _joined, _members
    assert _joined(_members(obj)) == json.dumps(obj, sort_keys=True)


def test_every_copy_of_a_phases_notices_is_stored_as_its_sorted_json(tmp_path):
    """The copies of one announcement share their encoded members: each is still stored as the one
    encoding of its payload, with its own recipient, powers and deadline."""
    svc, clock = service(tmp_path)
    seven_player_game(svc, "alpha")
    submit(svc, "alpha", "FRANCE", "A PAR - BUR")
    process_at_deadline(svc, clock, "alpha")
    rows = open_game(tmp_path / "var", "alpha").execute(
        "SELECT recipient, payload FROM notices WHERE kind = 'results'").fetchall()
    assert len(rows) >= 8
    seated = []
    for recipient, text in rows:
        payload = json.loads(text)
        assert text == json.dumps(payload, sort_keys=True)
        assert payload["recipient"] == recipient and payload["deadline"]["utc"]
        seated += payload["powers"]
    assert sorted(seated) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
