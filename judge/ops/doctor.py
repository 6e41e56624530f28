"""`judge doctor`: is this judge healthy? Each check says ok, warn or FAIL and why; a FAIL makes the
exit status 1, so a monitor (cron, a systemd timer, Nagios) can call it.

It reads and never writes: files are opened read-only and no migration runs. Mail flowing is judged
from the judge file itself: the last outbound message that is finished must have been sent, and
nothing may wait in the outbox or the inbound archive longer than `max_age` seconds.
"""
from __future__ import annotations

import os
import smtplib
import socket
import sqlite3
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..config import Config, ImapConfig, OutboxConfig, RelayConfig
from ..mail.outbound import outbox
from ..storage.db import BUSY_TIMEOUT_MS
from ..mail.intake import spool_format
from .datafiles import LEGACY_SPOOL, SPOOL_DIR, versions_in
from .upgrade import GAME_FILE_COMPONENTS, JUDGE_FILE_COMPONENTS, known_versions

OK, WARN, FAIL = "ok", "warn", "FAIL"


@dataclass(frozen=True)
class Check:
    level: str           # ok, warn, FAIL
    topic: str           # config, data, schema, relay, imap, outbox, inbound
    detail: str


def run_checks(config: Config, *, max_age: float = 3600.0, now: float | None = None,
               network: bool = True) -> list[Check]:
    now = time.time() if now is None else now
    checks = check_data_dir(config.data_dir)
    if any(c.level == FAIL for c in checks):
        return checks
    judge = _open_ro(config.db_path)
    try:
        checks += check_schemas(judge, config.data_dir)
        checks += check_outbox(judge, now, max_age)
        checks.append(check_outbox_size(judge, config.outbox))
        checks += check_inbound(judge, now, max_age)
    finally:
        judge.close()
    checks += check_spool(config.data_dir, now)
    if network:
        checks.append(check_relay(config.relay, config.outbox_dir))
        if config.imap.enabled:
            checks.append(check_imap(config.imap))
    return checks


def check_data_dir(data_dir: Path) -> list[Check]:
    if not data_dir.is_dir():
        return [Check(FAIL, "data", f"{data_dir} is not a directory; start `judge serve` once to create it, "
                                    "or point --data / data_dir at the right place")]
    if not os.access(data_dir, os.W_OK | os.X_OK):
        return [Check(FAIL, "data", f"{data_dir} is not writable by this user (uid {os.geteuid()}); "
                                    "the judge must own its data directory")]
    judge_file = data_dir / "judge.sqlite"
    if not judge_file.is_file():
        return [Check(FAIL, "data", f"{data_dir} has no judge.sqlite: `judge serve` has never run here, "
                                    "or this is not the judge's data directory")]
    try:
        conn = _open_ro(judge_file)
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        return [Check(FAIL, "data", f"{judge_file} cannot be read as SQLite: {e}")]
    if result != "ok":
        return [Check(FAIL, "data", f"{judge_file} fails SQLite's quick_check: {result}; restore the last backup")]
    # A keeper who ran a command as root leaves files the judge's user cannot write.
    stuck = [p for p in [data_dir / "games", *data_dir.glob("judge.sqlite*"), *data_dir.glob(LEGACY_SPOOL + "*"),
                         *data_dir.glob("games/*"), data_dir / SPOOL_DIR, *data_dir.glob(SPOOL_DIR + "/*")]
             if p.exists() and not os.access(p, os.W_OK)]
    if stuck:
        return [Check(FAIL, "data", f"not writable by this user (uid {os.geteuid()}): "
                                    + ", ".join(str(p) for p in stuck[:5]) + (" ..." if len(stuck) > 5 else "")
                                    + f"; give them back to the judge's user (chown -R judge:judge {data_dir})")]
    usage = os.statvfs(data_dir)
    free = usage.f_bavail * usage.f_frsize
    disk = Check(OK if free > 100 * 2**20 else FAIL, "data",
                 f"{free / 2**30:.1f} GiB free on the disk of {data_dir}")
    return [Check(OK, "data", f"{data_dir.resolve()} is writable and judge.sqlite passes quick_check"), disk]


def _has(conn: sqlite3.Connection, table: str) -> bool:
    return sqlite_utils.Database(conn, execute_plugins=False)[table].exists()


def _compare(where: str, component: str, have: int | None, want: int) -> Check | None:
    floor = {**JUDGE_FILE_COMPONENTS, **GAME_FILE_COMPONENTS}[component].floor
    if have is not None and 0 < have < floor:
        return Check(FAIL, "schema", f"{where}: {component} schema {have} is older than the oldest this judge"
                                     f" upgrades ({floor}); open the directory with a judge of that time first")
    if have is None or have < want:
        return Check(WARN, "schema", f"{where}: {component} schema {have or 0} is older than this judge's {want};"
                                     " `judge serve` migrates it when it starts (restart it after an upgrade)")
    if have > want:
        return Check(FAIL, "schema", f"{where}: {component} schema {have} is newer than this judge knows ({want});"
                                     " this judge is older than the one that wrote the file: upgrade it")
    return None


