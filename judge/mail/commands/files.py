"""Mail commands answered with a file: `MAP game [phase]` (a PNG of the board), `EXPORT game`
(the game's whole record as JSON, a whole-game request `judge adjudicate` replays) and `CALENDAR
game` (the next deadline as an .ics file, judge.mail.outbound.deadline_calendar).

Anyone may ask, as for LIST and HISTORY: both show only what the game's results mail showed. With fog
of war a map is the reader's view, and the record waits for the game's end (its master excepted).
A map is drawn when asked even where the game's results mail carries no picture (`PICTURES off`).
"""
from __future__ import annotations

import json

from ...games.model import GameError
from ...language import commands as c
from ...pictures.atlas import has_layout
from ...pictures.games import fogged_record, game_title, phase_board, veiled_record
from ...pictures.render import render_png
from ..screening.auth import Refused, known_game
from ..outbound.deadline_calendar import deadline_file
from ..outbound.outgoing import Attachment
from .command_env import Env
from ..words.fog_mail import reader_powers, veil_of
from ..words.refusals import refusal_words


def proven_or_stranger(env: Env, command: str) -> None:
    """A file goes to an account's address only when the mail proved who sent it: From is forged
    as easily as written, and a few bytes asking for MAP would otherwise mail a player pictures
    without end. An address no account has is bounded by the stranger's hourly reply budget."""
    session = env.session
    if session.sender_account is not None and session.account is None:
        raise Refused(f"{command} sends a file, and nothing in this mail proved it was you who asked",
                      "write from your secret reply address, or sign on first (SIGNON, or REGISTER name password)")


def board_map(env: Env, cmd: c.Map) -> list[str]:
    proven_or_stranger(env, "MAP")
    name = known_game(env.service, cmd.game)
    try:
        record = env.service.phase_record(name, cmd.phase)
    except GameError as e:
        played = [h.phase for h in env.service.history(name) if not h.rolled_back]
        raise Refused(refusal_words(e), f"MAP {name}, or MAP {name} with one of: {' '.join(played[-6:])}" if played
                      else f"MAP {name} once it has started") from None
    if not has_layout(record.variant):
        raise Refused(f"the judge cannot draw the {record.variant} map yet", f"SUMMARY {name} or HISTORY {name}")
    sees = reader_powers(env.service, name, env.session.account)
    hidden: frozenset[str] = frozenset()
    if sees is not None:             # fog of war: the board as the reader's powers saw it, as its results mail
        record, hidden = fogged_record(env.service, name, record, sees)
    record = veiled_record(env.service, name, record)     # hidden builds: on nobody's board until revealed
    variant, position, outcomes, dislodged = phase_board(env.service, record)
    png = render_png(
        variant,
        position,
        outcomes or None,
        dislodged=dislodged,
        title=game_title(name, variant, position),
        hidden=hidden,
        counted=sees,
    )
    filename = f"{name}-{record.phase}.png"
    env.files.append(Attachment(filename, "image", "png", png))
    what = "with its orders and what became of them" if outcomes else "as it stands, before its orders"
    return [f"the board of {name} in {record.phase}, {what}: attached as {filename}"]


def export(env: Env, cmd: c.Export) -> list[str]:
    proven_or_stranger(env, "EXPORT")
    name = known_game(env.service, cmd.game)
    if reader_powers(env.service, name, env.session.account) is not None:
        raise Refused(f"{name} is played with fog of war: its whole record is revealed at the end",
                      f"HISTORY {name} or MAP {name} show what your powers saw")
    if veil_of(env.service, name, env.service.status(name), env.session.account):
        raise Refused(f"{name} has builds hidden until the next movement phase is played",
                      f"EXPORT {name} once it has been played")
    record = env.service.export(name)
    filename = f"{name}.json"
    env.files.append(Attachment(filename, "application", "json",
                                json.dumps(record, indent=1, sort_keys=True).encode("utf-8")))
    played = sum(1 for p in record["phases"] if "results" in p)
    replay = ("`judge adjudicate " + filename + "` replays it" if record["replayable"]["ok"]
              else f"it cannot be replayed: {record['replayable'].get('why', '')}")
    return [(f"the record of {name}: {played} phase{'' if played == 1 else 's'} played, attached as"
             f" {filename}; {replay}")]


def calendar(env: Env, cmd: c.Calendar) -> list[str]:
    """The game's next deadline as an .ics file: the same event (one per game) the start mail and every
    mail that moves the deadline carry, at a higher SEQUENCE, so a calendar updates it."""
    proven_or_stranger(env, "CALENDAR")
    name = known_game(env.service, cmd.game)
    status = env.service.status(name)
    if not status.deadline or not status.phase:
        raise Refused(f"{name} has no deadline now (it is {status.status})",
                      f"CALENDAR {name} once it has one; SUMMARY {name} tells its state")
    now = env.service.clock()
    env.files.append(deadline_file(env.reports, env.service, name, env.domain, phase=status.phase,
                                   deadline_utc=status.deadline["utc"], stamp=now))
    return [f"the deadline for {status.phase_name} in {name}: attached as {name}-deadline.ics, for your"
            " calendar (in UTC; the event is updated by each later file the judge sends for this game)"]
