"""Where games live on disk: one SQLite file per game, and the "games" part of judge.sqlite.

Every file is opened and migrated through `judge.storage.db`. The schema only grows by
appending migration steps here, and the current schema (`_game_current`, `_judge_current`) that a
new file gets at once changes with them; a file written by an older judge is brought up to date
when it is opened. Nothing is edited by hand.

SQLite transactions do not span files, so everything about one game (its position, orders,
results and the notices that announce them) is written in the game file in one transaction.
The index row in judge.sqlite is a cache of the game file, repaired by `GameIndex.sync`.
"""
from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import sqlite_utils

from ..storage.db import Schema, create_table, mark_checked, migrate, open_db
from ..storage.files import fingerprint, fingerprints
from . import trouble
from .model import GameError, Refusal
from .answers import NoSuchGame

GAME_COMPONENT = "game"
JUDGE_COMPONENT = "games"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


def check_game_name(name: str) -> str:
    """Game names are file names too: short, lower case letters, digits, '-' and '_'."""
    key = name.strip().lower()
    if not _NAME.fullmatch(key):
        raise GameError(why=Refusal.BAD_GAME_NAME, name=name[:60])
    return key


# -- the game file ---------------------------------------------------------------------------------

def _game_v1(db: sqlite_utils.Database) -> None:
    db.executescript("""
        CREATE TABLE game (
            id INTEGER PRIMARY KEY CHECK (id = 1),   -- one row
            name TEXT NOT NULL,
            variant TEXT NOT NULL,
            edition TEXT NOT NULL,                   -- rules edition: 5th, 2000, 1982
            settings TEXT NOT NULL,                  -- JSON, see model.Settings
            status TEXT NOT NULL,                    -- forming, active, paused, finished
            master TEXT,                             -- account name of the game master
            seed INTEGER NOT NULL,                   -- for power assignment and the WWI coin
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            paused_at TEXT,
            result TEXT,                             -- JSON once finished
            phase_seq INTEGER,                       -- the current row of `phases`
            next_event_at TEXT                       -- when the scheduler must look at this game
        );
        CREATE TABLE signups (
            account TEXT PRIMARY KEY,
            preferences TEXT NOT NULL DEFAULT '[]',  -- JSON list of seats, best first
            joined_at TEXT NOT NULL
        );
        CREATE TABLE powers (
            power TEXT PRIMARY KEY,
            account TEXT,                            -- NULL: neutral, or open for takeover
            status TEXT NOT NULL,                    -- model.PowerStatus
            missed INTEGER NOT NULL DEFAULT 0,       -- phases missed in a row
            waiting INTEGER NOT NULL DEFAULT 0,      -- asked the game to wait this phase
            neutral INTEGER NOT NULL DEFAULT 0       -- nobody plays it (games for fewer players)
        );
        CREATE TABLE power_history (
            id INTEGER PRIMARY KEY,
            power TEXT NOT NULL,
            account TEXT,
            at TEXT NOT NULL,
            phase TEXT,
            event TEXT NOT NULL                      -- assigned, abandoned, replaced, resigned, returned, joined-ally
        );
        CREATE TABLE phases (
            seq INTEGER PRIMARY KEY,                 -- grows by one per phase played, rollbacks included
            phase TEXT NOT NULL,                     -- S1901M
            position TEXT NOT NULL,                  -- JSON, judge.engine.notation
            started_at TEXT NOT NULL,
            deadline TEXT,                           -- UTC ISO; NULL while paused
            late_noticed INTEGER NOT NULL DEFAULT 0,
            reminded TEXT NOT NULL DEFAULT '[]',     -- JSON: reminder hours already handled for this deadline
            processed_at TEXT,
            result TEXT,                             -- JSON once processed
            rolled_back INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE submissions (
            id INTEGER PRIMARY KEY,
            phase_seq INTEGER NOT NULL REFERENCES phases(seq),
            power TEXT NOT NULL,
            at TEXT NOT NULL,
            source TEXT,                             -- the inbound message it came from
            action TEXT NOT NULL,                    -- orders, clear
            written TEXT NOT NULL,                   -- the text as the player wrote it
            read TEXT NOT NULL                       -- JSON: the orders as read
        );
        CREATE INDEX submissions_phase ON submissions(phase_seq, power);
        CREATE TABLE orders (
            phase_seq INTEGER NOT NULL REFERENCES phases(seq),
            power TEXT NOT NULL,
            slot TEXT NOT NULL,                      -- the unit's province, or the adjustment's place in line
            position INTEGER NOT NULL,               -- order of writing, which adjustments count by
            written TEXT NOT NULL,
            read TEXT NOT NULL,                      -- canonical notation
            submission_id INTEGER NOT NULL REFERENCES submissions(id),
            PRIMARY KEY (phase_seq, power, slot)
        );
        CREATE TABLE press (
            id INTEGER PRIMARY KEY,
            phase_seq INTEGER,
            at TEXT NOT NULL,
            sender TEXT NOT NULL,                    -- a power, or 'MASTER'
            recipients TEXT NOT NULL,                -- JSON list of powers; all for broadcast
            shown_as TEXT NOT NULL,                  -- the sender as recipients see it (grey press: 'anonymous')
            body TEXT NOT NULL,
            source TEXT
        );
        CREATE TABLE votes (
            power TEXT NOT NULL,
            kind TEXT NOT NULL,                      -- draw, concede
            value TEXT NOT NULL,                     -- draw: yes/no; concede: the power conceded to
            at TEXT NOT NULL,
            PRIMARY KEY (power, kind)
        );
        CREATE TABLE absences (
            id INTEGER PRIMARY KEY,
            account TEXT NOT NULL,
            starts TEXT NOT NULL,
            ends TEXT NOT NULL,
            set_by TEXT NOT NULL,                    -- player or master
            at TEXT NOT NULL
        );
        CREATE TABLE notices (
            id TEXT PRIMARY KEY,                     -- game:seq:kind[:recipient], stable across retries
            created_at TEXT NOT NULL,
            kind TEXT NOT NULL,
            recipient TEXT,                          -- a power, 'MASTER', or NULL for everyone
            payload TEXT NOT NULL,                   -- JSON: everything a report needs
            queued_at TEXT
        );
        CREATE INDEX notices_pending ON notices(queued_at) WHERE queued_at IS NULL;
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            kind TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}'
        );
    """)


