"""Accounts that follow a player across the hosts of one judge (judge.mail.federation.shards).

A player registers once, on whichever host their mail reaches, and signs on to games on every host
with the same name and password. After each mail a host handles, the accounts it concerned (the
sender's, the one signed in, one just registered) are compared with what this host last sent or
received of them; an account whose state changed goes to every `[shard] peers` address as a signed
`accounts` mail, through the outbox, in the transaction that records its new version.

An account's state is its name, password hash (scrypt: the password itself never travels), time
zone and addresses; the keeper flag stays per host. Each state carries a version: the time in
nanoseconds it was made (at least one more than the last known) and the host that made it, so a
late old state never replaces a newer one, a state arriving twice is applied once, and two hosts
changing an account at the same moment settle on the same winner everywhere. A host that applies a
state records it as known, so it does not send it back. Applying a new password or address
revokes the account's secret reply addresses there, as SET PASSWORD and SET ADDRESS do.

Tables in judge.sqlite, component "shard": account_versions (the version and digest of each
account's state last sent or applied).
"""
from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict
from zoneinfo import ZoneInfo

import sqlite_utils

from ...config import Config
from ...games.accounts import check_address, check_name, normal_address
from ...games.clock import iso
from ...storage.db import Schema, migrate, transaction
from ..outbound import outbox
from .shards import ShardMail, wrap
from ..screening.tokens import revoke

if TYPE_CHECKING:       # a type only: `judge serve`'s start-up (ops.upgrade) reads SCHEMA without the games service
    from ...games.service import GameService

log = logging.getLogger("judge.shards")

COMPONENT = "shard"


