"""One handler per command (judge.language.commands), mapped to GameService calls.

`HANDLERS` is the one place a command is wired in: adding a command is one entry. A handler
gets the `Env` of the message and the typed command, and returns the lines that tell the player
what was done; it raises `Refused` (or GameError, KeyError, ValueError) with what was wrong.
A handler marked `once` changes something that doing twice would change twice (PROCESS, PAUSE,
EXTEND, ...): it passes `env.source` to the service, which marks it done in the same transaction
as the deed, and the dispatcher keeps its answer, to repeat when the mail is read again.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from ...games.answers import GameState
from ...games.clock import shown
from ...engine.variant import Variant
from ...games import press
from ...games.model import GameError, SignedPressOnly
from ...language import commands as c
from . import game_setup as setup
from . import info
from . import diary
from . import later_phase
from . import more_addresses
from . import preferences
from . import files
from . import master
from ..screening.auth import (Refused, authenticate, check_password, game_name, power_name, require_player,
                              resolve_power, signon)
from .command_env import Env, Handler
from .press_recipients import Recipients, UnreadableRecipient, read_recipients
from .game_settings import HELP_SETTINGS
from ..screening.sign_on_names import read_signon
from ..screening.tokens import revoke
from ..words.refusals import refusal_words
from .variant_info import help_variant


def _signon(env: Env, cmd: c.SignOn) -> list[str]:
    who, game = read_signon(env.service, cmd.word) if cmd.word else (cmd.power_letter, cmd.game)
    return [signon(env.service, env.session, who, game, cmd.password)]


def _register(env: Env, cmd: c.Register) -> list[str]:
    usage = "REGISTER name password [time zone], e.g. REGISTER ann s3cret Europe/Paris"
    if len(cmd.details) < 2:
        raise Refused("REGISTER needs a name and a password", usage)
    name, password, *rest = cmd.details
    env.session.passwords.add(password)
    zone = rest[0] if rest else "UTC"
    svc, session = env.service, env.session
    if session.sender_account is not None:
        if session.sender_account.lower() == name.lower():
            # a password check like any other: through the guard (From is forged as easily as written)
            check_password(svc, session, session.sender_account, password, usage)
            session.account = session.sender_account
            return [f"{session.sender} is registered as {session.sender_account}"]
        raise Refused(f"{session.sender} is already registered as {session.sender_account}",
                      "sign on with that account's password; SET PASSWORD changes it")
    try:
        account = svc.create_account(name, session.sender, password, time_zone=zone)
    except KeyError:       # zoneinfo's "not found" is a KeyError
        raise Refused(f"{zone[:60]!r} is not a time zone the judge knows", usage + " (an IANA zone name)") from None
    except GameError as e:      # a name or address not fit for an account, or taken
        raise Refused(refusal_words(e), usage) from None
    session.account = session.sender_account = account.name
    return [f"registered {account.name} at {session.sender} (time zone {account.time_zone})"]


def _join(env: Env, cmd: c.Join) -> list[str]:
    usage = f"TAKE {cmd.game} power password" if cmd.take else f"JOIN {cmd.game} password [power]"
    account = authenticate(env.service, env.session, cmd.password, usage)
    name = game_name(cmd.game)
    if cmd.join_password:
        env.session.passwords.add(cmd.join_password)     # masked in the reply and the archive
    current = env.service.status(name)
    if current.status in ("active", "paused"):
        return _take_over(env, name, account, cmd.preference, current, cmd.join_password)
    if cmd.take:
        raise Refused(f"{name} has not started: TAKE is for a power open in a game under way",
                      f"JOIN {name} password [power]")
    # a power's initial, as SIGNON takes it, or its name; or njudge's ranked list (E F G, E[FG]R)
    ranked = preferences.ranking(env, name, cmd.preference) if cmd.preference else []
    status = env.service.join(name, account, ranked, join_password=cmd.join_password)
    env.session.game, env.session.powers = name, ()
    if status.status == "forming":
        have, need = len(status.signups), status.players_needed
        wanted = [f"your preferences: {preferences.said(env, name, ranked)}"] if len(ranked) > 1 else []
        return [f"joined {name}: {have} of {need} players signed up; the game starts when all {need} have,"
                " and the judge then mails you your power", *wanted, info.record_line(env.service.record(account))]
    mine = [p for p, info in status.powers.items() if info.account == account]
    env.session.powers = tuple(mine)
    names = ", ".join(power_name(env.service, name, p) for p in mine)
    return [f"joined {name}, which has started: you play {names or 'no power'}"]


def _take_over(env: Env, name: str, account: str, wanted: str | None, status: GameState,
               join_password: str | None = None) -> list[str]:
    """JOIN a game under way: take over a power its player left (resigned or abandoned)."""
    open_ = env.service.open_powers(name)
    if not open_:
        raise Refused(f"{name} has started and no power is open for takeover (one offered earlier has been"
                      " taken, or its player came back): thank you all the same",
                      f"OBSERVE {name} password to watch it")
    power = resolve_power(env.service.variant(status.variant), wanted) if wanted else None
    if power not in open_:
        names = [power_name(env.service, name, p) for p in open_]
        raise Refused(f"{name} has started; the powers open for takeover are {', '.join(names)}",
                      f"JOIN {name} password {names[0]}")
    if not status.settings.get("approve_takeovers"):
        master.end_ousted_replies(env, name, power, account)
    if not env.service.claim(name, power, account, join_password=join_password):
        return [f"your takeover of {power_name(env.service, name, power)} in {name} waits for the master's"
                " approval: the judge mails you the power's position when the master approves"]
    env.session.game, env.session.powers = name, (power,)
    return [f"you now play {power_name(env.service, name, power)} in {name}"]


def _observe(env: Env, cmd: c.Observe) -> list[str]:
    name = game_name(cmd.game)
    account = authenticate(env.service, env.session, cmd.password, f"OBSERVE {cmd.game} password", game=name)
    added = env.service.observe(name, account)
    env.session.game, env.session.powers = name, ()     # press after it is an observer's (HELP PRESS)
    return [f"{'you now observe' if added else 'you already observe'} {name}: its public news comes to you"]


def _unobserve(env: Env, cmd: c.Unobserve) -> list[str]:
    name = game_name(cmd.game) if cmd.game else env.session.game
    if name is None:
        raise Refused("stop observing which game?", "UNOBSERVE game")
    account = authenticate(env.service, env.session, cmd.password, f"UNOBSERVE {name} password", anywhere=True)
    stopped = env.service.stop_observing(name, account)
    return [f"you no longer observe {name}" if stopped else f"you were not observing {name}: nothing changed"]


def _concede(env: Env, cmd: c.Concede) -> list[str]:
    game, _ = require_player(env.session, "CONCEDE")
    power = None
    if cmd.power is not None:
        power = resolve_power(env.service.variant(env.service.phase_of(game)[0]), cmd.power)
        if power is None:
            raise Refused(f"{cmd.power!r} is not a power in {game}", "CONCEDE France")
    try:
        ended = env.service.concede(game, env.session.account_signed_on, power)
    except GameError as e:
        raise Refused(refusal_words(e), "CONCEDE a surviving power of another player, or CONCEDE NONE") from None
    if power is None:
        return [f"you no longer concede {game}"]
    name = power_name(env.service, game, power)
    if ended:
        return [f"you concede {game} to {name}: every other survivor has, so {name} wins and the game is over"]
    conceded, needed = env.service.concessions(game, power)
    return [(f"you concede {game} to {name}: {conceded} of the {needed} other survivors have; {name} wins when"
             " every one does (the others are told). CONCEDE NONE takes it back")]


def _press(env: Env, cmd: c.Press) -> list[str]:
    session = env.session
    if session.as_master and session.power is None and session.game:
        game, sender = session.game, "MASTER"
    elif _observing(env):
        game, sender = session.game or "", press.OBSERVER     # (an observer's sign-on is its OBSERVE line)
    else:
        game, sender = require_player(session, "press")
    variant = env.service.variant(env.service.phase_of(game)[0])
    to: list[str] | None = None
    left_out: tuple[str, ...] = ()
    if not cmd.broadcast:
        if not cmd.recipients:
            raise Refused("PRESS TO whom?", "PRESS TO France Germany ... ENDPRESS, or BROADCAST ... ENDPRESS")
        chosen = _recipients(env, game, variant, cmd.recipients, sender)
        to = None if chosen.powers is None else list(chosen.powers)
        left_out = chosen.excluded
    fake = None
    if cmd.fake:
        fake = press.Fake(_recipients(env, game, variant, cmd.fake_to, sender).powers if cmd.fake_to else None)
    if not cmd.body.strip():
        raise Refused("the press is empty: nothing was sent", "write the message between PRESS and ENDPRESS")
    try:
        env.service.send_press(game, sender, to, cmd.body, anonymous=cmd.grey, account=session.account,
                               source=env.source, fake=fake)
    except GameError as e:
        raise Refused(f"{refusal_words(e)}; the press was not sent",
                      "send it again as PRESS TO ... ENDPRESS, without GREY" if isinstance(e, SignedPressOnly)
                      else "") from None

    def names(powers: Sequence[str]) -> str:
        return ", ".join("the master" if p == "MASTER" else variant.power(p).name for p in powers)
    whom = "everyone" if to is None else names(to)
    if left_out:
        whom += f" (not {names(left_out)})"
    if fake is not None:
        whom += (", shown to its readers as a broadcast" if fake.to is None
                 else f", shown to its readers as to {names(fake.to)}")
    count = len(cmd.body.splitlines())
    return [f"{'grey ' if cmd.grey else ''}press sent to {whom} ({count} line{'' if count == 1 else 's'})"]


def _observing(env: Env) -> bool:
    """Signed on to a game by its OBSERVE line, playing no power there: an observer's press."""
    session = env.session
    return (session.game is not None and session.account is not None and not session.powers
            and not session.as_master and session.account in env.service.observers(session.game))