def _game_v2(db: sqlite_utils.Database) -> None:
    """A message may be dispatched twice (after a crash): its source finds what it already did."""
    db.executescript("""
        CREATE INDEX submissions_source ON submissions(source) WHERE source IS NOT NULL;
        CREATE INDEX press_source ON press(source) WHERE source IS NOT NULL;
    """)


def _game_v3(db: sqlite_utils.Database) -> None:
    """Settings from before the draw rule had a name. The old `draw_unanimous` was never read: every
    draw needed all survivors, which is draw_rule "all survivors"."""
    for row in db["game"].rows_where("id = 1", select="settings"):
        settings = json.loads(row["settings"])
        if "draw_unanimous" in settings:
            del settings["draw_unanimous"]
            settings.setdefault("draw_rule", "all survivors")
            db.table("game").update(1, {"settings": json.dumps(settings)})


def _game_v4(db: sqlite_utils.Database) -> None:
    """Each phase keeps the powers as they were when it began, so a rollback to it can put back each
    power's status and phases missed (JSON {power: {"account", "status", "missed"}}; NULL in rows
    from before, for which a rollback does what it did then)."""
    db.table("phases").add_column("powers", str)


def _game_v5(db: sqlite_utils.Database) -> None:
    """Private games: a join password (hashed) and the master's ALLOW and DENY lists (accounts)."""
    db.execute("""
        CREATE TABLE access (
            kind TEXT NOT NULL CHECK (kind IN ('password', 'allow', 'deny')),
            value TEXT NOT NULL,                     -- the password's scrypt hash, or an account
            PRIMARY KEY (kind, value)
        )""")


def _game_v6(db: sqlite_utils.Database) -> None:
    """Facts for the players' records across games (judge.games.records)."""
    # seq: the phase it is about; kind: one of records.KINDS
    create_table(db, "records", {"seq": int, "power": str, "account": str, "kind": str},
                 pk=("seq", "power", "kind"), foreign_keys=[("seq", "phases", "seq")])


def _game_v7(db: sqlite_utils.Database) -> None:
    """Co-masters (PROMOTE): accounts with the master's rights beside the one in `game.master`."""
    create_table(db, "comasters", {"account": str, "since": str}, pk="account")


