"""Accounts and their mail addresses, in judge.sqlite. Passwords are kept only as salted scrypt hashes."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import cast
from zoneinfo import ZoneInfo

import sqlite_utils

from .clock import iso
from .model import GameError, Refusal
from ..storage.db import transaction

# scrypt cost: 16 MiB of memory per guess; stored with each hash so it can be raised later.
_N, _R, _P = 2 ** 14, 8, 1


def hash_password(password: str, *, salt: bytes | None = None, n: int | None = None, r: int = _R, p: int = _P) -> str:
    salt = salt or secrets.token_bytes(16)
    n = n or _N          # read at the call, so the tests' conftest can make hashing cheap in-process
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    scheme, n, r, p, salt, digest = stored.split("$")
    if scheme != "scrypt":
        return False
    again = hash_password(password, salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
    return hmac.compare_digest(again.rsplit("$", 1)[1], digest)


# One addr-spec and nothing else: whatever could end a header line, start another address or
# smuggle a display name (CR, LF, commas, angle brackets, quotes, spaces) is refused.
_NOT_IN_ADDRESS = re.compile(r'[\s<>()\[\],;:"\\\x00-\x1f\x7f]')
_NOT_IN_NAME = re.compile(r'[\s<>@,;:"\\\x00-\x1f\x7f\u2028\u2029\x85]')


def check_address(address: str) -> str:
    """The address as given, if it is one mail address (local@domain); else GameError (NOT_AN_ADDRESS)."""
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or "@" in local or len(address) > 254 or _NOT_IN_ADDRESS.search(address):
        raise GameError(why=Refusal.NOT_AN_ADDRESS, address=address[:254])
    return address


def check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 64 or _NOT_IN_NAME.search(name):
        raise GameError(why=Refusal.BAD_ACCOUNT_NAME)
    return name


def normal_address(address: str) -> str:
    """Addresses compare without regard to case (letter case carries no meaning here)."""
    return address.strip().lower()


class UnknownZone(KeyError):
    """A time zone the judge has no rules for. zoneinfo raises a KeyError for a name it has no file
    for, a ValueError, in Python's words, for one that is a path (`/etc/passwd`, `../x`), and an
    OSError for one too long for a file name: one type for all, a KeyError as zoneinfo's "not found"
    always was."""

    def __init__(self, zone: str) -> None:
        super().__init__(f"unknown time zone {zone!r}")
        self.zone = zone


def known_zone(zone: str) -> None:
    """Raise UnknownZone unless the judge knows `zone`."""
    try:
        ZoneInfo(zone)
    except (KeyError, ValueError, OSError):     # OSError: a name too long for a file name
        raise UnknownZone(zone) from None


class NoSuchAccount(KeyError):
    """No account has that name: a KeyError, as before (its message for the keeper's command line), that
    says which name (a player's words: judge.mail.words.problem_words)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no account {name!r}")
        self.name = name


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    time_zone: str
    keeper: bool
    addresses: tuple[str, ...]


class Accounts:
    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db

    def create(self, name: str, address: str, password: str | None, now: datetime, *,
               time_zone: str = "UTC", keeper: bool = False) -> Account:
        known_zone(time_zone)
        name = check_name(name)
        check_address(address)
        with transaction(self.db):
            if self.db["accounts"].count_where("name = ?", [name]):     # (the column compares without case)
                raise GameError(why=Refusal.NAME_TAKEN, name=name)
            if self.db["addresses"].count_where("address = ?", [normal_address(address)]):
                raise GameError(why=Refusal.ADDRESS_TAKEN, address=address)
            account_id = self.db.table("accounts").insert({
                "name": name, "password": hash_password(password) if password else None, "time_zone": time_zone,
                "keeper": int(keeper), "created_at": iso(now)}).last_pk
            self._add(cast(int, account_id), address, now)     # (sqlite-utils types last_pk as optional)
        return self.get(name)

    def _add(self, account_id: int, address: str, now: datetime) -> None:
        self.db.table("addresses").insert({"address": normal_address(address), "account_id": account_id,
                                     "added_at": iso(now)})

    def _id(self, name: str) -> int | None:
        rows = list(self.db["accounts"].rows_where("name = ?", [name], select="id"))
        return rows[0]["id"] if rows else None

    # get, by_address and zone_of run on every mail: one plain SELECT each, where sqlite-utils'
    # rows_where would first look the schema up three times (bench/dispatch_io.py counts statements).
    def get(self, name: str) -> Account:
        row = self.db.execute("SELECT id, name, time_zone, keeper FROM accounts WHERE name = ?", [name]).fetchone()
        if not row:
            raise NoSuchAccount(name)
        addresses = tuple(r[0] for r in self.db.execute(
            "SELECT address FROM addresses WHERE account_id = ? ORDER BY added_at, rowid", [row[0]]))   # oldest first
        return Account(row[0], row[1], row[2], bool(row[3]), addresses)

    def by_address(self, address: str) -> Account | None:
        row = self.db.execute("SELECT a.name FROM addresses d JOIN accounts a ON a.id = d.account_id "
                              "WHERE d.address = ?", [normal_address(address)]).fetchone()
        return self.get(row[0]) if row else None

    def add_address(self, name: str, address: str, now: datetime) -> None:
        """One more address for the account (proven first: judge.games.address_claims)."""
        self._add(self.get(name).id, check_address(address), now)

    def replace_address(self, name: str, address: str, now: datetime) -> None:
        """SET ADDRESS: the new address becomes the account's only one."""
        check_address(address)
        account = self.get(name)
        with transaction(self.db):
            if self.db["addresses"].count_where("address = ? AND account_id != ?",
                                                [normal_address(address), account.id]):
                raise GameError(why=Refusal.ADDRESS_TAKEN, address=address)
            self.db.table("addresses").delete_where("account_id = ?", [account.id])
            self._add(account.id, address, now)

    def set_password(self, name: str, password: str) -> None:
        with transaction(self.db):
            if (account_id := self._id(name)) is not None:
                self.db.table("accounts").update(account_id, {"password": hash_password(password)})

    def check_password(self, name: str, password: str) -> bool:
        rows = list(self.db["accounts"].rows_where("name = ?", [name], select="password"))
        return bool(rows) and verify_password(password, rows[0]["password"])

    def set_time_zone(self, name: str, zone: str) -> None:
        known_zone(zone)
        with transaction(self.db):
            if (account_id := self._id(name)) is not None:
                self.db.table("accounts").update(account_id, {"time_zone": zone})

    def zone_of(self, name: str | None) -> str | None:
        if not name:
            return None
        row = self.db.execute("SELECT time_zone FROM accounts WHERE name = ?", [name]).fetchone()
        return row[0] if row else None