def _recipients(env: Env, game: str, variant: Variant, words: tuple[str, ...], sender: str) -> Recipients:
    try:
        return read_recipients(variant, words, tuple(env.service.status(game).powers), sender)
    except UnreadableRecipient as e:
        names = [p.name for p in variant.powers]
        close = difflib.get_close_matches(e.word.title(), names, n=1, cutoff=0.6) if e.word else []
        guess = f" (did you mean {close[0]}?)" if close else ""
        raise Refused(f"{e.word!r} is not a power in {game}{guess}; the press was not sent"
                      if e.word else f"{e}; the press was not sent",
                      f"PRESS TO France Germany ... ENDPRESS, PRESS TO ALL BUT Germany ... ENDPRESS"
                      f" ({' '.join(names)})") from None


def _set_wait(env: Env, cmd: c.SetWait) -> list[str]:
    game, power = require_player(env.session, "SET WAIT")
    env.service.set_wait(game, power, cmd.wait, account=env.session.account)
    name = power_name(env.service, game, power)
    return [f"{name} {'asks the game to wait for it' if cmd.wait else 'no longer asks the game to wait'}"]


def _set_draw(env: Env, cmd: c.SetDraw) -> list[str]:
    game, _ = require_player(env.session, "SET DRAW")
    variant = env.service.variant(env.service.phase_of(game)[0])
    powers = None
    if cmd.powers:
        named = [resolve_power(variant, w) for w in cmd.powers]
        powers = [p for p in named if p is not None]
        if len(powers) < len(named):
            raise Refused("a power named in the draw is not in the game", "SET DRAW France Germany")
    try:
        acting = env.session.power if env.session.acting else None     # a master after BECOME power
        ended = env.service.vote_draw(game, env.session.account_signed_on, cmd.draw, powers, for_power=acting)
    except GameError as e:
        # a vote naming powers may be written otherwise; a plain SET DRAW the game refused (it is over,
        # say) would only be refused again: no fix that repeats it
        raise Refused(f"{refusal_words(e)}; your vote was not changed",
                      "SET DRAW to vote for a draw, SET NODRAW to take the vote back" if cmd.powers else "") from None
    who = f"{power_name(env.service, game, acting)} votes" if acting else "you vote"
    return [(f"{who} for a draw" + (f" of {', '.join(powers)}" if powers else "")) if cmd.draw
            else f"{who} against a draw"] + (["every survivor agreed: the game ends in a draw"] if ended else [])


