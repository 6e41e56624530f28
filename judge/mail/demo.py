"""`judge demo`: a newcomer's first look. Seven players and a master play the 1901 year by real
SMTP against a running `judge serve`, and the demo shows where the judge's mail went.

It reads the same configuration as `judge serve` (so it finds the port and the data directory),
sends each mail, waits until the judge has processed it (the archive in judge.sqlite says so),
and prints the judge's answer. Once every power's orders are in, the judge plays the phase at
once (it does not wait for the deadline), and the demo waits for that.
"""
from __future__ import annotations

import argparse
import secrets
import smtplib
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from ..config import Config, ConfigError, load_config
from .outbound.compose import stable_message_id

POWERS = {"A": "austria", "E": "england", "F": "france", "G": "germany", "I": "italy", "R": "russia", "T": "turkey"}

SCRIPT = [
    (
        "S1901M",
        {
            "A": ["A Bud - Ser", "A Vie - Gal", "F Tri H"],
            "E": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
            "F": ["A Par - Bur", "A Mar - Spa", "F Bre - Mid"],
            "G": ["A Mun - Ruh", "A Ber - Kie", "F Kie - Den"],
            "I": ["A Ven H", "A Rom - Apu", "F Nap - Ion"],
            "R": ["F StP/sc - Bot", "A War - Ukr", "A Mos H", "F Sev - Bla"],
            "T": ["A Con - Bul", "A Smy - Arm", "F Ank H"],
        },
    ),
    (
        "F1901M",
        {
            "A": ["A Ser H", "A Gal H", "F Tri H"],
            "E": ["F Nwg - Nwy", "F Nth H", "A Yor H"],
            "F": ["F Mid - Por", "A Spa H", "A Bur H"],
            "G": ["A Kie - Hol", "F Den H", "A Ruh H"],
            "I": ["F Ion - Tun", "A Ven H", "A Apu H"],
            "R": ["F Bot - Swe", "F Bla - Rum", "A Ukr H", "A Mos H"],
            "T": ["A Bul H", "A Arm H", "F Ank H"],
        },
    ),
    (
        "W1901A",
        {
            "A": ["build A Vie"],
            "E": ["build F Lon"],
            "F": ["build A Par", "build F Bre"],
            "G": ["build A Ber", "build F Kie"],
            "I": ["build A Rom"],
            "R": ["build A War", "build F Sev"],
            "T": ["build A Con"],
        },
    ),
]

Say = Callable[..., object]     # print, or nothing (--quiet)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="play a short game by mail against a running `judge serve`",
                       description="Plays the 1901 year of a new game with seven players by SMTP against a running\n"
                                   "`judge serve` (start it first: bin/start), then shows where the reports are.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example:\n  bin/start &   then   .venv/bin/judge demo")
    p.add_argument("--config", metavar="FILE", help="the same TOML file `judge serve` uses (or $JUDGE_CONFIG)")
    p.add_argument("--data", metavar="DIR", help="the data directory of the running judge (default var/)")
    p.add_argument("--smtp-port", type=int, help="the running judge's SMTP port (default 2525)")
    p.add_argument("--quiet", action="store_true", help="print only where the reports are")
    p.set_defaults(func=run)


class Player:
    """One demo mailbox: sends a mail to the judge and waits until the judge has answered it."""

    def __init__(self, judge_address: str, host: str, port: int, db_path: Path, domain: str, say: Say) -> None:
        self.judge, self.host, self.port, self.db_path, self.domain, self.say = \
            judge_address, host, port, db_path, domain, say

    def send(self, sender: str, body: str, subject: str = "demo") -> str:
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = sender, self.judge, subject
        mail["Message-ID"] = make_msgid(domain="demo.example.org")
        mail.set_content(body + "\n")
        with smtplib.SMTP(self.host, self.port, timeout=60) as smtp:
            smtp.sendmail(sender, [self.judge], mail.as_bytes(policy=policy.SMTP))
        return self.answer(mail["Message-ID"].strip("<>"))

    def phase_after(self, game: str, phase: str, limit: float = 120.0) -> str:
        """Wait until the game's phase is no longer `phase` and its results are mailed (a player answers
        the results once read: orders sent before them would be too late for the phase just played);
        the phase it is now."""
        give_up = time.monotonic() + limit
        while time.monotonic() < give_up:
            row = _query(self.db_path, "SELECT phase, status, pending_notices FROM game_index WHERE name = ?", [game])
            if row and (row[0][0] != phase or row[0][1] == "finished") and not row[0][2]:
                return str(row[0][0] or row[0][1])
            time.sleep(0.1)
        raise TimeoutError(f"the judge did not play {phase} of {game} within {limit:.0f} s: is `judge serve` running?")

    def answer(self, message_id: str, limit: float = 120.0) -> str:
        give_up = time.monotonic() + limit
        while time.monotonic() < give_up:
            row = _query(self.db_path, "SELECT id, content_hash, state FROM inbound WHERE message_id = ? "
                                       "AND duplicate_of IS NULL", [message_id])
            if row and row[0][2] in ("processed", "failed"):
                reply_id = stable_message_id(f"reply:{row[0][0]}:{row[0][1]}", self.domain)
                raw = _query(self.db_path, "SELECT raw FROM outbox_mail WHERE message_id = ?", [reply_id])
                if raw:
                    text = message_from_bytes(raw[0][0], policy=policy.default).get_body(("plain",))
                    return str(text.get_content()) if text is not None else "(an answer with no text)"
                return f"(no answer: {row[0][2]})"
            time.sleep(0.1)
        raise TimeoutError(f"the judge did not process <{message_id}> within {limit:.0f} s: is `judge serve` running?")