def _game_v8(db: sqlite_utils.Database) -> None:
    """The setting `missed_orders` (Settings): a game made before it keeps the rule it was played by,
    the rulebooks' (a power that missed a move loses its dislodged units); new games get the hobby's."""
    db.execute("UPDATE game SET settings = json_set(settings, '$.missed_orders', 'book')"
               " WHERE json_extract(settings, '$.missed_orders') IS NULL")


def _game_v9(db: sqlite_utils.Database) -> None:
    """Excused misses (judge.games.excuses): how many each power's seat has spent, and whether a phase's
    deadline was moved by one already (a deadline moves so once)."""
    db.table("powers").add_column("excuses_used", int, not_null_default=0)
    db.table("phases").add_column("excused", int, not_null_default=0)


def _game_v10(db: sqlite_utils.Database) -> None:
    """Offers of an open power to standbys (judge.games.standby): one row per power and account asked,
    written with the offer's mail in one transaction, so a restart neither loses nor repeats one."""
    create_table(db, "offers", {"power": str, "account": str, "sent_at": str, "expires_at": str},
                 pk=("power", "account"), nullable={"expires_at"})


def _game_v11(db: sqlite_utils.Database) -> None:
    """The master's SEEK (a power offered to the standbys while its player still plays it) and takeovers
    held for the master's APPROVE (judge.games.takeovers): one row per power sought, one per request."""
    create_table(db, "seeking", {"power": str, "since": str}, pk="power")
    create_table(db, "takeover_requests", {"power": str, "account": str, "at": str}, pk=("power", "account"))


def _game_v12(db: sqlite_utils.Database) -> None:
    """Orders for a later phase (njudge's PHASE, judge.games.later_orders): kept as read, by the phase's
    code, until that phase opens; `state` waiting, then used or void, and `void` the lines found void then."""
    create_table(db, "later_orders", {"id": int, "phase": str, "power": str, "account": str, "at": str,
                                      "source": str, "written": str, "read": str, "state": str, "void": str},
                 pk="id", nullable={"account", "source"}, defaults={"state": "waiting", "void": "[]"})
    db.table("later_orders").create_index(["phase", "state"], index_name="later_orders_phase")


def _game_v13(db: sqlite_utils.Database) -> None:
    """Diaries (njudge's DIARY, judge.games.diaries): each entry numbered per power and player, the
    mail it came in (`source`) so a mail read twice keeps it once; a deleted entry keeps its number."""
    create_table(db, "diary", {"id": int, "power": str, "account": str, "number": int, "at": str, "phase": str,
                               "body": str, "source": str, "deleted": int}, pk="id",
                 nullable={"account", "phase", "source"}, defaults={"deleted": 0})