_SPAN = re.compile(r"^(?P<start>\S+(?:[ T]\d{1,2}:\d{2})?)\s+(?:(?:to|until|-)\s+)?(?P<end>\S+(?:[ T]\d{1,2}:\d{2})?)$",
                   re.IGNORECASE)


def _set_absence(env: Env, cmd: c.SetAbsence) -> list[str]:
    game, power = require_player(env.session, "SET ABSENCE")
    usage = "SET ABSENCE 2026-12-20 to 2026-12-27 (dates in the game's time zone)"
    match = _SPAN.match(cmd.when.strip())
    if not match:
        raise Refused(f"cannot read the dates {cmd.when!r}", usage)
    account, by_master = env.session.account, False
    if env.session.acting:      # a master after BECOME power: the absence is its player's
        account, by_master = env.service.status(game).powers[power].account, True
    if account is None:
        raise Refused(f"nobody plays {power_name(env.service, game, power)} in {game} now", usage)
    try:
        out = env.service.add_absence(game, account, match["start"], match["end"], by_master=by_master,
                                      source=env.source)
    except ValueError as e:     # GameError (a code) or a time that does not read
        raise Refused(refusal_words(e), usage) from None
    if out.repeated or out.starts is None or out.ends is None:      # (a repeat has no span)
        return ["this absence was set when the judge first read this mail"]
    zones = _zones(env, game)
    lines = [*_times("away from", out.starts, zones), *_times("       to", out.ends, zones)]
    if out.deadline_moved and out.deadline:
        lines.extend(_times("the deadline moved to", out.deadline, zones))
    return lines


