"""The outbox: a durable queue of the judge's mail in the judge file (component "outbox").

`queue` (through judge.mail.outbound.outgoing, the one path of the judge's mail) and `enqueue` (a message
given as bytes) are idempotent by Message-ID, so a flow that runs twice after a crash queues its mail
once. A part many mails share (a phase's picture) is stored once in `outbox_parts`; the view
`outbox_mail` shows each mail whole. Sent mail's text and picture are dropped after the keeper's
`keep_sent_days` (`forget_sent`); the row of who got what and when stays. Queueing joins the
caller's transaction when one is open, so a report is queued exactly when the results it reports
are stored; that transaction must commit with FULL sync (the daemon's per mail does, as does the
courier's per game), and a queueing on its own commits so itself: the sender, on its own
connection, sees a row only once it is on disk (WAL makes a commit visible after its sync), so
nothing leaves the machine that a power cut could make the judge forget it sent. The sender marks
a message sent only after the relay accepted it
(at-least-once: a crash between the relay's 250 and our commit sends it again, with the same
Message-ID so the duplicate can be seen). With no relay, each message becomes <data>/outbox/<id>.eml.

Mail to or from an internationalised address (RFC 6531) goes with SMTPUTF8 when the relay offers
it; when it does not, that one message fails for good with the reason logged, and the rest flows
on. Whatever a message does to the sender (an error no one foresaw included), it is that message's
failure, retried with backoff and then given up: it never stops the sender.
"""
from __future__ import annotations

import json
import logging
import os
import re
import smtplib
import socket
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path

import sqlite_utils

from ...config import OutboxConfig, RelayConfig
from ...storage.db import Schema, create_table, durable, migrate, open_db, transaction
from .shared_part import SharedPart

log = logging.getLogger("judge.outbox")
COMPONENT = "outbox"


