"""Shared helpers for the games tests (no tests here): a service on a temporary directory, orders
written in the engine's canonical notation, and a stand-in for the mail layer that drains notices."""
from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

from judge.engine import load_variant
from judge.engine.notation import parse_order
from judge.games.clock import ManualClock
from judge.games.service import GameService

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
STANDARD = load_variant("standard")
START = "2026-03-02T12:00:00Z"


def service(tmp_path: Path, start: str = START, **kwargs) -> tuple[GameService, ManualClock]:
    clock = ManualClock(start)
    return GameService(tmp_path / "var", clock=clock, **kwargs), clock


def accounts(svc: GameService, names: list[str], zone: str = "Europe/Berlin") -> None:
    for n in names:
        svc.create_account(n, f"{n}@example.org", f"secret-{n}", time_zone=zone)


def seven_player_game(svc: GameService, name: str = "alpha", settings=None, rules: str = "5th") -> dict:
    """A standard game where player 'p-france' gets France, and so on (each asked for one power)."""
    names = [f"p-{p.lower()}" for p in POWERS]
    accounts(svc, [n for n in names if not _exists(svc, n)])
    if not _exists(svc, "gm"):
        svc.create_account("gm", "gm@example.org", "gm-secret", time_zone="America/New_York")
    svc.create_game(name, master="gm", settings=settings, rules=rules, seed=7)
    for p, n in zip(POWERS, names):
        status = svc.join(name, n, [p])
    return status


def _exists(svc: GameService, name: str) -> bool:
    try:
        svc.accounts.get(name)
        return True
    except KeyError:
        return False


def orders(*texts: str, variant=STANDARD) -> list[tuple[str, object]]:
    return [(t, parse_order(variant, t)) for t in texts]


_messages = itertools.count(1)


def submit(svc: GameService, game: str, power: str, *texts: str) -> dict:
    """Orders from the power's player, as if in a new mail message each time."""
    return svc.submit_orders(game, power, orders(*texts), account=f"p-{power.lower()}",
                             source=f"test:{next(_messages)}")


class Outbox:
    """What the mail layer does with notices: one mail per notice, keyed by a Message-ID made from the
    notice id (so a retry after a crash adds nothing), then the notice is marked queued."""

    def __init__(self, path: Path, checkpoint=lambda name: None) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS outbox (message_id TEXT PRIMARY KEY, game TEXT, kind TEXT,"
                          " recipient TEXT)")
        self.checkpoint = checkpoint

    def drain(self, svc: GameService) -> int:
        count = 0
        for game in svc.games_with_notices():
            notices = svc.pending_notices(game)
            for n in notices:
                self.conn.execute("INSERT OR IGNORE INTO outbox VALUES (?, ?, ?, ?)",
                                  [f"<{n.id}@judge.test>", game, n.kind, n.recipient])
            self.checkpoint("outbox written")
            svc.mark_notices_queued(game, [n.id for n in notices])
            count += len(notices)
        return count

    def rows(self) -> list[tuple]:
        return self.conn.execute("SELECT message_id, game, kind, recipient FROM outbox ORDER BY message_id").fetchall()
