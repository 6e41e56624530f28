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
    gf.db.table("access").delete_where("kind = 'password'")
    if password:
        _add(gf, "password", hash_password(password))


def allow(gf: GameFile, accounts: Iterable[str]) -> None:
    _list(gf, "allow", "deny", accounts)


def deny(gf: GameFile, accounts: Iterable[str]) -> None:
    _list(gf, "deny", "allow", accounts)


def remove(gf: GameFile, kind: str, accounts: Iterable[str]) -> None:
    """Take the accounts off one list (`allow` or `deny`): njudge's `ALLOW -sam`."""
    for account in accounts:
        gf.db.table("access").delete_where("kind = ? AND value = ?", [kind, account])


def clear(gf: GameFile, kind: str) -> None:
    """Empty one list: `ALLOW NONE` (anyone may join again, unless a join password is set), `DENY NONE`."""
    gf.db.table("access").delete_where("kind = ?", [kind])


def _list(gf: GameFile, kind: str, other: str, accounts: Iterable[str]) -> None:
    """Put the accounts on one list (once each) and off the other."""
    for account in accounts:
        gf.db.table("access").delete_where("kind = ? AND value = ?", [other, account])
        _add(gf, kind, account)


def _add(gf: GameFile, kind: str, value: str) -> None:
    gf.db.table("access").insert({"kind": kind, "value": value}, ignore=True)      # once: (kind, value) is the key


def _on(gf: GameFile, kind: str, account: str) -> bool:
    return gf.db["access"].count_where("kind = ? AND value = ?", [kind, account]) > 0


def rules(gf: GameFile) -> AccessRules:
    """What SUMMARY may show: whether a password is set, and the two lists."""
    rows = [(r["kind"], r["value"]) for r in gf.db["access"].rows_where(order_by="kind, value")]
    return AccessRules(password=any(k == "password" for k, _ in rows),
                       allow=tuple(v for k, v in rows if k == "allow"), deny=tuple(v for k, v in rows if k == "deny"))


def private(gf: GameFile) -> bool:
    return gf.db["access"].count_where("kind IN ('password', 'allow')") > 0


def check_may_join(gf: GameFile, account: str, join_password: str | None) -> None:
    """Raises GameError, with what to do, unless `account` may join (or take over a power in) the game."""
    if _on(gf, "deny", account):
        raise GameError(f"the game master of {gf.name} has not allowed you to join it")
    if not private(gf):
        return
    if _on(gf, "allow", account):
        return
    stored = next(gf.db["access"].rows_where("kind = 'password'", select="value"), None)
    if stored is not None and join_password and verify_password(join_password, stored["value"]):
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