def _create_outbox(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE outbox (
            message_id TEXT PRIMARY KEY,        -- without <>; the same id is the same message
            envelope_from TEXT NOT NULL,
            recipients TEXT NOT NULL,           -- JSON list
            raw BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL,
            created_at REAL NOT NULL,
            sent_at REAL,
            delivered_via TEXT,                 -- 'relay host:port' or the .eml path
            last_error TEXT
        )""")
    db.execute("CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE state = 'queued'")


def _index_created(db: sqlite_utils.Database) -> None:
    """For the hourly reply budget per address (`sent_to_recently`)."""
    db.table("outbox").create_index(["created_at"], index_name="outbox_created")


def _create_relay_facts(db: sqlite_utils.Database) -> None:
    """What the sender last learnt of the relay, for checks made before any mail is sent."""
    create_table(db, "relay_facts", {"relay": str, "smtputf8": int, "seen_at": float}, pk="relay")


def _create_notice_failures(db: sqlite_utils.Database) -> None:
    """Notices the courier could not turn into mail (judge.mail.outbound.courier): tried again, then set aside."""
    create_table(db, "notice_failures", {"game": str, "notice_id": str, "attempts": int, "retry_at": float,
                                         "last_error": str, "set_aside_at": float}, pk=("game", "notice_id"),
                 nullable={"set_aside_at"})


def _create_shared_parts(db: sqlite_utils.Database) -> None:
    """A part many mails carry (a phase's picture) stored once: each mail's `raw` is then its text up
    to the part, which is joined on when it is sent (judge.mail.outbound.shared_part)."""
    db.execute("ALTER TABLE outbox ADD COLUMN part_id TEXT")
    db.execute("CREATE TABLE outbox_parts (part_id TEXT PRIMARY KEY, part BLOB NOT NULL, created_at REAL NOT NULL)")
    db.execute("CREATE INDEX outbox_part ON outbox(part_id) WHERE part_id IS NOT NULL")


def _view_whole_mail(db: sqlite_utils.Database) -> None:
    """Each queued mail whole, its shared part joined on (the part is base64 text: no byte is lost)."""
    db.create_view("outbox_mail", """
        SELECT o.rowid AS rowid, o.message_id, o.envelope_from, o.recipients, o.state,
            o.attempts, o.created_at, o.sent_at, o.delivered_via, o.last_error,
            CASE WHEN o.part_id IS NULL THEN o.raw ELSE CAST(o.raw || p.part AS BLOB) END AS raw
        FROM outbox o LEFT JOIN outbox_parts p ON p.part_id = o.part_id""")


def _index_sent(db: sqlite_utils.Database) -> None:
    """For dropping sent mail's bodies after the keeper's retention (`forget_sent`)."""
    db.execute("CREATE INDEX outbox_sent ON outbox(sent_at) WHERE state = 'sent' AND length(raw) > 0")


def _add_forget_when_sent(db: sqlite_utils.Database) -> None:
    """Mail whose body must not outlive its delivery (a player's mail forwarded to another host, with
    any password in it; accounts sent to a peer): emptied as soon as it is sent, whatever the retention."""
    db.table("outbox").add_column("forget_when_sent", int, not_null_default=0)


def _current(db: sqlite_utils.Database) -> None:
    """The outbox in a new judge file, as the steps above leave it."""
    # Raw SQL: the table API writes no CHECK and no partial index.
    db.executescript("""
        CREATE TABLE outbox (
            message_id TEXT PRIMARY KEY, envelope_from TEXT NOT NULL, recipients TEXT NOT NULL, raw BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at REAL NOT NULL, created_at REAL NOT NULL,
            sent_at REAL, delivered_via TEXT, last_error TEXT, part_id TEXT,
            forget_when_sent INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE state = 'queued';
        CREATE INDEX outbox_part ON outbox(part_id) WHERE part_id IS NOT NULL;
        CREATE INDEX outbox_sent ON outbox(sent_at) WHERE state = 'sent' AND length(raw) > 0;
    """)
    _index_created(db)
    _create_relay_facts(db)
    _create_notice_failures(db)
    create_table(db, "outbox_parts", {"part_id": str, "part": bytes, "created_at": float}, pk="part_id")
    _view_whole_mail(db)


MIGRATIONS = [_create_outbox, _index_created, _create_relay_facts, _create_notice_failures, _create_shared_parts,
              _view_whole_mail, _index_sent, _add_forget_when_sent]
SCHEMA = Schema(COMPONENT, MIGRATIONS, current=_current)


def prepare(db: sqlite_utils.Database) -> None:
    migrate(db, SCHEMA)


def queue(db: sqlite_utils.Database, mail: EmailMessage, to: Sequence[str], *, envelope_from: str,
          shared: SharedPart | None = None, now: float | None = None, forget_when_sent: bool = False) -> bool:
    """The one way the judge's mail goes out: a built message (judge.mail.outbound.compose.build_message)
    queued under its own Message-ID, with `shared`, a part many mails carry, stored once for them
    all. True if queued now, False if this Message-ID was queued before (a no-op).
    `forget_when_sent`: its body is emptied once delivered (it holds a secret: see the column)."""
    message_id, raw, part = stored(mail, shared)
    # the part once, the text per mail: both in one statement group, joining the caller's transaction
    return _insert(db, message_id, to, raw, envelope_from, now, part, forget_when_sent)


def stored(mail: EmailMessage, shared: SharedPart | None = None) -> tuple[str, bytes, SharedPart | None]:
    """(Message-ID, the bytes stored, the part stored apart or None): how `queue` keeps a mail."""
    message_id = str(mail["Message-ID"] or "").strip().strip("<>")
    if not message_id:
        raise ValueError("a message the judge sends needs a Message-ID")
    head = shared.head(mail) if shared is not None else None
    if head is None:
        return message_id, bytes(shared.attach(mail) if shared is not None else mail), None
    return message_id, head, shared


@dataclass(frozen=True)
class Stored:
    """A mail in the form the outbox keeps it (`stored`): its text, and the part stored apart or None."""
    message_id: str
    to: Sequence[str]
    raw: bytes
    part: SharedPart | None


def queue_stored(db: sqlite_utils.Database, mails: Sequence[Stored], *, envelope_from: str,
                 now: float | None = None) -> int:
    """Mails already in their stored form queued in one statement, inside the caller's transaction
    (which commits it durably, as `queue` says; the courier's per game does). Returns how many were
    new (a Message-ID queued before is a no-op)."""
    if not db.conn.in_transaction:
        raise ValueError("queue_stored joins the caller's transaction; there is none")
    if any(not mail.to for mail in mails):
        raise ValueError("a message needs at least one recipient")
    now = time.time() if now is None else now
    parts = {mail.part.id: mail.part for mail in mails if mail.part is not None}
    db.conn.executemany(_INSERT_PART, [[part_id, part.part, now] for part_id, part in parts.items()])
    return db.conn.executemany(_INSERT_MAIL, [
        [mail.message_id, envelope_from, json.dumps(list(mail.to)), mail.raw,
         mail.part.id if mail.part else None, now, now, 0] for mail in mails]).rowcount


def enqueue(db: sqlite_utils.Database, message_id: str, to: Sequence[str], raw: bytes, *,
            envelope_from: str, now: float | None = None) -> bool:
    """Queue a message given as bytes (mail the judge did not build: tools, tests, old data). The
    raw message must carry the same Message-ID header: that is what makes duplicates visible."""
    message_id = message_id.strip().strip("<>")
    # the headers alone: parsing a results mail's picture to read one header cost as much again
    header = BytesHeaderParser(policy=policy.compat32).parsebytes(raw).get("Message-ID")
    if header is None or str(header).strip().strip("<>") != message_id:
        raise ValueError(f"the message's Message-ID header {header!r} is not <{message_id}>")
    return _insert(db, message_id, to, raw, envelope_from, now, None)


_INSERT_PART = "INSERT INTO outbox_parts (part_id, part, created_at) VALUES (?, ?, ?) ON CONFLICT(part_id) DO NOTHING"
_INSERT_MAIL = ("INSERT INTO outbox (message_id, envelope_from, recipients, raw, part_id, state, next_attempt_at,"
                " created_at, forget_when_sent) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)"
                " ON CONFLICT(message_id) DO NOTHING")


def _insert(db: sqlite_utils.Database, message_id: str, to: Sequence[str], raw: bytes, envelope_from: str,
            now: float | None, shared: SharedPart | None, forget_when_sent: bool = False) -> bool:
    if not to:
        raise ValueError("a message needs at least one recipient")
    now = time.time() if now is None else now
    statements = []
    if shared is not None:
        statements.append((_INSERT_PART, [shared.id, shared.part, now]))
    statements.append((_INSERT_MAIL, [message_id, envelope_from, json.dumps(list(to)), raw,
                                      shared.id if shared else None, now, now, int(forget_when_sent)]))
    if db.conn.in_transaction:        # part of the caller's unit of work (which commits it durably)
        return [db.conn.execute(sql, params) for sql, params in statements][-1].rowcount == 1
    # FULL whatever the connection's level: the sender (another connection) sees the row only once
    # its commit is on disk, so no mail leaves before the record of it would survive a power cut
    with durable(db):
        return [db.conn.execute(sql, params) for sql, params in statements][-1].rowcount == 1


def forget_sent(db: sqlite_utils.Database, before: float) -> int:
    """Drop the bodies of mail sent before `before`, and the shared parts no queued or kept mail
    needs any more: the row stays (who got what, when, through where), the text and picture go.
    Returns how many mails were emptied."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        emptied = db.conn.execute("UPDATE outbox SET raw = X'', part_id = NULL WHERE state = 'sent' AND"
                                  " length(raw) > 0 AND sent_at < ?", [before]).rowcount
        db.conn.execute("DELETE FROM outbox_parts WHERE NOT EXISTS"
                        " (SELECT 1 FROM outbox WHERE outbox.part_id = outbox_parts.part_id)")
        db.conn.execute("COMMIT")
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    return emptied


def stored_bytes(db: sqlite_utils.Database | sqlite3.Connection) -> int:
    """What the outbox's mail takes in the judge file: texts and shared parts."""
    conn = db.conn if isinstance(db, sqlite_utils.Database) else db
    texts = conn.execute("SELECT coalesce(sum(length(raw)), 0) FROM outbox").fetchone()[0]
    parts = conn.execute("SELECT coalesce(sum(length(part)), 0) FROM outbox_parts").fetchone()[0] \
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'outbox_parts'").fetchone() else 0
    return int(texts) + int(parts)


def needs_smtputf8(*addresses: str) -> bool:
    return not all(address.isascii() for address in addresses)


def address_refusal(db: sqlite_utils.Database, relay: RelayConfig, address: str) -> str | None:
    """Why the judge could not write to `address` through the configured relay, or None if it can.
    For SET ADDRESS and the like: refuse there, with words, rather than fail every mail later. A relay
    never yet spoken to is given the benefit of the doubt."""
    if not relay.enabled or not needs_smtputf8(address):
        return None
    row = db.conn.execute("SELECT smtputf8 FROM relay_facts WHERE relay = ?", [_relay_name(relay)]).fetchone()
    if row is not None and not row[0]:
        return (f"{address} is an internationalised address, and this judge's mail relay cannot carry mail"
                " to it (no SMTPUTF8); please give an address in plain ASCII letters")
    return None


def sent_to_recently(db: sqlite_utils.Database, address: str, since: float) -> int:
    """Bytes queued to `address` since `since`: the budget of replies to an unproven address."""
    row = db.conn.execute(
        "SELECT coalesce(sum(length(raw)), 0) FROM outbox WHERE created_at >= ? AND EXISTS"
        " (SELECT 1 FROM json_each(outbox.recipients) WHERE lower(json_each.value) = ?)",
        [since, address.lower()]).fetchone()
    return int(row[0])


def _relay_name(relay: RelayConfig) -> str:
    return f"{relay.host}:{relay.port}"


@dataclass(frozen=True)
class Attempt:
    message_id: str
    state: str            # the state after the attempt: sent, queued (will retry) or failed
    detail: str


Refused = dict[str, tuple[int, bytes]]     # smtplib's: each refused recipient's (code, message)


class TemporaryFailure(Exception):
    pass


class PermanentFailure(Exception):
    pass


def retry_delay(attempts: int, config: OutboxConfig) -> float:
    """Exponential backoff: first_retry after the first failure, doubling, at most max_retry."""
    return min(config.max_retry, config.first_retry * 2.0 ** max(0, attempts - 1))


class Sender:
    """Delivers due messages, one at a time, from its own connection to the judge file."""

    def __init__(self, db_path: str | Path, relay: RelayConfig, config: OutboxConfig, eml_dir: str | Path, *,
                 clock: Callable[[], float] = time.time, local_hostname: str | None = None,
                 on_failed: Callable[[sqlite_utils.Database, str, str, int], None] | None = None):
        """`on_failed(db, message_id, error, attempts)`: called in the transaction that marks a mail
        failed for good, before its body may be dropped (judge.mail.outbound.failed_mail tells the keeper)."""
        self.on_failed = on_failed
        self.db = open_db(db_path)
        prepare(self.db)
        self.relay, self.config, self.eml_dir = relay, config, Path(eml_dir)
        self.clock = clock
        self.local_hostname = local_hostname
        self._next_forget = 0.0

    def close(self) -> None:
        self.db.conn.close()

    @property
    def destination(self) -> str:
        if self.relay.enabled:
            return f"the SMTP relay {self.relay.host}:{self.relay.port}"
        return f".eml files in {self.eml_dir}/ (no relay set)"

    def deliver_due(self, limit: int = 100, stopping: Callable[[], bool] = lambda: False) -> list[Attempt]:
        """Up to `limit` due messages, one at a time; none more once `stopping()` (SIGTERM)."""
        now = self.clock()
        self._forget_old(now)
        rows = self.db.conn.execute(
            "SELECT o.message_id, o.envelope_from, o.recipients, o.raw, o.attempts, o.part_id, p.part FROM outbox o"
            " LEFT JOIN outbox_parts p ON p.part_id = o.part_id"
            " WHERE o.state = 'queued' AND o.next_attempt_at <= ? ORDER BY o.next_attempt_at, o.created_at LIMIT ?",
            [now, limit]).fetchall()
        return [self._attempt(mid, sender, json.loads(rcpts), bytes(raw) + (bytes(part) if part_id else b""),
                              attempts)
                for mid, sender, rcpts, raw, attempts, part_id, part in rows if not stopping()]

    def _forget_old(self, now: float) -> None:
        """Sent mail's bodies and pictures are dropped after the keeper's retention, looked at hourly."""
        if self.config.keep_sent_days <= 0 or now < self._next_forget:
            return
        self._next_forget = now + 3600
        try:
            emptied = forget_sent(self.db, now - self.config.keep_sent_days * 86400)
        except sqlite3.Error:
            log.exception("outbox: could not drop old sent mail; trying again in an hour")
            return
        if emptied:
            log.info("outbox: dropped the bodies of %d mails sent more than %g days ago", emptied,
                     self.config.keep_sent_days)

    def _attempt(self, message_id: str, envelope_from: str, recipients: list[str], raw: bytes,
                 attempts: int) -> Attempt:
        attempts += 1
        refused: Refused = {}
        try:
            if self.relay.enabled:
                via, refused = self._relay(envelope_from, recipients, raw)
            else:
                via, refused = self._write_eml(message_id, raw), {}
        except PermanentFailure as e:
            self._update(message_id, "failed", attempts, None, str(e))
            log.error("outbox: <%s> failed for good: %s", message_id, e)
            return Attempt(message_id, "failed", str(e))
        except TemporaryFailure as e:
            return self._attempt_failed(message_id, attempts, e)
        except Exception as e:   # unforeseen: this message's failure, never the sender's death
            log.exception("outbox: <%s> attempt %d raised", message_id, attempts)
            return self._attempt_failed(message_id, attempts, TemporaryFailure(f"unexpected error: {e!r}"))
        return self._attempt_succeeded(message_id, attempts, via, refused)

    def _attempt_failed(self, message_id: str, attempts: int, e: TemporaryFailure) -> Attempt:
        if attempts >= self.config.max_attempts:
            detail = f"gave up after {attempts} attempts: {e}"
            self._update(message_id, "failed", attempts, None, detail)
            log.error("outbox: <%s> %s", message_id, detail)
            return Attempt(message_id, "failed", detail)
        delay = retry_delay(attempts, self.config)
        self._update(message_id, "queued", attempts, self.clock() + delay, str(e))
        log.warning("outbox: <%s> attempt %d failed (%s); next in %.0f s", message_id, attempts, e, delay)
        return Attempt(message_id, "queued", str(e))

    def _attempt_succeeded(self, message_id: str, attempts: int, via: str, refused: Refused) -> Attempt:
        detail = None
        if refused:
            detail = "refused: " + "; ".join(f"{a} {c} {m.decode('utf-8', 'replace')}" for a, (c, m) in refused.items())
        retry = [address for address, (code, _) in refused.items() if 400 <= code < 500]
        if retry and attempts < self.config.max_attempts:
            # Accepted for some recipients, deferred for others: only those are tried again.
            delay = retry_delay(attempts, self.config)
            with transaction(self.db):
                self.db.conn.execute(
                    "UPDATE outbox SET recipients = ?, attempts = ?, next_attempt_at = ?, delivered_via = ?,"
                    " last_error = ? WHERE message_id = ?",
                    [json.dumps(retry), attempts, self.clock() + delay, via, detail, message_id])
            log.warning("outbox: <%s> deferred for %s; next in %.0f s", message_id, ", ".join(retry), delay)
            return Attempt(message_id, "queued", detail or "")     # (never empty: some were refused)
        with transaction(self.db):
            self.db.conn.execute(
                "UPDATE outbox SET state = 'sent', attempts = ?, sent_at = ?, delivered_via = ?, last_error = ?,"
                " raw = CASE WHEN forget_when_sent THEN X'' ELSE raw END WHERE message_id = ?",
                [attempts, self.clock(), via, detail, message_id])
        log.info("outbox: <%s> delivered to %s", message_id, via)
        return Attempt(message_id, "sent", detail or via)

    def _update(self, message_id: str, state: str, attempts: int, next_at: float | None, error: str) -> None:
        with transaction(self.db):
            if state == "failed" and self.on_failed is not None:
                try:
                    with transaction(self.db):      # a savepoint: the note, or none of it
                        self.on_failed(self.db, message_id, error, attempts)
                except Exception:   # marking the mail failed matters more than the note about it
                    log.exception("outbox: <%s>: the keeper's note about its failure could not be queued", message_id)
            self.db.conn.execute(
                "UPDATE outbox SET state = ?, attempts = ?, next_attempt_at = coalesce(?, next_attempt_at),"
                " last_error = ?, raw = CASE WHEN forget_when_sent AND ? = 'failed' THEN X'' ELSE raw END"
                " WHERE message_id = ?", [state, attempts, next_at, error, state, message_id])

    def _relay(self, envelope_from: str, recipients: list[str], raw: bytes) -> tuple[str, Refused]:
        """Returns where it went and the recipients the relay refused while accepting the others."""
        relay = self.relay
        try:
            with smtplib.SMTP(relay.host, relay.port, timeout=relay.timeout,
                              local_hostname=self.local_hostname) as smtp:
                if relay.starttls:
                    smtp.starttls()
                if relay.user:
                    smtp.login(relay.user, relay.password)
                smtp.ehlo_or_helo_if_needed()
                self._remember(smtp.has_extn("smtputf8"))
                options = []
                if needs_smtputf8(envelope_from, *recipients) or not _ascii_headers(raw):
                    if not smtp.has_extn("smtputf8"):
                        international = [a for a in (envelope_from, *recipients) if not a.isascii()]
                        raise PermanentFailure(
                            "the relay does not offer SMTPUTF8, needed for "
                            + (", ".join(international) or "its UTF-8 headers")
                        )
                    options = ["SMTPUTF8", *(["BODY=8BITMIME"] if smtp.has_extn("8bitmime") else [])]
                refused = smtp.sendmail(envelope_from, recipients, raw, mail_options=options)
        except smtplib.SMTPRecipientsRefused as e:
            raise _failure(e.recipients.values(), "every recipient refused") from e
        except smtplib.SMTPResponseException as e:  # MAIL FROM or DATA refused, or auth failed
            said = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else e.smtp_error
            text = f"{e.smtp_code} {said}"
            if 500 <= e.smtp_code < 600:
                raise PermanentFailure(text) from e
            raise TemporaryFailure(text) from e
        except (smtplib.SMTPException, OSError, socket.timeout) as e:
            raise TemporaryFailure(f"relay {relay.host}:{relay.port}: {e!r}") from e
        except UnicodeError as e:  # an address or header SMTP cannot carry: the same every time
            raise PermanentFailure(f"cannot be sent as it is: {e}") from e
        return f"relay {relay.host}:{relay.port}", refused

    def _remember(self, smtputf8: bool) -> None:
        try:
            with transaction(self.db):
                self.db.conn.execute(
                    "INSERT INTO relay_facts (relay, smtputf8, seen_at) VALUES (?, ?, ?) ON CONFLICT(relay)"
                    " DO UPDATE SET smtputf8 = excluded.smtputf8, seen_at = excluded.seen_at",
                    [_relay_name(self.relay), int(smtputf8), self.clock()])
        except Exception:   # a fact for later checks; the mail in hand matters more
            log.exception("outbox: could not record the relay's SMTPUTF8 support")

    def _write_eml(self, message_id: str, raw: bytes) -> str:
        """Atomic: a reader never sees half a file; a repeated write replaces the file with the same bytes."""
        self.eml_dir.mkdir(parents=True, exist_ok=True)
        target = self.eml_dir / eml_name(message_id)
        try:
            # not *.eml while half written: a reader that globs for *.eml (pathlib's glob matches dot
            # files) must never pick up the temporary file
            fd, temp = tempfile.mkstemp(dir=self.eml_dir, prefix=".tmp-", suffix=".part")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(raw)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(temp, target)
            except BaseException:
                if os.path.exists(temp):
                    os.unlink(temp)
                raise
            dir_fd = os.open(self.eml_dir, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError as e:
            raise TemporaryFailure(f"cannot write {target}: {e}") from e
        return str(target)


def _ascii_headers(raw: bytes) -> bool:
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return head.isascii()


def eml_name(message_id: str) -> str:
    """A file name from a Message-ID: the characters that are safe everywhere, the rest as '_'."""
    return re.sub(r"[^A-Za-z0-9@._+-]", "_", message_id.strip("<>")).lstrip(".") + ".eml"


def _failure(replies: Iterable[tuple[int, bytes | str]], what: str) -> Exception:
    replies = list(replies)
    text = "; ".join(f"{code} {msg.decode('utf-8', 'replace') if isinstance(msg, bytes) else msg}"
                     for code, msg in replies)
    if replies and all(500 <= code < 600 for code, _ in replies):
        return PermanentFailure(f"{what}: {text}")
    return TemporaryFailure(f"{what}: {text}")


def status(db: sqlite_utils.Database, message_id: str) -> dict[str, object] | None:
    row = db.conn.execute("SELECT state, attempts, next_attempt_at, sent_at, delivered_via, last_error "
                          "FROM outbox WHERE message_id = ?", [message_id.strip("<>")]).fetchone()
    if row is None:
        return None
    keys = ("state", "attempts", "next_attempt_at", "sent_at", "delivered_via", "last_error")
    return dict(zip(keys, row, strict=True))