def check_schemas(judge: sqlite3.Connection, data_dir: Path) -> list[Check]:
    want = known_versions()
    found = versions_in(judge)
    problems = [c for comp in JUDGE_FILE_COMPONENTS
                if (c := _compare("judge.sqlite", comp, found.get(comp), want[comp]))]
    problems += [Check(WARN, "schema", f"judge.sqlite: component {comp} (schema {found[comp]}) is not one this"
                                       " judge checks; list it in judge/ops/upgrade.py JUDGE_FILE_COMPONENTS")
                 for comp in sorted(set(found) - set(want))]
    games = sorted((data_dir / "games").glob("*.sqlite"))
    for path in games:
        try:
            conn = _open_ro(path)
            try:
                # every page read, not only the schema (bench/doctor_games.py: 0.6 ms at 140 KiB, 27 ms at 1.9 MiB)
                damage = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
                check = (Check(FAIL, "schema", f"games/{path.name} is damaged (SQLite's quick_check: "
                                               f"{'; '.join(damage)}); its game is held: put the file back from"
                                               " the last backup")
                         if damage != ["ok"] else
                         _compare(f"games/{path.name}", "game", versions_in(conn).get("game"), want["game"]))
            finally:
                conn.close()
        except sqlite3.DatabaseError as e:
            check = Check(FAIL, "schema", f"games/{path.name} cannot be read as SQLite ({e}): its file is damaged;"
                                          " put it back from the last backup")
        if check:
            problems.append(check)
    if problems:
        return problems
    return [Check(OK, "schema", f"judge.sqlite and {len(games)} game file(s) pass quick_check and are at this"
                                " judge's schema " + ", ".join(f"{k} {v}" for k, v in want.items()))]


