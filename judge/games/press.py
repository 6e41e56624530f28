"""Press between powers: white (signed), grey (may be anonymous; the master still sees the sender),
broadcast only (to every power at once), or none (only to and from the master); optionally only in
movement phases, as at a table. The master gets a copy of all press, with its true sender.

As njudge had it, a game may also let observers send press (NONE, WHITE or ANY) and read all of it
(broadcasts reach them always); let a writer fake the recipients its readers are shown (FAKE
BROADCAST, FAKE TO powers; the master is shown the truth); refuse press from a power that is late
with its orders, or from one whose orders are not in (MUST ORDER). The master can always be written to."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from . import processing
from .answers import NoticeKind
from .clock import iso
from .gamefile import GameFile
from .model import FakePress, GameError, ObserverPress, PowerStatus, PressType, SignedPressOnly
from .players import check_playing

OBSERVER = "OBSERVER"     # the sender of an observer's press; `OBSERVER:account` where it is signed


@dataclass(frozen=True)
class Fake:
    """The recipients a faked press shows its readers: `to` None, a broadcast to every power."""
    to: Sequence[str] | None = None


def send(gf: GameFile, sender: str, to: Sequence[str] | None, body: str, anonymous: bool,
         account: str | None, source: str | None, now: datetime, *, observers: Sequence[str] = (),
         fake: Fake | None = None) -> int:
    """`observers`: the game's observers (they read broadcasts, and all press if the game says so);
    `sender` OBSERVER: an observer's press, `account` the observer."""
    settings = gf.settings
    if sender == OBSERVER:
        if account not in observers:
            raise GameError(f"you do not observe {gf.name}")
        _check_observer(gf, to, anonymous, now)
    elif sender != "MASTER":
        check_playing(gf, sender, account)
        _check_allowed(gf, to, anonymous, now)
        _check_in_time(gf, sender, to)
    if fake is not None:
        _check_fake(gf, to)
    powers = gf.powers()
    targets = sorted(powers) if to is None else [t.upper() for t in to]
    for t in targets:
        if t != "MASTER" and t not in powers:
            raise GameError(f"no power {t} in {gf.name}")
    true_sender = f"{OBSERVER}:{account}" if sender == OBSERVER else sender
    shown = "anonymous" if anonymous else (OBSERVER if sender == OBSERVER and settings.anonymous else true_sender)
    shown_to, shown_broadcast = _shown_recipients(gf, sender, to, targets, fake)
    row = gf.current()
    press_id = gf.db.table("press").insert({
        "phase_seq": row.seq if row else None, "at": iso(now), "sender": true_sender,
        "recipients": json.dumps(targets), "shown_as": shown, "body": body, "source": source}).last_pk
    masters = gf.masters()
    readers = {powers[t].account for t in targets if t != "MASTER" and powers[t].account}
    if to is None:
        readers.update(observers)        # a broadcast is public news: observers read it
    watching = set(observers) if settings.observers_read_all else set()
    # a copy of everything to the masters, as HELP PRESS tells players; a master's own press to the others
    everyone = readers | watching | {m for m in masters if sender != "MASTER" or m != account}
    faked = (shown_to, shown_broadcast) != (targets, to is None)
    for acc in sorted(a for a in everyone if a):
        payload: dict[str, Any] = {"body": body, "grey": anonymous}
        if acc in masters:
            payload.update({"from": true_sender, "to": targets, "broadcast": to is None,
                            "copy": "MASTER" not in targets and acc not in readers})
            if faked:
                payload["shown"] = {"to": shown_to, "broadcast": shown_broadcast}
        else:
            payload.update({"from": shown, "to": shown_to, "broadcast": shown_broadcast, "copy": False,
                            "watching": acc not in readers})
        gf.notice(f"press:{press_id}", NoticeKind.PRESS, acc, payload, now)
    return cast(int, press_id)      # (sqlite-utils types last_pk as optional)


def _shown_recipients(gf: GameFile, sender: str, to: Sequence[str] | None, targets: list[str],
                      fake: Fake | None) -> tuple[list[str], bool]:
    """The recipients the readers are shown, and whether as a broadcast."""
    everyone = sorted(gf.powers())
    if fake is not None:
        return (everyone, True) if fake.to is None else ([t.upper() for t in fake.to], False)
    if (gf.settings.fake_press is FakePress.BROADCAST and sender != "MASTER" and to is not None
            and "MASTER" not in targets):
        return everyone, True           # njudge's PARTIAL FAKES BROADCAST: all of it shown as broadcast
    return targets, to is None


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


def _check_observer(gf: GameFile, to: Sequence[str] | None, anonymous: bool, now: datetime) -> None:
    """An observer's press: the game's OBSERVERS setting, then its press rules as for a player."""
    allowed = gf.settings.observer_press
    if list(to or ()) == ["MASTER"]:
        return
    if allowed is ObserverPress.NONE:
        raise GameError(f"{gf.name} has no press from observers: only the game master can be written to"
                        " (PRESS TO MASTER); the master may allow it with SET OBSERVERS WHITE")
    if anonymous and allowed is ObserverPress.WHITE:
        raise SignedPressOnly(f"{gf.name} takes signed press only from observers: messages are signed")
    _check_allowed(gf, to, anonymous, now)


def _check_in_time(gf: GameFile, power: str, to: Sequence[str] | None) -> None:
    """njudge's NO LATE PRESS and MUST ORDER: press waits for the power's orders."""
    row = gf.current()
    if list(to or ()) == ["MASTER"] or row is None:
        return
    settings = gf.settings
    if not (settings.must_order or not settings.late_press) or not processing.owed(gf, row, power):
        return
    name, phase = gf.variant.power(power).name, gf.phase_code(row.position)
    if settings.must_order:
        raise GameError(f"{gf.name} takes press only from a power whose orders are in, and {name}'s for"
                        f" {phase} are not: send your orders first, then the press (the game master can"
                        " still be written to)")
    if gf.powers()[power].status is PowerStatus.LATE:
        raise GameError(f"{name} is late with its orders for {phase}, and {gf.name} takes no press from a late"
                        " power: send your orders first, then the press (the game master can still be"
                        " written to)")


def _check_fake(gf: GameFile, to: Sequence[str] | None) -> None:
    if list(to or ()) == ["MASTER"]:
        raise GameError("press to the game master is never faked: write it without FAKE")
    if gf.settings.fake_press is FakePress.OFF:
        raise GameError(f"{gf.name} has no fake press: its readers are shown the true recipients (the master"
                        " may allow fakes with SET FAKE ON)")