def _times(label: str, instant: str, zones: list[str]) -> list[str]:
    """A time in each zone, one a line under the first (two on one line are wider than a mail's)."""
    texts = [f"{text} ({zone})" for zone, text in shown(instant, zones).items()]
    return [f"{label} {texts[0]}", *(" " * (len(label) + 1) + t for t in texts[1:])]


def _zones(env: Env, game: str) -> list[str]:
    """The game's time zone, then the account's own."""
    zones = [env.service.status(game).settings["time_zone"]]
    if env.session.account:
        zones.append(env.service.accounts.get(env.session.account).time_zone)
    return zones


def _set_password(env: Env, cmd: c.SetPassword) -> list[str]:
    session = env.session
    if session.acting and session.game and session.power:     # BECOME power: the player's password
        return _set_players_password(env, session.game, session.power, cmd.password)
    account = authenticate(env.service, env.session, None, "SIGNON Fgame old-password, then SET PASSWORD new")
    env.session.passwords.add(cmd.password)
    env.service.accounts.set_password(account, cmd.password)
    revoke(env.service.judge, account)      # whoever learnt a reply address with the old password loses it
    return ["password changed (it is not repeated here); your old secret reply addresses no longer work:"
            " answer this mail or the judge's next ones"]


def _set_players_password(env: Env, game: str, power: str, password: str) -> list[str]:
    """A master after BECOME power sets its player's password (the player is told, not the password)."""
    env.session.passwords.add(password)
    name = power_name(env.service, game, power)
    try:
        player = env.service.set_player_password(game, power, env.session.account_signed_on, password,
                                                 source=env.source)
    except GameError as e:
        raise Refused(f"the password of {name}'s player cannot be set from {game}: {refusal_words(e)}",
                      "the player can answer any of the judge's mails to them about no game in particular"
                      " (its reply address needs no password) with SET PASSWORD new") from None
    revoke(env.service.judge, player)       # the old reply addresses, with whoever has them
    return [f"the password of {player}, who plays {name} in {game}, is set (it is not repeated here); they are"
            " told at their address, without it: tell it to them yourself. Your own password is unchanged"]


