"""Who may join a game: public by default; private with a join password, an invite list (ALLOW),
or both; anyone on the DENY list never. The master decides; an unlisted game (the `unlisted`
setting) is left out of LIST for everyone but its master and players, and `min_reliability` asks
for a record of orders sent (judge.games.records).

The join password is kept as a salted scrypt hash, like account passwords, in the game file's
`access` table, never in the settings (which SUMMARY shows). Names on the lists are accounts.
"""
from __future__ import annotations

from collections.abc import Iterable

from .accounts import hash_password, verify_password
from .answers import AccessRules
from .gamefile import GameFile
from .model import GameError
from .records import Record


def set_password(gf: GameFile, password: str | None) -> None:
    gf.db.execute("DELETE FROM access WHERE kind = 'password'")
    if password:
        gf.db.execute("INSERT INTO access (kind, value) VALUES ('password', ?)", [hash_password(password)])


def allow(gf: GameFile, accounts: Iterable[str]) -> None:
    for account in accounts:
        gf.db.execute("DELETE FROM access WHERE kind = 'deny' AND value = ?", [account])
        gf.db.execute("INSERT OR IGNORE INTO access (kind, value) VALUES ('allow', ?)", [account])


def deny(gf: GameFile, accounts: Iterable[str]) -> None:
    for account in accounts:
        gf.db.execute("DELETE FROM access WHERE kind = 'allow' AND value = ?", [account])
        gf.db.execute("INSERT OR IGNORE INTO access (kind, value) VALUES ('deny', ?)", [account])


def rules(gf: GameFile) -> AccessRules:
    """What SUMMARY may show: whether a password is set, and the two lists."""
    rows = gf.db.execute("SELECT kind, value FROM access ORDER BY kind, value").fetchall()
    return AccessRules(password=any(k == "password" for k, _ in rows),
                       allow=tuple(v for k, v in rows if k == "allow"), deny=tuple(v for k, v in rows if k == "deny"))


def private(gf: GameFile) -> bool:
    return gf.db.execute("SELECT 1 FROM access WHERE kind IN ('password', 'allow') LIMIT 1").fetchone() is not None


def check_may_join(gf: GameFile, account: str, join_password: str | None) -> None:
    """Raises GameError, with what to do, unless `account` may join (or take over a power in) the game."""
    if gf.db.execute("SELECT 1 FROM access WHERE kind = 'deny' AND value = ?", [account]).fetchone():
        raise GameError(f"the game master of {gf.name} has not allowed you to join it")
    if not private(gf):
        return
    if gf.db.execute("SELECT 1 FROM access WHERE kind = 'allow' AND value = ?", [account]).fetchone():
        return
    stored = gf.db.execute("SELECT value FROM access WHERE kind = 'password'").fetchone()
    if stored is not None and join_password and verify_password(join_password, stored[0]):
        return
    if stored is None:
        raise GameError(f"{gf.name} is private: only players its game master invites may join")
    raise GameError(f"{gf.name} is private: joining needs its join password from the game master"
                    + (" (that one is not it)" if join_password else ""))


def check_record(gf: GameFile, record: Record) -> None:
    """The master's minimum record to join (the `min_reliability` setting); newcomers may join."""
    least = gf.settings.min_reliability
    if least is None or record.reliability is None or record.reliability >= least:
        return
    raise GameError(f"{gf.name} asks for players who sent orders in at least {least:g}% of their phases;"
                    f" yours is {record.reliability:.0f}% over {record.phases} phases")