def _game_current(db: sqlite_utils.Database) -> None:
    """A new game file, made as the steps above leave one (tests/test_storage_schema.py holds them equal)."""
    # Raw SQL: the table API cannot write a CHECK, and this one keeps the table to one row.
    db.execute("""
        CREATE TABLE game (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL, variant TEXT NOT NULL, edition TEXT NOT NULL, settings TEXT NOT NULL,
            status TEXT NOT NULL, master TEXT, seed INTEGER NOT NULL, created_at TEXT NOT NULL, started_at TEXT,
            finished_at TEXT, paused_at TEXT, result TEXT, phase_seq INTEGER, next_event_at TEXT
        )""")
    create_table(db, "signups", {"account": str, "preferences": str, "joined_at": str}, pk="account",
                 defaults={"preferences": "[]"})
    create_table(db, "powers", {"power": str, "account": str, "status": str, "missed": int, "waiting": int,
                                "neutral": int, "excuses_used": int}, pk="power", nullable={"account"},
                 defaults={"missed": 0, "waiting": 0, "neutral": 0, "excuses_used": 0})
    create_table(db, "power_history", {"id": int, "power": str, "account": str, "at": str, "phase": str,
                                       "event": str}, pk="id", nullable={"account", "phase"})
    create_table(db, "phases", {"seq": int, "phase": str, "position": str, "started_at": str, "deadline": str,
                                "late_noticed": int, "reminded": str, "processed_at": str, "result": str,
                                "rolled_back": int, "powers": str, "excused": int}, pk="seq",
                 nullable={"deadline", "processed_at", "result", "powers"},
                 defaults={"late_noticed": 0, "reminded": "[]", "rolled_back": 0, "excused": 0})
    create_table(db, "submissions", {"id": int, "phase_seq": int, "power": str, "at": str, "source": str,
                                     "action": str, "written": str, "read": str}, pk="id", nullable={"source"},
                 foreign_keys=[("phase_seq", "phases", "seq")])
    db.table("submissions").create_index(["phase_seq", "power"], index_name="submissions_phase")
    create_table(db, "orders", {"phase_seq": int, "power": str, "slot": str, "position": int, "written": str,
                                "read": str, "submission_id": int}, pk=("phase_seq", "power", "slot"),
                 foreign_keys=[("phase_seq", "phases", "seq"), ("submission_id", "submissions", "id")])
    create_table(db, "press", {"id": int, "phase_seq": int, "at": str, "sender": str, "recipients": str,
                               "shown_as": str, "body": str, "source": str}, pk="id",
                 nullable={"phase_seq", "source"})
    create_table(db, "votes", {"power": str, "kind": str, "value": str, "at": str}, pk=("power", "kind"))
    create_table(db, "absences", {"id": int, "account": str, "starts": str, "ends": str, "set_by": str,
                                  "at": str}, pk="id")
    create_table(db, "notices", {"id": str, "created_at": str, "kind": str, "recipient": str, "payload": str,
                                 "queued_at": str}, pk="id", nullable={"recipient", "queued_at"})
    create_table(db, "events", {"id": int, "at": str, "kind": str, "detail": str}, pk="id",
                 defaults={"detail": "{}"})
    # Raw SQL: the table API makes no partial index (WHERE), nor a CHECK.
    db.executescript("""
        CREATE INDEX notices_pending ON notices(queued_at) WHERE queued_at IS NULL;
        CREATE INDEX submissions_source ON submissions(source) WHERE source IS NOT NULL;
        CREATE INDEX press_source ON press(source) WHERE source IS NOT NULL;
        CREATE TABLE access (
            kind TEXT NOT NULL CHECK (kind IN ('password', 'allow', 'deny')),
            value TEXT NOT NULL,
            PRIMARY KEY (kind, value)
        );
    """)
    _game_v6(db)        # records
    _game_v7(db)        # comasters
    _game_v10(db)       # offers
    _game_v11(db)       # seeking, takeover_requests
    _game_v12(db)       # later_orders
    _game_v13(db)       # diary


# Every step since the first release stays: a game file from any judge since then opens.
GAME_MIGRATIONS = [_game_v1, _game_v2, _game_v3, _game_v4, _game_v5, _game_v6, _game_v7, _game_v8, _game_v9,
                   _game_v10, _game_v11, _game_v12, _game_v13]
GAME_SCHEMA = Schema(GAME_COMPONENT, GAME_MIGRATIONS, current=_game_current)


@functools.lru_cache(maxsize=4096)
def game_path(data: Path, name: str) -> Path:
    """The game's file. Kept for the games used last: an order mail asks for its game's path ten
    times, and making a Path is most of that (bench/backlog.py); a bad name still raises each time."""
    return Path(data) / "games" / f"{check_game_name(name)}.sqlite"


def game_exists(data: Path, name: str) -> bool:
    """A game file with its game row. A file without one is what a crash during creation leaves;
    creating the game again reuses it."""
    path = game_path(data, name)
    if not path.exists():
        return False
    db = open_game(data, name)
    try:
        return db["game"].count == 1
    finally:
        db.close()


def open_game(data: Path, name: str, *, create: bool = False) -> sqlite_utils.Database:
    path = game_path(data, name)
    if not create and not path.exists():
        raise NoSuchGame(name)
    db = open_db(path)
    migrate(db, GAME_SCHEMA)
    return db


# -- judge.sqlite, component "games" ---------------------------------------------------------------