def _set_address(env: Env, cmd: c.SetAddress) -> list[str]:
    account = authenticate(env.service, env.session, None, "SIGNON Fgame password, then SET ADDRESS new")
    if "@" not in cmd.address:
        raise Refused(f"{cmd.address!r} is not a mail address", "SET ADDRESS you@example.org")
    try:
        env.service.accounts.replace_address(account, cmd.address, env.service.clock())
    except GameError as e:      # not an address, or another account's
        raise Refused(refusal_words(e), "SET ADDRESS you@example.org") from None
    revoke(env.service.judge, account)      # the old reply addresses went to the old address
    env.session.copy_to.add(cmd.address.lower())
    return [f"the judge now writes to {cmd.address} (this answer goes to your old address too); your old"
            " secret reply addresses no longer work", *(more_addresses.claim(env, account, a) for a in cmd.also)]


def _new_reply_address(env: Env, cmd: c.NewReplyAddress) -> list[str]:
    account = authenticate(env.service, env.session, None, "SIGNON Fgame password, then SET NEWREPLY",
                           game=env.session.game)
    revoke(env.service.judge, account)
    return ["your old secret reply addresses no longer work: answer this mail (or the judge's next ones),"
            " whose reply address is new"]


def _set_timezone(env: Env, cmd: c.SetTimezone) -> list[str]:
    account = authenticate(env.service, env.session, None, "SIGNON Fgame password, then SET TIMEZONE zone",
                           anywhere=True)
    try:
        env.service.accounts.set_time_zone(account, cmd.zone)
    except (KeyError, ValueError):
        raise Refused(f"{cmd.zone!r} is not a time zone the judge knows",
                      "an IANA name, e.g. SET TIMEZONE Europe/Paris or America/New_York") from None
    return [f"times are shown to you in {cmd.zone} as well as the game's zone"]


def _resign(env: Env, cmd: c.Resign) -> list[str]:
    if env.session.as_master and not env.session.acting and env.session.power is None:
        return master.step_down(env)       # the master's: steps down, never leaving the game masterless
    game, power = require_player(env.session, "RESIGN")
    if cmd.game and game_name(cmd.game) != game:
        raise Refused(f"you are signed on to {game}, not {cmd.game}", f"SIGNON to {cmd.game} first")
    env.service.resign(game, power, account=env.session.account, source=env.source)
    return [f"you resigned {power_name(env.service, game, power)} in {game}; it is open for another player"
            " to take over"]


def _signoff(env: Env, cmd: c.SignOff) -> list[str]:
    return ["signed off: nothing after this line was read"]


def _help(env: Env, cmd: c.Help) -> list[str]:
    first, _, rest = (cmd.topic or "").partition(" ")
    if first.upper() in ("VARIANT", "VARIANTS"):   # HELP VARIANT name: judge.mail.commands.variant_info
        return help_variant(env, rest)
    return env.reports.render("reply_help.j2", topic=cmd.topic, settings=HELP_SETTINGS).body.rstrip("\n").split("\n")


