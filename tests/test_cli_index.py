"""`judge status` and `judge list` answered from judge.sqlite's games index (judge.index_look) say
exactly what the games layer says from the game files (judge.games.cli), in text and in JSON; and
where a row may not be its file's (the file changed behind the index, a damaged game, a row from
before the index kept the state), the games layer answers instead. In-process: every check here
is the real `judge` command's `main` on a real data directory."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import time
from contextlib import closing
from dataclasses import asdict
from pathlib import Path

import pytest

from judge import index_look
from judge.cli import main
from judge.games import trouble
from judge.games.cli import game_status, sync_games
from judge.games.service import GameService
from judge.storage.files import fingerprint, fingerprints
from test_games_helpers import seven_player_game, submit

CASES = json.loads((Path(__file__).parent / "data" / "cli_index_cases.json").read_text())["cases"]


def made(data: Path, steps: list[list]) -> GameService:
    svc = GameService(data)
    for name, *args in steps:
        kwargs = args.pop() if args and isinstance(args[-1], dict) else {}
        if name == "seven":
            seven_player_game(svc, *args, settings=kwargs or None)
        elif name == "submit":
            submit(svc, *args)
        else:
            getattr(svc, name)(*args, **kwargs)
    return svc


def said(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def by_the_games_layer(capsys, command: str, data: Path, *, as_json: bool, game: str | None = None) -> str:
    """What the games layer prints (judge.games.cli), the index left aside."""
    args = argparse.Namespace(data=str(data), json=as_json, game=game, command=command)
    if command == "status":
        assert game_status(args) == 0
        return capsys.readouterr().out
    assert sync_games(args) == 0
    games = GameService(data).list_games(all_games=True)
    if as_json:
        return json.dumps([asdict(g) for g in games], indent=2, sort_keys=True) + "\n"
    lines = [f"{g.name:<20} {g.status:<9} {g.phase or '-':<8} next {g.next_event_at or '-'}" for g in games]
    return "\n".join(lines or ["no games"]) + "\n"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_the_index_says_what_the_game_files_say(case, tmp_path, capsys):
    data = tmp_path / "var"
    svc = made(data, case["steps"])
    games = [g.name for g in svc.list_games(all_games=True)]
    for as_json in (False, True):
        flag = ["--json"] if as_json else []
        assert index_look.listing(data, as_json=as_json, checked=True) is not None    # answered from the index
        assert said(capsys, "list", "--data", str(data), *flag) == \
            by_the_games_layer(capsys, "list", data, as_json=as_json)
        for game in games:
            assert index_look.state_of(data, game) is not None
            # the state as JSON, built field by field for speed, is what the dataclass's own deep copy says
            assert svc.status(game).to_json() == asdict(svc.status(game))
            assert said(capsys, "status", game, "--data", str(data), *flag) == \
                by_the_games_layer(capsys, "status", data, as_json=as_json, game=game)


@pytest.fixture(scope="module")
def made_once(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("two") / "var"
    svc = GameService(data)
    seven_player_game(svc, "alpha")
    seven_player_game(svc, "beta")
    svc.judge.conn.close()
    return data


@pytest.fixture
def two_games(made_once, tmp_path):
    """Two games under way, their index as the games layer left it: a copy of one data directory
    (times kept, so each file's fingerprint is still its row's)."""
    data = shutil.copytree(made_once, tmp_path / "var")
    return data, GameService(data)


def test_a_game_file_changed_behind_the_index_is_read_from_its_file(two_games, capsys):
    data, svc = two_games
    with sqlite3.connect(data / "games" / "alpha.sqlite") as game:   # as a crash before the index was written
        game.execute("UPDATE game SET status = 'paused'")
    game.close()
    assert index_look.state_of(data, "alpha") is None and index_look.state_of(data, "beta") is not None
    assert index_look.listing(data, as_json=False, checked=True) is None
    assert said(capsys, "status", "alpha", "--data", str(data)).startswith("alpha: paused,")
    listed = said(capsys, "list", "--data", str(data))     # the changed file's row written again first
    assert [line.split()[1] for line in listed.splitlines()] == ["paused", "active"]
    assert index_look.listing(data, as_json=False, checked=True) == listed.rstrip("\n")


def test_a_damaged_game_and_a_row_without_its_state_are_left_to_the_games_layer(two_games, capsys):
    data, svc = two_games
    trouble.mark(svc.judge, "alpha", trouble.DAMAGED, "games/alpha.sqlite: test", "2026-03-02T12:00:00Z")
    svc.judge.execute("UPDATE game_index SET state = NULL WHERE name = 'beta'")
    assert index_look.state_of(data, "alpha") is None and index_look.state_of(data, "beta") is None
    assert index_look.listing(data, as_json=False, checked=True) is None
    assert main(["status", "alpha", "--data", str(data)]) == 1
    assert "damaged" in capsys.readouterr().out
    assert said(capsys, "status", "beta", "--data", str(data)).startswith("beta: active,")


def test_a_game_the_index_does_not_hold_and_no_index_at_all(tmp_path, capsys):
    assert index_look.listing(tmp_path / "var", as_json=False, checked=True) is None
    assert said(capsys, "list", "--data", str(tmp_path / "var")) == "no games\n"    # the games layer made it
    assert index_look.listing(tmp_path / "var", as_json=False, checked=True) == "no games"
    assert main(["status", "nothing", "--data", str(tmp_path / "var")]) == 1
    assert "nothing" in capsys.readouterr().out
    assert main(["status", "../judge", "--data", str(tmp_path / "var")]) == 1


def test_every_game_files_fingerprint_at_once_is_each_ones_own(two_games):
    data, _ = two_games
    games = data / "games"
    (games / "notes.txt").write_text("not a game")
    open_one = sqlite3.connect(games / "beta.sqlite")      # its log is there while it is open
    open_one.execute("SELECT count(*) FROM game").fetchone()
    assert (games / "beta.sqlite-wal").exists() and not (games / "alpha.sqlite-wal").exists()
    assert fingerprints(games, ".sqlite") == {p.stem: fingerprint(p) for p in games.glob("*.sqlite")}
    open_one.close()
    assert fingerprints(data / "nowhere", ".sqlite") == {}


MARK_CASES = json.loads((Path(__file__).parent / "data" / "cli_list_mark_cases.json").read_text())["cases"]


def settled(games: Path, *, ahead: bool = False) -> None:
    """The games directory's time ten seconds back (still long enough for a listing to leave its
    mark), or `ahead` an hour on (changed too lately for any mark)."""
    now = time.time_ns() + (3600 if ahead else -10) * 1_000_000_000
    os.utime(games, ns=(now, now))


def paused_copy(data: Path, tmp_path: Path) -> Path:
    """A copy of alpha's file, paused: made outside the games directory."""
    copy = tmp_path / "alpha-paused.sqlite"
    with closing(sqlite3.connect(data / "games" / "alpha.sqlite")) as src, closing(sqlite3.connect(copy)) as dst:
        src.backup(dst)
        dst.execute("UPDATE game SET status = 'paused'")
        dst.commit()
        dst.execute("PRAGMA journal_mode=DELETE")      # one file, no log beside it
    return copy


