"""`judge list` and `judge status`, answered from judge.sqlite's games index with plain sqlite3.

Neither the games layer nor the engine is imported (tests/test_cli_start.py), so each costs little
more than Python's own start (bench/cli_start.py). The index row is a copy of the game file made by
the games layer whenever the game changes (GameService._reindex: `state` is what `status` shows),
with the file's fingerprint then: while the file's fingerprint is still the row's, the row is the
file. Where it may not be (the file changed since, a crash between the two, a row from before
`state`, a game in trouble, no index at all), the games layer answers as before (judge.games.cli):
`status` from that game's file, `list` after bringing the rows of the files that changed up to date.

`judge list` does not stat every game file each time (10,000 stats were most of its cost): once a
listing has found every file as its row says, it leaves a mark (`CHECKED`, beside judge.sqlite) of
the games directory as it was then (its device, inode, modification and change times) and of the
rows it checked (a CRC of every name and fingerprint). While both are as the mark says, no game
file was made, removed, renamed, or opened for writing since (SQLite makes a file's log or journal
beside it, which changes the directory), and judge.sqlite's rows are those checked: only the files
that had a log then (open in a running judge) are looked at again. A game file copied over another
in place by hand changes neither, so the keeper who does that runs `judge list --check`, which
checks every file (deploy/README.md, the keeper's guide); `judge restore` forgets the mark.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
import zlib
from contextlib import closing, suppress
from pathlib import Path

from .game_lines import Json, RawFormatter, common_options, data_default, printed, status_text
from .storage.files import fingerprint, fingerprinted

EXAMPLES = {
    "list": "judge list --data /srv/judge/var",
    "status": "judge status spring26 --json",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, func, help_ in (("list", run_list, "list the games"),
                              ("status", run_status, "a game's state, powers and deadline")):
        p = subparsers.add_parser(name, help=help_, description=help_, epilog="example: " + EXAMPLES[name],
                                  formatter_class=RawFormatter)
        common_options(p)
        if name == "status":
            p.add_argument("game")
        else:
            p.add_argument("--check", action="store_true",
                           help="check every game file against its index row (after copying one by hand)")
        p.set_defaults(func=func)


def run_list(args: argparse.Namespace) -> int:
    data = Path(args.data or data_default())
    games = listing(data, as_json=args.json, checked=True, every_file=args.check)
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


def listing(data: Path, *, as_json: bool, checked: bool, every_file: bool = False) -> str | list[Json] | None:
    """Every game in the index, by name: its lines, or (`as_json`) its rows as JSON objects.
    `checked`: None when some game file is not as its row says (changed since, or without a row) or
    is damaged, for the games layer to look at again; also None when the index cannot be read.
    Every file is looked at only where the mark (see the module's note) does not vouch for the
    rows, or with `every_file`."""
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
            if checked and (every_file or not _marked(data, rows)):
                games = data / "games"
                before = _directory_mark(games)
                if not _as_files_are(data, {row[0]: row[1] for row in rows}):
                    return None
                _leave_mark(data, before, rows)
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


# The mark a listing that found every game file as its row says leaves, beside judge.sqlite (not in
# games/, whose directory it describes).
CHECKED = "games-checked"
# A directory's time is kept by a coarse clock (a few ms; a second on some file systems): a change
# in the same tick as the last would leave the time as it was. So a mark is left only when the
# directory last changed longer ago than this: any later change then shows in its times.
SETTLED_NS = 2_000_000_000


def _directory_mark(games: Path) -> str | None:
    """The games directory's identity and times (one stat); None if there is none."""
    try:
        st = os.stat(games)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def _rows_mark(rows: list[tuple]) -> str:
    """A CRC of every row's file name and fingerprint, in order."""
    return str(zlib.crc32("\n".join([f"{row[0]} {row[1]}" for row in rows]).encode()))


def _marked(data: Path, rows: list[tuple]) -> bool:
    """Does the mark vouch for `rows`: the games directory and the rows as they were when every file
    was last found as its row says, and each file that had a log then (WAL: open in a judge; the only
    files a judge can write without changing the directory) still as its row says?"""
    try:
        mark = (data / CHECKED).read_text(encoding="ascii").split("\n")
    except (OSError, ValueError):
        return False
    if mark[:2] != [str(_directory_mark(data / "games")), _rows_mark(rows)]:
        return False
    games = data / "games"
    # (a fingerprint ends in ":-" when the file had no log; a damaged game's row has none at all)
    return all(row[1] is not None and (row[1].endswith(":-") or fingerprint(games / row[0]) == row[1])
               for row in rows)


def _leave_mark(data: Path, before: str | None, rows: list[tuple]) -> None:
    """Every game file was just found as `rows` say, the directory `before` the check began: mark it,
    if the directory is the same after the check and has been still for SETTLED_NS. The mark is a
    saving, not a record: if it cannot be written (a reader without the right to), it is not."""
    after = _directory_mark(data / "games")
    if after is None or after != before or time.time_ns() - int(after.split(":")[2]) < SETTLED_NS:
        return
    partial = data / f".{CHECKED}.{os.getpid()}"
    try:
        partial.write_text(f"{after}\n{_rows_mark(rows)}\n", encoding="ascii")
        os.replace(partial, data / CHECKED)
    except OSError:
        with suppress(OSError):
            partial.unlink(missing_ok=True)


def forget_mark(data: Path) -> None:
    """No listing trusts the index without looking at every game file until one has found them as
    their rows say (`judge restore`: files put in place of others)."""
    (Path(data) / CHECKED).unlink(missing_ok=True)


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