def _judge_v1(db: sqlite_utils.Database) -> None:
    db.executescript("""
        CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            password TEXT,                           -- scrypt$n$r$p$salt$hash, never the password
            time_zone TEXT NOT NULL DEFAULT 'UTC',
            keeper INTEGER NOT NULL DEFAULT 0,       -- the judge keeper
            created_at TEXT NOT NULL
        );
        CREATE TABLE addresses (
            address TEXT PRIMARY KEY COLLATE NOCASE,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            added_at TEXT NOT NULL
        );
        CREATE INDEX addresses_account ON addresses(account_id);
        CREATE TABLE game_index (
            name TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            status TEXT NOT NULL,
            phase TEXT,
            master TEXT,
            next_event_at TEXT,                      -- NULL: nothing scheduled
            pending_notices INTEGER NOT NULL DEFAULT 0,  -- notices the mail layer has not queued yet
            updated_at TEXT NOT NULL
        );
        CREATE INDEX game_index_due ON game_index(next_event_at) WHERE next_event_at IS NOT NULL;
        CREATE INDEX game_index_notices ON game_index(pending_notices) WHERE pending_notices > 0;
    """)


def _judge_v2(db: sqlite_utils.Database) -> None:
    """Who plays what, so mail from an address can be routed to its games without opening them all."""
    # name: a game in game_index (a cache, like it)
    create_table(db, "game_powers", {"name": str, "power": str, "account": str, "status": str},
                 pk=("name", "power"), nullable={"account"})
    db.table("game_powers").create_index(["account"], index_name="game_powers_account")


def _judge_v3(db: sqlite_utils.Database) -> None:
    """Observers: accounts that get a game's public announcements without playing."""
    create_table(db, "observers", {"name": str, "account": str, "since": str}, pk=("name", "account"))


def _judge_v4(db: sqlite_utils.Database) -> None:
    """Unlisted games: LIST leaves them out for everyone but their master and players."""
    db.table("game_index").add_column("listed", int, not_null_default=1)


def _judge_v5(db: sqlite_utils.Database) -> None:
    """Each game's share of its players' records (a cache of the game files, like game_index)."""
    create_table(db, "player_records", {"name": str, "account": str, "on_time": int, "late": int, "missed": int,
                                        "civil_disorder": int, "abandoned": int, "finished": int},
                 pk=("account", "name"))


def _judge_v6(db: sqlite_utils.Database) -> None:
    """What each game file looked like when its row was written (`fingerprint`) and its schema then:
    at start-up a file that has not changed since needs neither opening nor checking."""
    db.table("game_index").add_column("fingerprint", str)
    db.table("game_index").add_column("schema", int)


def _judge_v7(db: sqlite_utils.Database) -> None:
    """The standby list (STANDBY): accounts willing to take over an open power, and in which variants
    ("ANY", or variant ids separated by commas)."""
    create_table(db, "standbys", {"account": str, "variants": str, "since": str}, pk="account")


def _judge_v8(db: sqlite_utils.Database) -> None:
    """Addresses claimed for an account (njudge's I AM ALSO, judge.games.address_claims): the address (lower
    case), the account, the code mailed there (its SHA-256) and when; one claim per address."""
    create_table(db, "address_claims", {"address": str, "account_id": int, "code": str, "sent_at": str},
                 pk="address", foreign_keys=[("account_id", "accounts", "id")])


def _judge_v9(db: sqlite_utils.Database) -> None:
    """Each game as `judge status` shows it (`state`: GameService.status for nobody in particular, as
    JSON), written with the rest of the row, so that the command line answers from the index alone
    (judge.index_look) while the row's fingerprint is the file's. NULL until the row is next written."""
    db.table("game_index").add_column("state", str)
    _list_index(db)


def _list_index(db: sqlite_utils.Database) -> None:
    """`judge list` and the start-up sweep (stale_game_files) read every row: from this index alone,
    not from the rows themselves, each a page or so now that it holds `state`."""
    db.execute("CREATE INDEX game_index_list ON game_index(name, variant, status, phase, master, next_event_at,"
               " fingerprint, schema)")


def _judge_v10(db: sqlite_utils.Database) -> None:
    """A game's rows of player_records found by its name: every write to a game reads and may rewrite
    them (GameService._index_rows), and the key (account, name) made each a scan of every game's rows
    (1 ms a write among 1,000 games, 10 among 10,000)."""
    db.execute("CREATE INDEX player_records_game ON player_records(name)")


