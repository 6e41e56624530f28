"""`judge outbox`: what the judge has written, for a newcomer or a keeper looking for one mail.

    judge outbox                       # the last 20 mails: number, time, state, recipients, subject
    judge outbox --to ann@example.org  # only those to an address (any part of it, any case)
    judge outbox --last 100 --state failed
    judge outbox --show 42             # mail number 42 whole: its headers and text, attachments named

It reads judge.sqlite's outbox read-only (the view `outbox_mail`, shared parts joined on), so it is safe
while `judge serve` runs, and finds the data directory as every command does.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from datetime import datetime, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from ..config import ConfigError, load_config

LIST_SQL = ("SELECT rowid, created_at, state, recipients, raw FROM outbox_mail"
            " WHERE (:state IS NULL OR state = :state)"
            " AND (:to IS NULL OR lower(recipients) LIKE '%' || lower(:to) || '%')"
            " ORDER BY rowid DESC LIMIT :last")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("outbox", help="list the mail the judge has written, or show one",
                       description=(__doc__ or "").split("\n\n")[0],
                       epilog="examples:\n  judge outbox --to ann@example.org --last 5\n  judge outbox --show 42",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", metavar="FILE", help="TOML configuration file (or $JUDGE_CONFIG)")
    p.add_argument("--data", metavar="DIR", help="data directory (overrides the configuration)")
    p.add_argument("--to", metavar="ADDRESS", help="only mail to this address (or any part of it)")
    p.add_argument("--state", choices=("queued", "sent", "failed"), help="only mail in this state")
    p.add_argument("--last", type=int, default=20, metavar="N", help="the last N mails (default 20)")
    p.add_argument("--show", type=int, metavar="NUMBER", help="print mail NUMBER whole")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, overrides={"data_dir": args.data})
    except ConfigError as e:
        print(f"judge outbox: {e}", file=sys.stderr)
        return 2
    path = Path(config.db_path)
    if not path.exists():
        print(f"judge outbox: no judge data in {config.data_dir} (nothing written yet)", file=sys.stderr)
        return 1
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if args.show is not None:
            return _show(db, args.show)
        rows = db.execute(LIST_SQL, {"state": args.state, "to": args.to, "last": max(1, args.last)}).fetchall()
    finally:
        db.close()
    for number, created, state, recipients, raw in reversed(rows):
        print(f"{number:>6}  {_when(created)}  {state:<6}  {', '.join(json.loads(recipients))}  {_subject(raw)}")
    if not rows:
        print("no mail" + (f" to {args.to}" if args.to else "") + (f" {args.state}" if args.state else ""))
    return 0


def _show(db: sqlite3.Connection, number: int) -> int:
    row = db.execute("SELECT created_at, state, recipients, raw, last_error FROM outbox_mail WHERE rowid = ?",
                     [number]).fetchone()
    if row is None:
        print(f"judge outbox: no mail number {number}", file=sys.stderr)
        return 1
    created, state, recipients, raw, error = row
    print(f"mail {number}: {state}, written {_when(created)}, to {', '.join(json.loads(recipients))}"
          + (f"; last error: {error}" if error else ""))
    if not raw:
        print("(its text was dropped once sent, after [outbox] keep_sent_days)")
        return 0
    mail = message_from_bytes(bytes(raw), policy=policy.default)
    assert isinstance(mail, EmailMessage)
    for name in ("From", "To", "Reply-To", "Subject", "Date"):
        if mail[name] is not None:
            print(f"{name}: {mail[name]}")
    body = mail.get_body(("plain",))
    print()
    print(body.get_content().rstrip("\n") if body is not None else "(no text part)")
    files = [part.get_filename() or part.get_content_type() for part in mail.iter_attachments()]
    if files:
        print(f"\nattached: {', '.join(files)}")
    return 0


def _when(created: float) -> str:
    return datetime.fromtimestamp(created, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def _subject(raw: bytes | None) -> str:
    if not raw:
        return "(text dropped)"
    head = bytes(raw).split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return str(message_from_bytes(head + b"\r\n\r\n", policy=policy.default).get("Subject", "")) or "(no subject)"
