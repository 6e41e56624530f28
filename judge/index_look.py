"""`judge list` and `judge status`, answered from judge.sqlite's games index with plain sqlite3.

Neither the games layer nor the engine is imported (tests/test_cli_start.py), so each costs little
more than Python's own start (bench/cli_start.py). The index row is a copy of the game file made by
the games layer whenever the game changes (GameService._reindex: `state` is what `status` shows),
with the file's fingerprint then: while the file's fingerprint is still the row's, the row is the
file. Where it may not be (the file changed since, a crash between the two, a row from before
`state`, a game in trouble, no index at all), the games layer answers as before (judge.games.cli):
`status` from that game's file, `list` after bringing the rows of the files that changed up to date.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

from .game_lines import Json, common_options, data_default, printed, status_text
from .storage.files import fingerprint, fingerprinted

EXAMPLES = {
    "list": "judge list --data /srv/judge/var",
    "status": "judge status spring26 --json",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, func, help_ in (("list", run_list, "list the games"),
                              ("status", run_status, "a game's state, powers and deadline")):
        p = subparsers.add_parser(name, help=help_, description=help_, epilog="example: " + EXAMPLES[name],
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        common_options(p)
        if name == "status":
            p.add_argument("game")
        p.set_defaults(func=func)


def run_list(args: argparse.Namespace) -> int:
    data = Path(args.data or data_default())
    games = listing(data, as_json=args.json, checked=True)
    if games is None:       # some file changed since its row was written: those rows are written again
        from .games.cli import sync_games
        status = sync_games(args)
        if status:
            return status
        games = listing(data, as_json=args.json, checked=False)
        if games is None:
            print("judge list: the games index cannot be read")
            return 1
    # (10,000 games' lines written at once; json imported only for --json: it is a tenth of a bare start)
    if args.json:
        import json
        games = json.dumps(games, indent=2, sort_keys=True)
    sys.stdout.write(f"{games}\n")
    return 0


def run_status(args: argparse.Namespace) -> int:
    state = state_of(Path(args.data or data_default()), args.game)
    if state is None:
        from .games.cli import game_status
        return game_status(args)
    return printed(args, state, status_text(state))


def _index(data: Path) -> sqlite3.Connection | None:
    """judge.sqlite, to read; None if there is none (the games layer makes it)."""
    path = data / "judge.sqlite"
    if not path.is_file():
        return None
    return sqlite3.connect(path, isolation_level=None, timeout=30)


# A game's line in `judge list`, made by SQLite: 10,000 lines cost a tenth of what Python's formatting
# of the rows does. (`!`: widths in characters, as Python counts them.)
LIST_LINE = "printf('%!-20s %!-9s %!-8s next %s', name, status, coalesce(phase, '-'), coalesce(next_event_at, '-'))"
LISTED = ("name", "variant", "status", "phase", "master", "next_event_at")     # ListedGame's fields


def listing(data: Path, *, as_json: bool, checked: bool) -> str | list[Json] | None:
    """Every game in the index, by name: its lines, or (`as_json`) its rows as JSON objects.
    `checked`: None when some game file is not as its row says (changed since, or without a row) or
    is damaged, for the games layer to look at again; also None when the index cannot be read."""
    try:
        conn = _index(data)
        if conn is None:
            return None
        with closing(conn):
            conn.execute("BEGIN")       # the rows and the troubles as of one moment
            # Each row's file name and fingerprint (none for a damaged game's, so that its file matches
            # none) with its listed line or fields: one pass over the covering index serves both the
            # check and the answer (10,000 games: two passes cost half as much again).
            wanted = LIST_LINE if not as_json else ", ".join(LISTED)
            rows = conn.execute(
                "SELECT name || '.sqlite', CASE WHEN name IN (SELECT name FROM game_trouble WHERE kind = 'damaged')"
                f" THEN NULL ELSE fingerprint END, {wanted} FROM game_index ORDER BY name").fetchall()
            if checked and not _as_files_are(data, {row[0]: row[1] for row in rows}):
                return None
            if as_json:
                return [dict(zip(LISTED, row[2:], strict=True)) for row in rows]
            return "\n".join([row[2] for row in rows]) or "no games"
    except sqlite3.Error:       # not at this judge's schema, or unreadable: the games layer says what
        return None


def _as_files_are(data: Path, fingerprints: dict[str, str | None]) -> bool:
    """Is every game file as its index row says: its fingerprint the one `fingerprints` holds by its
    file name? One stat a file, compared as it is made: this is most of what `judge list` costs
    with 10,000 games (bench/cli_start.py), and no cheaper check is sound: a game file copied over
    in place changes neither the directory nor any other file."""
    return all(fingerprints.get(name) == print_ for name, print_ in fingerprinted(data / "games", ".sqlite"))


def state_of(data: Path, game: str) -> Json | None:
    """The game's state (GameState's JSON) as its index row holds it, if the row is its file's (same
    fingerprint) and the game is in no trouble; else None."""
    try:
        conn = _index(data)
        if conn is None:
            return None
        with closing(conn):
            row = conn.execute(
                "SELECT state, fingerprint, EXISTS (SELECT 1 FROM game_trouble t WHERE t.name = g.name)"
                " FROM game_index g WHERE name = ?", [game.strip().lower()]).fetchone()
    except sqlite3.Error:
        return None
    if row is None or row[0] is None or row[2]:
        return None
    # (the name is one the index holds, so a file name: a game's name is checked when it is made)
    if fingerprint(data / "games" / f"{game.strip().lower()}.sqlite") != row[1]:
        return None
    import json
    state: Json = json.loads(row[0])
    return state