def _judge_current(db: sqlite_utils.Database) -> None:
    """The games part of a new judge.sqlite, as the steps above leave it."""
    # Raw SQL: the table API writes no COLLATE (names and addresses match in any case) and no UNIQUE
    # constraint.
    db.executescript("""
        CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            password TEXT,
            time_zone TEXT NOT NULL DEFAULT 'UTC',
            keeper INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE TABLE addresses (
            address TEXT PRIMARY KEY COLLATE NOCASE,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            added_at TEXT NOT NULL
        );
    """)
    db.table("addresses").create_index(["account_id"], index_name="addresses_account")
    create_table(db, "game_index", {"name": str, "variant": str, "status": str, "phase": str, "master": str,
                                    "next_event_at": str, "pending_notices": int, "updated_at": str,
                                    "listed": int, "fingerprint": str, "schema": int, "state": str}, pk="name",
                 nullable={"phase", "master", "next_event_at", "fingerprint", "schema", "state"},
                 defaults={"pending_notices": 0, "listed": 1})
    # Raw SQL: partial indexes.
    db.executescript("""
        CREATE INDEX game_index_due ON game_index(next_event_at) WHERE next_event_at IS NOT NULL;
        CREATE INDEX game_index_notices ON game_index(pending_notices) WHERE pending_notices > 0;
    """)
    _list_index(db)
    _judge_v2(db)       # game_powers
    _judge_v3(db)       # observers
    _judge_v5(db)       # player_records
    _judge_v10(db)      # player_records by game
    _judge_v7(db)       # standbys
    _judge_v8(db)       # address_claims


# Every step since the first release stays: a judge file from any judge since then opens.
JUDGE_MIGRATIONS = [_judge_v1, _judge_v2, _judge_v3, _judge_v4, _judge_v5, _judge_v6, _judge_v7, _judge_v8,
                    _judge_v9, _judge_v10]
JUDGE_SCHEMA = Schema(JUDGE_COMPONENT, JUDGE_MIGRATIONS, current=_judge_current)


def game_files(data: Path) -> list[Path]:
    """Every game file, by name. Names sorted as strings, not as Paths: pathlib's comparisons cost
    `judge list` a third of its time with 10,000 games."""
    games = Path(data) / "games"
    try:
        with os.scandir(games) as entries:
            names = sorted(e.name for e in entries if e.name.endswith(".sqlite") and e.is_file())
    except FileNotFoundError:
        return []
    return [games / name for name in names]


def stale_game_files(data: Path, judge: sqlite_utils.Database | None, paths: list[Path] | None = None) -> list[Path]:
    """The game files whose index row may not match them (changed since it was written, or written by
    a judge with an older schema), or every game file when the index cannot tell. `paths`: the game
    files, when the caller has them (game_files)."""
    paths = game_files(data) if paths is None else paths
    known: dict[str, tuple[str, int]] = {}
    if judge is not None and judge["game_index"].exists() and "fingerprint" in judge["game_index"].columns_dict:
        known = {r["name"]: (r["fingerprint"], r["schema"])
                 for r in judge["game_index"].rows_where(select="name, fingerprint, schema")}
    games = Path(data) / "games"
    prints = fingerprints(games, ".sqlite")     # one listing, a stat a file (most have no log)

    def now(path: Path) -> str | None:
        return prints.get(path.stem) if path.parent == games else fingerprint(path)
    return [p for p in paths if known.get(p.stem) != (now(p), len(GAME_MIGRATIONS))]


def game_checked(path: Path) -> None:
    """An unchanged game file whose schema the index vouches for: this process need not check it."""
    mark_checked(path, GAME_SCHEMA)


def open_judge(data: Path, *, synchronous: str = "FULL") -> sqlite_utils.Database:
    db = open_db(Path(data) / "judge.sqlite", synchronous=synchronous)
    migrate(db, JUDGE_SCHEMA)
    trouble.prepare(db)
    return db


def sound(db: sqlite_utils.Database) -> str | None:
    """SQLite's quick_check of an open game file: None when sound, else what it found (its first lines).
    It reads every page (bench/doctor_games.py: 0.6 ms for a new game's 140 KiB, 27 ms for 1.9 MiB), so
    start-up runs it only on files that changed since the index saw them."""
    rows = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
    return None if rows == ["ok"] else "; ".join(rows)