def _exchange(env: Env, cmd: c.Exchange) -> list[str]:
    """Abstraction II: offer centres for centres to another power; both sides must send matching offers."""
    game, power = require_player(env.session, "EXCHANGE")
    done = env.service.offer_exchange(game, power, partner=cmd.partner, give=cmd.give, receive=cmd.receive,
                                      account=env.session.account, source=env.source)
    partner = env.service.variant(env.service.status(game).variant).power(done.partner).name
    if done.status == "withdrawn":
        return [f"your offer to exchange centres with {partner} is withdrawn"]
    offer = f"{' '.join(done.give).upper()} for {' '.join(done.receive).upper()}"
    lines = [f"offered {partner} {offer}; it takes effect at the end of this move if {partner} sends the"
             " matching EXCHANGE" if done.status == "offered" else
             f"agreed with {partner}: {offer}, at the end of this move"]
    if done.warning:
        lines.append(done.warning)
    return lines


# The commands of the mail judge. Adding one is one entry here.
HANDLERS: dict[type, Handler[Any]] = {     # (Any: each handler takes the command its key names)
    c.Register: Handler(_register),
    c.SignOn: Handler(_signon),
    c.Create: Handler(setup.create),
    c.SetJoinPassword: Handler(setup.set_join_password, once=True),
    c.Join: Handler(_join),                 # also takes over an open power in a game under way
    c.Observe: Handler(_observe),
    c.Diary: Handler(diary.run),            # idempotent by its source
    c.ListGames: Handler(info.list_games),
    c.History: Handler(info.history),
    c.Summary: Handler(info.summary),
    c.Map: Handler(files.board_map),
    c.Export: Handler(files.export),
    c.Calendar: Handler(files.calendar),
    c.Press: Handler(_press),               # idempotent by its source
    c.SetWait: Handler(_set_wait),
    c.SetDraw: Handler(_set_draw),
    c.SetAbsence: Handler(_set_absence, once=True),
    c.SetPassword: Handler(_set_password),
    c.SetAddress: Handler(_set_address),
    c.AddAddress: Handler(more_addresses.add_address),
    c.SetPreference: Handler(preferences.set_preference),
    c.ConfirmAddress: Handler(more_addresses.confirm_address),
    c.SetTimezone: Handler(_set_timezone),
    c.NewReplyAddress: Handler(_new_reply_address),
    c.SetDeadline: Handler(master.set_deadline, once=True),
    c.SetGame: Handler(master.set_game, once=True),
    c.ForceStart: Handler(master.force_start, once=True),
    c.Terminate: Handler(master.terminate, once=True),
    c.Access: Handler(master.access, once=True),
    c.Resign: Handler(_resign, once=True),
    c.SignOff: Handler(_signoff),
    c.Help: Handler(_help),
    c.BecomeMaster: Handler(master.become_master),
    c.Process: Handler(master.process, once=True),
    c.Pause: Handler(master.pause, once=True),
    c.Resume: Handler(master.resume, once=True),
    c.Extend: Handler(master.extend, once=True),
    c.Eject: Handler(master.eject, once=True),
    c.Replace: Handler(master.replace, once=True),
    c.Rollback: Handler(master.rollback, once=True),
    c.Preview: Handler(master.preview),
    c.Exchange: Handler(_exchange),         # idempotent by its source
    c.BecomePower: Handler(master.become_power),   # changes the session: run again on a repeat
    c.Promote: Handler(master.promote, once=True),
    c.ClearOrders: Handler(master.clear),       # idempotent by its source
    c.Concede: Handler(_concede),           # a vote: the same twice is the same
    c.Unobserve: Handler(_unobserve),
    c.Reveal: Handler(master.reveal, once=True),
    c.Seek: Handler(master.seek, once=True),
    c.DecideTakeover: Handler(master.decide_takeover, once=True),
    c.Whois: Handler(info.whois),
    c.Version: Handler(info.version),
    c.Phase: Handler(later_phase.phase),
    c.Unstart: Handler(master.unstart, once=True),
    c.HandOver: Handler(master.hand_over, once=True),
}

__all__ = ["Env", "HANDLERS", "Handler"]