def _query(db_path: Path, sql: str, params: Sequence[object]) -> list[Any]:
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30) as conn:
            return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:     # not created yet, or busy: try again
        return []


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, overrides={"data_dir": args.data, "smtp.port": args.smtp_port})
    except ConfigError as e:
        print(f"judge demo: {e}", file=sys.stderr)
        return 2
    say: Say = (lambda *a: None) if args.quiet else print
    try:
        where = play(config, say)
    except (OSError, TimeoutError) as e:
        print(f"judge demo: {e}\nStart the judge first (bin/start), with the same settings.", file=sys.stderr)
        return 1
    print(where)
    return 0


def play(config: Config, say: Say = print) -> str:
    run_id = secrets.token_hex(3)
    game = f"demo{run_id}"
    host = "127.0.0.1" if config.smtp.host in ("0.0.0.0", "") else config.smtp.host
    mailbox = Player(config.address, host, config.smtp.port, config.db_path, config.domain, say)
    address = {letter: f"{name}-{run_id}@demo.example.org" for letter, name in POWERS.items()}
    password = {letter: secrets.token_urlsafe(9) for letter in POWERS}
    master, master_pw = f"master-{run_id}@demo.example.org", secrets.token_urlsafe(9)

    def show(who: str, text: str) -> None:
        say(f"--- the judge answers {who} ---")
        say(text.rstrip())
        say("")

    say(f"judge demo: a new game {game} by SMTP to {config.address} at {host}:{config.smtp.port}\n")
    show(master, mailbox.send(master, f"REGISTER gm-{run_id} {master_pw}\nCREATE {game} {master_pw}"))
    for letter, name in POWERS.items():
        show(address[letter], mailbox.send(address[letter], f"REGISTER {name}-{run_id} {password[letter]}\n"
                                                             f"JOIN {game} {password[letter]} {name}"))
    for phase, orders in SCRIPT:
        for letter, lines in orders.items():
            body = f"SIGNON {letter}{game} {password[letter]}\n" + "\n".join(lines)
            show(address[letter], mailbox.send(address[letter], body, subject=f"{phase} orders"))
        say(f"--- every power's orders are in: the judge plays {phase} at once ---")
        say(f"{phase}: played, now {mailbox.phase_after(game, phase)}\n")
    mailbox.send(master, f"SIGNON M{game} {master_pw}\nSUMMARY {game}")
    return reports_note(config, game, [*address.values(), master])


def reports_note(config: Config, game: str, addresses: list[str]) -> str:
    """Where the game's mail is: the .eml files (no relay) or the relay, from the outbox table."""
    def settled() -> bool:   # the courier queues the last notices just after the reply; then they go out
        done = _query(config.db_path, "SELECT 1 FROM game_index WHERE name = ? AND pending_notices = 0", [game])
        return bool(done) and not _query(config.db_path, "SELECT 1 FROM outbox WHERE state = 'queued'", [])

    give_up = time.monotonic() + 60
    while time.monotonic() < give_up and not settled():
        time.sleep(0.1)
    rows = _query(config.db_path, "SELECT message_id, recipients, state, delivered_via, raw FROM outbox_mail "
                                  "ORDER BY created_at", [])
    mine = [r for r in rows if any(a in r[1] for a in addresses)]
    lines = [f"The demo game {game} was played by mail: {len(mine)} mails from the judge to its players."]
    results = []
    for _message_id, recipients, state, via, raw in mine:
        mail = message_from_bytes(raw, policy=policy.compat32)
        if mail["In-Reply-To"] is None and addresses[2] in recipients:   # France's reports
            results.append(f"  {mail['Subject']}\n    {via or f'({state}: queued for delivery)'}")
    lines.append("The reports France received (results, notices):")
    lines.extend(results or ["  (none yet)"])
    if config.relay.enabled:
        lines.append(f"Every mail went to the relay {config.relay.host}:{config.relay.port}.")
    else:
        lines.append(f"Every mail the judge wrote is a file in {config.outbox_dir.resolve()}/ (no relay is set).")
    return "\n".join(lines)
