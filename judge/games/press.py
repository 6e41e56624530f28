"""Press between powers: white (signed), grey (may be anonymous; the master still sees the sender),
or none (only to and from the master)."""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from .clock import iso
from .gamefile import GameFile
from .model import GameError, PressType
from .players import check_playing


def send(gf: GameFile, sender: str, to: Sequence[str] | None, body: str, anonymous: bool,
         account: str | None, source: str | None, now: datetime) -> int:
    if sender != "MASTER":
        check_playing(gf, sender, account)
        if gf.settings.press is PressType.NONE and list(to or ()) != ["MASTER"]:
            raise GameError(f"{gf.name} has no press between players")
        if anonymous and gf.settings.press is not PressType.GREY:
            raise GameError(f"{gf.name} has white press: messages are signed")
    powers = gf.powers()
    targets = sorted(powers) if to is None else [t.upper() for t in to]
    for t in targets:
        if t != "MASTER" and t not in powers:
            raise GameError(f"no power {t} in {gf.name}")
    shown = "anonymous" if anonymous else sender
    row = gf.current()
    press_id = gf.db.execute(
        "INSERT INTO press (phase_seq, at, sender, recipients, shown_as, body, source) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [row.seq if row else None, iso(now), sender, json.dumps(targets), shown, body, source]).lastrowid
    master = gf.row()["master"]
    accounts = {powers[t].account for t in targets if t != "MASTER" and powers[t].account}
    if "MASTER" in targets or anonymous:
        accounts.add(master)
    for acc in sorted(a for a in accounts if a):
        gf.notice(f"press:{press_id}", "press", acc, {
            "from": sender if acc == master else shown, "to": targets, "broadcast": to is None, "body": body}, now)
    return press_id
