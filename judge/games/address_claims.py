"""More than one mail address for an account (njudge's `I AM ALSO`, `SET ADDRESS a,b`), each proven
from the address itself: the judge mails a code there, and only a mail from that address giving the
code adds it. Anyone may write "From: x", so the code is the proof: it is kept only as its SHA-256,
lives `CLAIM_DAYS`, and one wrong answer ends the claim (a guesser gets one try per claim the owner
makes). Once added, the address is the account's as its first one is: mail from it is the account's
claim, and the judge's mail goes to every one of the account's addresses."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from ..storage.db import transaction
from .accounts import Accounts, check_address, normal_address
from .clock import iso, parse_time
from .model import GameError, Refusal

CLAIM_DAYS = 3
MAX_CLAIMS = 3          # addresses waiting for their code, per account: the judge mails no one in bulk


def _digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().encode()).hexdigest()


def claim(accounts: Accounts, name: str, address: str, now: datetime) -> str:
    """A claim of `address` for the account `name`; returns the code to mail there. GameError (a code
    the mail layer words) for an address that is not one, is the account's already, or another account's."""
    check_address(address)
    account, key, db = accounts.get(name), normal_address(address), accounts.db
    if key in account.addresses:
        raise GameError(why=Refusal.ADDRESS_YOURS, address=address)
    if accounts.by_address(key) is not None:
        raise GameError(why=Refusal.ADDRESS_TAKEN, address=address)
    code = secrets.token_hex(5)
    with transaction(db):
        db.execute("DELETE FROM address_claims WHERE sent_at < ?", [iso(now - timedelta(days=CLAIM_DAYS))])
        waiting = db.execute("SELECT count(*) FROM address_claims WHERE account_id = ? AND address != ?",
                             [account.id, key]).fetchone()[0]
        if waiting >= MAX_CLAIMS:
            raise GameError(why=Refusal.CLAIMS_WAITING, waiting=waiting, days=CLAIM_DAYS)
        db.execute("INSERT INTO address_claims (address, account_id, code, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT"
                   "(address) DO UPDATE SET account_id = excluded.account_id, code = excluded.code,"
                   " sent_at = excluded.sent_at", [key, account.id, _digest(code), iso(now)])
    return code


def confirm(accounts: Accounts, address: str, code: str, now: datetime) -> str:
    """The mail from `address` gives `code`: the address is added to the account that claimed it, whose
    name is returned. GameError when no claim of that address waits, or the code is not its code (the
    claim then ends)."""
    key, db = normal_address(address), accounts.db
    with transaction(db):
        row = db.execute("SELECT c.code, c.sent_at, a.name FROM address_claims c JOIN accounts a ON a.id = c.account_id"
                         " WHERE c.address = ?", [key]).fetchone()
        db.execute("DELETE FROM address_claims WHERE address = ?", [key])     # right or wrong, the claim is spent
        right = row is not None and parse_time(row[1]) >= now - timedelta(days=CLAIM_DAYS) \
            and hmac.compare_digest(row[0], _digest(code)) and accounts.by_address(key) is None
        if right:
            accounts.add_address(row[2], key, now)
    if row is None or parse_time(row[1]) < now - timedelta(days=CLAIM_DAYS):   # raised after the commit
        raise GameError(why=Refusal.NO_CLAIM, address=address, days=CLAIM_DAYS)
    if not right:
        raise GameError(why=Refusal.WRONG_CODE)
    return str(row[2])
