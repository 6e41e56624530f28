"""Press between powers: white (signed), grey (may be anonymous; the master still sees the sender),
broadcast only (to every power at once), or none (only to and from the master); optionally only in
movement phases, as at a table. The master gets a copy of all press, with its true sender."""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import cast

from .answers import NoticeKind
from .clock import iso
from .gamefile import GameFile
from .model import GameError, PressType, SignedPressOnly
from .players import check_playing


def send(gf: GameFile, sender: str, to: Sequence[str] | None, body: str, anonymous: bool,
         account: str | None, source: str | None, now: datetime) -> int:
    if sender != "MASTER":
        check_playing(gf, sender, account)
        _check_allowed(gf, to, anonymous, now)
    powers = gf.powers()
    targets = sorted(powers) if to is None else [t.upper() for t in to]
    for t in targets:
        if t != "MASTER" and t not in powers:
            raise GameError(f"no power {t} in {gf.name}")
    shown = "anonymous" if anonymous else sender
    row = gf.current()
    press_id = gf.db.table("press").insert({
        "phase_seq": row.seq if row else None, "at": iso(now), "sender": sender, "recipients": json.dumps(targets),
        "shown_as": shown, "body": body, "source": source}).last_pk
    masters = gf.masters()
    accounts = {powers[t].account for t in targets if t != "MASTER" and powers[t].account}
    # a copy of everything to the masters, as HELP PRESS tells players; a master's own press to the others
    accounts.update(m for m in masters if sender != "MASTER" or m != account)
    for acc in sorted(a for a in accounts if a):
        gf.notice(f"press:{press_id}", NoticeKind.PRESS, acc, {
            "from": sender if acc in masters else shown, "to": targets, "broadcast": to is None, "body": body,
            "grey": anonymous,
            "copy": acc in masters and "MASTER" not in targets and not any(
                powers[t].account == acc for t in targets if t != "MASTER")}, now)
    return cast(int, press_id)      # (sqlite-utils types last_pk as optional)


def _check_allowed(gf: GameFile, to: Sequence[str] | None, anonymous: bool, now: datetime) -> None:
    """The game's press rules for a player's press; the master may always be written to."""
    settings = gf.settings
    if list(to or ()) == ["MASTER"]:
        return
    if settings.press is PressType.NONE:
        raise GameError(f"{gf.name} has no press between players: only the game master can be written to")
    row = gf.current()
    if (settings.movement_press_only or settings.ftf_press) and row is not None \
            and row.position.phase.kind.value != "M":
        raise GameError(f"{gf.name} has press only in movement phases, as at a table: wait for the next"
                        " movement phase (the game master can still be written to)")
    if settings.ftf_press and to is not None and row is not None and row.deadline is not None \
            and now >= row.deadline:
        raise GameError(f"{gf.name} has face-to-face press: once the deadline has passed no private press goes"
                        " (a BROADCAST to every power, or press to the game master, still does)")
    if settings.press is PressType.BROADCAST and to is not None:
        raise GameError(f"{gf.name} has broadcast press only: write BROADCAST ... ENDPRESS to every power at once")
    if anonymous and settings.press is not PressType.GREY:
        raise SignedPressOnly(f"{gf.name} has {settings.press.value} press: messages are signed")