def _age(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def check_outbox(judge: sqlite3.Connection, now: float, max_age: float) -> list[Check]:
    if not _has(judge, "outbox"):
        return [Check(WARN, "outbox", "no outbox table yet: `judge serve` has not run with this judge")]
    checks = []
    last = judge.execute("SELECT message_id, state, sent_at, delivered_via, last_error, created_at FROM outbox"
                         " WHERE state != 'queued' ORDER BY created_at DESC, rowid DESC LIMIT 1").fetchone()
    if last is None:
        checks.append(Check(OK, "outbox", "no outbound mail finished yet"))
    elif last[1] == "sent":
        checks.append(Check(OK, "outbox", f"the last outbound mail <{last[0]}> was sent {_age(now - last[2])} ago"
                                          f" ({last[3]})"))
    else:
        checks.append(Check(FAIL, "outbox", f"the last outbound mail <{last[0]}> failed: {last[4]}"))
    queued, oldest, error = judge.execute(
        "SELECT count(*), min(created_at), (SELECT last_error FROM outbox WHERE state = 'queued'"
        " ORDER BY created_at LIMIT 1) FROM outbox WHERE state = 'queued'").fetchone()
    if not queued:
        checks.append(Check(OK, "outbox", "nothing waits to be sent"))
    else:
        age = now - oldest
        level = FAIL if age > max_age else OK
        reason = f"; last error: {error}" if error else ""
        checks.append(Check(level, "outbox", f"{queued} message(s) wait to be sent, the oldest for {_age(age)}"
                                             f"{reason}" + (f" (more than {_age(max_age)})" if level == FAIL else "")))
    return checks


def check_outbox_size(judge: sqlite3.Connection, config: OutboxConfig) -> Check:
    """Sent mail is kept (bodies and pictures) for outbox.keep_sent_days: warn before it fills the disk."""
    if not _has(judge, "outbox"):
        return Check(OK, "outbox", "no outbound mail stored yet")
    mib = outbox.stored_bytes(judge) / 2**20
    keep = f"kept {config.keep_sent_days:g} days" if config.keep_sent_days else "kept for ever (keep_sent_days = 0)"
    if mib > config.warn_mib:
        return Check(WARN, "outbox", f"the outbox holds {mib:.0f} MiB of mail (sent mail is {keep}), more than"
                                     f" outbox.warn_mib = {config.warn_mib:g}: lower outbox.keep_sent_days")
    return Check(OK, "outbox", f"the outbox holds {mib:.1f} MiB of mail (sent mail is {keep})")


def check_inbound(judge: sqlite3.Connection, now: float, max_age: float) -> list[Check]:
    if not _has(judge, "inbound"):
        return [Check(WARN, "inbound", "no inbound archive yet: `judge serve` has not run with this judge")]
    pending, oldest = judge.execute(
        "SELECT count(*), min(received_at) FROM inbound WHERE state IN ('new', 'claimed')").fetchone()
    failed = sqlite_utils.Database(judge, execute_plugins=False)["inbound"].count_where("state = 'failed'")
    last = judge.execute("SELECT max(received_at) FROM inbound").fetchone()[0]
    checks = []
    if pending and now - oldest > max_age:
        checks.append(Check(FAIL, "inbound", f"{pending} received message(s) are not processed, the oldest for "
                                             f"{_age(now - oldest)}: is `judge serve` running?"))
    else:
        heard = f"the last arrived {_age(now - last)} ago" if last else "none has arrived yet"
        checks.append(Check(OK, "inbound", f"{pending} message(s) wait to be processed; {heard}"))
    if failed:
        checks.append(Check(WARN, "inbound", f"{failed} message(s) failed in processing; see their outcome in the"
                                             " inbound table of judge.sqlite"))
    return checks


SPOOL_MAX_AGE = 60.0    # the processor takes the spool in whenever it has no mail left: a minute means it is
                        # not running, stuck, or a minute behind


def check_spool(data_dir: Path, now: float) -> list[Check]:
    """Intake's spool (mail acknowledged, not yet moved into judge.sqlite) should be all but empty. Read
    as the drain reads it, changing nothing: a record whose key the archive has is drained (its segment
    is deleted once read whole, and the one being written stays until the judge stops)."""
    spooled = {r.key: r.received_at for _, path in spool_format.segments(data_dir / SPOOL_DIR)
               for r in spool_format.read_segment(path, 0) or []}
    legacy = data_dir / LEGACY_SPOOL
    if legacy.is_file():
        conn = _open_ro(legacy)
        try:
            if _has(conn, "spooled"):
                spooled.update(conn.execute("SELECT key, received_at FROM spooled").fetchall())
        finally:
            conn.close()
    if spooled and (data_dir / "judge.sqlite").is_file():
        conn = _open_ro(data_dir / "judge.sqlite")
        try:
            if _has(conn, "inbound"):
                for key in list(spooled):
                    if conn.execute("SELECT 1 FROM inbound WHERE spool_key = ?", [key]).fetchone():
                        del spooled[key]
        finally:
            conn.close()
    received = list(spooled.values())
    if not received:
        return [Check(OK, "spool", f"no acknowledged message waits in {SPOOL_DIR}/ to enter the archive")]
    count, oldest = len(received), min(received)
    if now - oldest > SPOOL_MAX_AGE:
        return [Check(WARN, "spool", f"{count} acknowledged message(s) wait in {SPOOL_DIR}/, the oldest for "
                                     f"{_age(now - oldest)}, not yet in the archive: `judge serve`'s processor moves"
                                     " them in when it has no mail left (is it running, or far behind?)")]
    return [Check(OK, "spool", f"{count} acknowledged message(s) wait in {SPOOL_DIR}/ to enter the archive")]


def check_relay(relay: RelayConfig, outbox_dir: Path) -> Check:
    if not relay.enabled:
        return Check(WARN, "relay", f"no relay set: outbound mail is written as .eml files in {outbox_dir}/, "
                                    "not sent; set [relay] host to send it")
    where = f"{relay.host}:{relay.port}"
    try:
        with smtplib.SMTP(relay.host, relay.port, timeout=min(relay.timeout, 15)) as smtp:
            smtp.ehlo()
            if relay.starttls:
                smtp.starttls()
                smtp.ehlo()
            if relay.user:
                smtp.login(relay.user, relay.password)
            code, _ = smtp.noop()
    except smtplib.SMTPAuthenticationError as e:
        return Check(FAIL, "relay", f"the relay {where} refused the login of {relay.user}: {e.smtp_code}")
    except (smtplib.SMTPException, OSError, socket.timeout) as e:
        return Check(FAIL, "relay", f"the relay {where} cannot be reached: {e!r}")
    if code != 250:
        return Check(FAIL, "relay", f"the relay {where} answered NOOP with {code}")
    return Check(OK, "relay", f"the relay {where} answers" + (" and accepts the login" if relay.user else ""))


def check_imap(imap: ImapConfig) -> Check:
    from imapclient import IMAPClient  # type: ignore[import-untyped]  # (imapclient ships no type hints)
    from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]  # (nor here)
    where = f"{imap.user}@{imap.host}:{imap.port}"
    try:
        client = IMAPClient(imap.host, port=imap.port, ssl=imap.ssl, timeout=15)
        try:
            client.login(imap.user, imap.password)
            folder = client.select_folder(imap.folder, readonly=True)
        finally:
            with suppress(IMAPClientError, OSError):
                client.logout()
    except (IMAPClientError, OSError, socket.timeout) as e:
        return Check(FAIL, "imap", f"the mailbox {where} cannot be read: {e}")
    return Check(
        OK, "imap", f"the mailbox {where} folder {imap.folder} opens ({folder.get(b'EXISTS', '?')} message(s))"
    )


def _open_ro(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def report(checks: list[Check]) -> str:
    return "\n".join(f"{c.level:<4} {c.topic:<8} {c.detail}" for c in checks)