def _create_account_versions(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE account_versions (
            account TEXT PRIMARY KEY COLLATE NOCASE,
            stamp INTEGER NOT NULL,             -- nanoseconds since 1970 when the state was made
            origin TEXT NOT NULL,               -- the host that made it ([shard] name): breaks ties
            digest TEXT NOT NULL                -- sha256 of the state, to see whether it changed since
        )""")


MIGRATIONS = [_create_account_versions]
SCHEMA = Schema(COMPONENT, MIGRATIONS, current=_create_account_versions)   # (one step: today's table)


class AccountState(TypedDict):
    """What a host sends of an account: compared by its digest, applied as a whole."""
    name: str
    password: str
    time_zone: str
    addresses: list[str]


def prepare(db: sqlite_utils.Database) -> None:
    migrate(db, SCHEMA)


def state_of(db: sqlite_utils.Database, name: str) -> AccountState | None:
    row = db.execute("SELECT id, name, password, time_zone FROM accounts WHERE name = ?", [name]).fetchone()
    if row is None:
        return None
    addresses = [r[0] for r in db.execute(
        "SELECT address FROM addresses WHERE account_id = ? ORDER BY added_at, address", [row[0]])]
    return AccountState(name=row[1], password=row[2], time_zone=row[3], addresses=addresses)


def digest(state: AccountState) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode("utf-8")).hexdigest()


def _known(db: sqlite_utils.Database, name: str) -> tuple[int, str, str] | None:
    row = db.execute("SELECT stamp, origin, digest FROM account_versions WHERE account = ?", [name]).fetchone()
    return (row[0], row[1], row[2]) if row else None


def _record(db: sqlite_utils.Database, name: str, stamp: int, origin: str, state: AccountState) -> None:
    db.conn.execute("INSERT INTO account_versions (account, stamp, origin, digest) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(account) DO UPDATE SET stamp = excluded.stamp, origin = excluded.origin, "
                    "digest = excluded.digest", [name, stamp, origin, digest(state)])


def share_changes(db: sqlite_utils.Database, config: Config, service: GameService,
                  names: Iterable[str | None]) -> list[str]:
    """Send each of these accounts whose state changed since last sent or received to every peer.
    `db`: judge.sqlite, where the outbox is. Returns the accounts sent."""
    peers = config.shard.peer_addresses
    if not peers:
        return []
    prepare(db)
    sent = []
    for name in dict.fromkeys(n for n in names if n):
        state = state_of(service.accounts.db, name)
        known = _known(db, name)
        if state is None or (known is not None and known[2] == digest(state)):
            continue
        stamp = max(time.time_ns(), known[0] + 1 if known else 0)
        meta = {"account": state, "stamp": stamp, "origin": config.shard.name}
        with transaction(db):
            _record(db, state["name"], stamp, config.shard.name, state)
            for peer in peers:
                mail = wrap(config, "accounts", meta, b"", key=f"shard-accounts:{state['name']}:{stamp}:{peer}",
                            to=peer)
                outbox.queue(db, mail, [peer], envelope_from=config.address,
                             forget_when_sent=True)     # password hashes
        sent.append(state["name"])
    return sent


def apply(service: GameService, shard: ShardMail) -> str:
    """A peer's account state, applied if newer than the one known here. What was done, in words
    for the archive's record of the mail."""
    try:
        state, stamp, origin = shard.meta["account"], int(shard.meta["stamp"]), str(shard.meta["origin"])
        name = check_name(str(state["name"]))
        addresses = [normal_address(check_address(str(a))) for a in state["addresses"]]
        password, zone = state["password"], str(ZoneInfo(str(state["time_zone"])))
        if password is not None and not str(password).startswith("scrypt$"):
            raise ValueError("the password is not an scrypt hash")
    except (KeyError, TypeError, ValueError) as e:
        log.warning("account state from a peer not applied: %s", e)
        return f"account state not applied: {e}"
    db = service.accounts.db
    prepare(db)
    now = iso(service.clock())
    with transaction(db):
        known = _known(db, name)
        if known is not None and (known[0], known[1]) >= (stamp, origin):
            return f"account {name}: state {stamp} from {origin} not newer than the one known here; not applied"
        before = state_of(db, name)
        if before is None:
            cur = db.conn.execute("INSERT INTO accounts (name, password, time_zone, keeper, created_at) "
                                  "VALUES (?, ?, ?, 0, ?)", [name, password, zone, now])
            account_id = cur.lastrowid
        else:
            account_id = db.execute("SELECT id FROM accounts WHERE name = ?", [name]).fetchone()[0]
            db.conn.execute("UPDATE accounts SET password = ?, time_zone = ? WHERE id = ?",
                            [password, zone, account_id])
        assert account_id is not None       # (an INSERT's rowid)
        taken = _apply_addresses(db, account_id, addresses, now)
        after = state_of(db, name)
        assert after is not None            # (written just now)
        # what this host now holds is what it knows of the account: not sent back unless it changes
        _record(db, after["name"], stamp, origin, after)
        if before is not None and (before["password"] != after["password"]
                                   or before["addresses"] != after["addresses"]):
            revoke(db, after["name"])     # as SET PASSWORD and SET ADDRESS do
    note = f"; addresses of other accounts here left out: {', '.join(taken)}" if taken else ""
    if taken:
        log.warning("account %s from %s: %s belong to other accounts here", name, origin, ", ".join(taken))
    return f"account {name}: state {stamp} from {origin} applied{note}"


def _apply_addresses(db: sqlite_utils.Database, account_id: int, addresses: list[str], now: str) -> list[str]:
    """The account's addresses become these, save any another account here has (returned)."""
    taken = []
    db.conn.execute(f"DELETE FROM addresses WHERE account_id = ? AND address NOT IN "
                    f"({', '.join('?' * len(addresses))})", [account_id, *addresses])
    for address in addresses:
        owner = db.execute("SELECT account_id FROM addresses WHERE address = ?", [address]).fetchone()
        if owner is None:
            db.conn.execute("INSERT INTO addresses (address, account_id, added_at) VALUES (?, ?, ?)",
                            [address, account_id, now])
        elif owner[0] != account_id:
            taken.append(address)
    return taken