def statuses(capsys, data: Path, *flags: str) -> list[str]:
    return [line.split()[1] for line in said(capsys, "list", "--data", str(data), *flags).splitlines()]


@pytest.mark.parametrize("case", MARK_CASES, ids=lambda c: c["route"])
def test_a_listing_trusts_its_mark_and_notices_what_changes_the_directory_or_the_index(case, two_games, tmp_path,
                                                                                       capsys):
    data, svc = two_games
    svc.judge.conn.close()
    games, alpha, route = data / "games", data / "games" / "alpha.sqlite", case["route"]
    copy = paused_copy(data, tmp_path)
    judge_before = tmp_path / "judge-before.sqlite"
    with closing(sqlite3.connect(data / "judge.sqlite")) as src, closing(sqlite3.connect(judge_before)) as dst:
        src.backup(dst)
    held = sqlite3.connect(alpha) if route.startswith("written by a judge") else None   # its log there
    if held is not None:
        held.execute("SELECT count(*) FROM game").fetchone()
    if route == "judge.sqlite put back from before":       # the index brought up to date with a paused alpha
        with closing(sqlite3.connect(alpha)) as game, game:
            game.execute("UPDATE game SET status = 'paused'")
        assert statuses(capsys, data) == ["paused", "active"]
    for _ in range(2):          # (the first, where a file has a log its row lacks, writes that row again)
        settled(games)
        assert statuses(capsys, data) == (["paused", "active"] if route.startswith("judge.sqlite") else
                                          ["active", "active"])
    assert (data / index_look.CHECKED).exists()
    if route == "written with sqlite3":
        with closing(sqlite3.connect(alpha)) as game, game:
            game.execute("UPDATE game SET status = 'paused'")
    elif held is not None:
        with held:
            held.execute("UPDATE game SET status = 'paused'")
    elif route == "renamed over the file":
        shutil.copyfile(copy, games / ".alpha.new")
        os.replace(games / ".alpha.new", alpha)
    elif route == "removed, then copied anew":
        alpha.unlink()
        shutil.copyfile(copy, alpha)
    elif route == "judge.sqlite put back from before":
        with closing(sqlite3.connect(judge_before)) as src, closing(sqlite3.connect(data / "judge.sqlite")) as dst:
            src.backup(dst)
    else:       # copied over in place, as cp does: the same file, truncated and written
        if route.endswith("ahead"):
            settled(games, ahead=True)
            assert statuses(capsys, data) == ["active", "active"]      # every file looked at: no mark left
        with open(alpha, "r+b") as target:
            target.truncate(0)
            target.write(copy.read_bytes())
    assert statuses(capsys, data) == (["paused", "active"] if case["noticed"] else ["active", "active"])
    assert statuses(capsys, data, "--check") == ["paused", "active"]
    assert statuses(capsys, data) == ["paused", "active"]
    if held is not None:
        held.close()
