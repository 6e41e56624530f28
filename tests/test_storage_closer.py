"""judge.storage.closer and GameService.closing_aside: game files closed on a thread of their own."""
from __future__ import annotations

import os
import threading
from pathlib import Path

from judge.storage.closer import Closer
from test_games_helpers import seven_player_game, service


def test_the_closer_closes_each_file_on_its_own_thread_and_goes_on_past_a_failure():
    closed: list[tuple[str, str]] = []
    ended: list[str] = []

    def close(path: Path, handle: str) -> None:
        if handle == "bad":
            raise OSError("cannot")
        closed.append((handle, threading.current_thread().name))

    with Closer(close, most=2, ended=lambda: ended.append(threading.current_thread().name)) as closer:
        for handle in ("a", "bad", "b", "c", "d"):
            closer.hand(Path(handle), handle)
    assert [h for h, _ in closed] == ["a", "b", "c", "d"]                 # all of them, in order
    assert {t for _, t in closed} == {"file-closer"} and ended == ["file-closer"]


def test_a_rush_closes_the_files_past_those_kept_open_aside_and_all_of_them_by_its_end(tmp_path):
    svc, _ = service(tmp_path, keep_open=2)
    names = [f"g{i}" for i in range(5)]
    for name in names:
        seven_player_game(svc, name)
    svc.close_games()
    games = tmp_path / "var" / "games"
    closing = svc._close_game
    closed_on: dict[str, str] = {}

    def recorded(path: Path, db) -> None:
        closed_on[path.stem] = threading.current_thread().name
        closing(path, db)
    svc._close_game = recorded
    with svc.closing_aside():
        for name in names:
            svc.status(name)                 # each opened; the oldest past 2 handed to the closer
        assert len(svc._local.games) == 2
    assert closed_on == {name: "file-closer" for name in names[:3]}      # not on the thread that opened them
    # by the block's end every file handed was closed: its log checkpointed and removed
    kept = {p.stem for p in svc._local.games}
    for name in names:
        assert os.path.exists(games / f"{name}.sqlite-wal") == (name in kept), name
    assert svc._local.closer is None
    svc.close_games()
    assert not any(p.name.endswith("-wal") for p in games.iterdir())
