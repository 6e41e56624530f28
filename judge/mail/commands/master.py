"""The game master's mail commands: PROCESS, PREVIEW, PAUSE, RESUME, SET DEADLINE, EXTEND, EJECT,
REPLACE, ROLLBACK, SET <setting> <value>, BECOME <power>, PROMOTE/DEMOTE (co-masters), CLEAR <power>
and REVEAL, each only for the signed-on game's masters (or the judge keeper); and BECOME MASTER,
which makes one."""
from __future__ import annotations

import re
from zoneinfo import ZoneInfo

from ...language import commands as c
from ..screening.auth import Refused, authenticate, power_name, require_master, require_player, resolve_power
from .command_env import Env
from ...games.clock import iso
from ...games.model import CHANGEABLE_IN_PLAY, GameError, GameStatus
from .game_settings import DATES, EDITION, Setting, read_setting, within_a_year
from .info import outcome_line
from .own_preview import own_preview
from ..screening.tokens import revoke
from ..words.refusals import refusal_words


def hours_in(text: str) -> float:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(h|hours?|d|days?|m|min|minutes?)?\s*", text, re.IGNORECASE)
    if not m:
        raise Refused(f"cannot read {text!r} as a length of time", "EXTEND 24 (hours), EXTEND 2d or EXTEND 90m")
    n, unit = float(m[1]), (m[2] or "h").lower()
    hours = n * 24 if unit.startswith("d") else n / 60 if unit.startswith("m") else n
    try:
        return within_a_year(text, hours)
    except ValueError as e:
        raise Refused(str(e), "EXTEND 24 (hours), EXTEND 2d or EXTEND 90m") from None


def deadline_words(env: Env, game: str) -> str:
    """The game's deadline in its own zone and the master's, as the players' mail shows it."""
    deadline = env.service.status(game, viewer=env.session.account).deadline
    if not deadline:
        return "not set"
    return "; ".join(f"{text} ({zone})" for zone, text in deadline["shown"].items())


def set_deadline(env: Env, cmd: c.SetDeadline) -> list[str]:
    """SET DEADLINE in this judge's words or njudge's (`Dec 5`, `Sat Dec 5 2026 23:30`, `Saturday`),
    in the game's zone; a date alone is at the game's deadline hour (judge.games.dates)."""
    game = require_master(env.service, env.session, "SET DEADLINE")
    zone = env.service.status(game).settings["time_zone"]
    try:
        when = env.service.read_date(game, cmd.when)
        env.service.move_deadline(game, when.instant, source=env.source)
    except ValueError as e:
        raise Refused(f"cannot use {cmd.when.strip()[:60]!r} as a deadline: {refusal_words(e)}",
                      f"SET DEADLINE Dec 5, Sat Dec 5 23:30 or 2026-12-05 23:30 (read in the game's zone, {zone})"
                      ) from None
    hour = (f"; a date alone is at the game's deadline hour, {when.instant.astimezone(ZoneInfo(zone)):%H:%M}"
            if when.hour_implied else "")
    return [f"deadline of {game} set to {deadline_words(env, game)}, read in the game's zone, {zone}{hour}"]


def extend(env: Env, cmd: c.Extend) -> list[str]:
    game = require_master(env.service, env.session, "EXTEND")
    env.service.extend(game, hours_in(cmd.by), source=env.source)
    return [f"deadline of {game} extended to {deadline_words(env, game)}"]


def become_master(env: Env, cmd: c.BecomeMaster) -> list[str]:
    account = authenticate(env.service, env.session, cmd.password, "SIGNON Xgame password, then BECOME MASTER",
                           game=env.session.game)
    if env.session.game is None:
        raise Refused("BECOME MASTER of which game?", "SIGNON Xgame password (or CREATE) first")
    env.service.become_master(env.session.game, account)
    env.session.as_master = True
    return [f"you are the master of {env.session.game}"]


def process(env: Env, cmd: c.Process) -> list[str]:
    game = require_master(env.service, env.session, "PROCESS")
    phase = env.service.phase_of(game)[1]
    if cmd.phase and cmd.phase.upper() != phase:
        name = env.service.status(game).phase_name
        raise Refused(f"{game} is in {name} ({phase}), not {cmd.phase}: nothing was processed",
                      f"PROCESS {phase}, or PROCESS alone")
    return [f"{game} {phase}: {env.service.process(game, source=env.source)}"]


def pause(env: Env, cmd: c.Pause) -> list[str]:
    game = require_master(env.service, env.session, "PAUSE")
    env.service.pause(game, source=env.source)
    return [f"{game} is paused: its clock is stopped until RESUME; players may still send orders and press"
            " (nothing is played while it is paused)"]


def resume(env: Env, cmd: c.Resume) -> list[str]:
    """RESUME a paused game; or, within a day, a game its master TERMINATEd by mistake."""
    game = require_master(env.service, env.session, "RESUME")
    before = env.service.status(game).status
    try:
        env.service.resume(game, source=env.source)
    except GameError as e:       # not paused, or terminated too long ago
        raise Refused(refusal_words(e), "") from None
    after = env.service.status(game).status
    if before != "finished":
        return [f"{game} resumed; the deadline is {deadline_words(env, game)}"]
    if after == "forming":
        return [f"{game} is not over after all: the TERMINATE is undone and it is forming again"]
    return [f"{game} is not over after all: the TERMINATE is undone, the game is {after} as it was, everyone is"
            f" told; the deadline, worked out again from now, is {deadline_words(env, game)}"]


def unstart(env: Env, cmd: c.Unstart) -> list[str]:
    """DPjudge's UNSTART: back to forming, the players kept, before the first phase is played."""
    game = require_master(env.service, env.session, "UNSTART")
    try:
        state = env.service.unstart(game, source=env.source)
    except GameError as e:       # forming, over, or a phase played already
        raise Refused(refusal_words(e), "") from None
    return [f"{game} is forming again with its {len(state.signups)} players signed up; everyone is told."
            " START (or FORCE START) starts it again, the powers given out anew"]


def hand_over(env: Env, cmd: c.HandOver) -> list[str]:
    """SET MASTER name: the game handed to another account, which becomes its master; the sender
    stops being one. The new master gets a copy of this reply."""
    game = require_master(env.service, env.session, "SET MASTER")
    account = _account_named(env, cmd.account, "SET MASTER name (or address) of a registered player")
    me = env.session.account_signed_on
    if me != env.service.status(game).master and not env.service.accounts.get(me).keeper:
        raise Refused(f"only the master of {game} may hand it over; a co-master steps down with RESIGN",
                      "RESIGN")
    master = env.service.hand_over(game, me, account, source=env.source)
    env.session.copy_to.update(env.service.accounts.get(account).addresses[:1])
    return [f"{master} is now the master of {game} (this reply goes to them too); you are no longer one"]


def step_down(env: Env) -> list[str]:
    """A master's RESIGN (signed on as master): the game passes to its first co-master; refused when
    there is none, as a game is never left without a master. A co-master's RESIGN ends its rights."""
    game = require_master(env.service, env.session, "RESIGN")
    me = env.session.account_signed_on
    try:
        master = env.service.hand_over(game, me, None, source=env.source)
    except GameError as e:       # no co-master to take it over
        raise Refused(refusal_words(e), "SET MASTER name hands it over") from None
    if master == me:
        return [f"you are still the master of {game}"]
    env.session.as_master = False
    if me in env.service.status(game).masters:
        return [f"you remain a master of {game}"]
    return [f"you are no longer a master of {game}; its master is {master}"]


def power_in(env: Env, game: str, word: str) -> str:
    power = resolve_power(env.service.variant(env.service.phase_of(game)[0]), word)
    if power is None:
        raise Refused(f"{word!r} is not a power in {game}", "a power's name or initial, e.g. EJECT France")
    return power


def eject(env: Env, cmd: c.Eject) -> list[str]:
    """EJECT power, or EJECT account (its name or an address of it): the powers it plays taken from
    it, or, if it only observes the game, its observing ended (njudge ejects observers too)."""
    game = require_master(env.service, env.session, "EJECT")
    usage = "EJECT France, EJECT name or EJECT player@example.org (a player or an observer of the game)"
    variant = env.service.variant(env.service.phase_of(game)[0])
    power = None if "@" in cmd.power else resolve_power(variant, cmd.power)
    if power is not None:
        return [_eject_power(env, game, power)]
    found = env.service.accounts.by_address(cmd.power) if "@" in cmd.power else None
    if found is None and "@" not in cmd.power:
        try:
            found = env.service.accounts.get(cmd.power)
        except KeyError:
            found = None
    if found is None:
        raise Refused(f"{cmd.power!r} is neither a power in {game} nor a registered player", usage)
    state = env.service.status(game)
    seats = [p for p, info in state.powers.items()
             if info.account == found.name and info.status not in ("resigned", "abandoned", "neutral")]
    lines = [_eject_power(env, game, p) for p in seats]
    if env.service.stop_observing(game, found.name):
        lines.append(f"{found.name} no longer observes {game}: its news no longer goes to them")
    if not lines:
        raise Refused(f"{found.name} neither plays a power in {game} nor observes it: nothing was changed", usage)
    return lines


def _eject_power(env: Env, game: str, power: str) -> str:
    seat = env.service.status(game).powers.get(power)
    ousted = seat.account if seat else None
    if ousted:
        revoke(env.service.judge, ousted, game)     # its reply address for this game no longer signs on
    env.service.eject(game, power, source=f"{env.source}:{power}")
    name = power_name(env.service, game, power)
    return f"{name} was taken from its player in {game}; REPLACE {name} address gives it to another"


def replace(env: Env, cmd: c.Replace) -> list[str]:
    game = require_master(env.service, env.session, "REPLACE")
    power = power_in(env, game, cmd.power)
    if not cmd.address:
        raise Refused("REPLACE needs the new player's address", f"REPLACE {power} new-player@example.org")
    account = env.service.accounts.by_address(cmd.address)
    if account is None:
        raise Refused(f"{cmd.address} is not registered with this judge", "the new player REGISTERs first")
    seat = env.service.status(game).powers.get(power)
    ousted = seat.account if seat else None
    if ousted and ousted != account.name:
        revoke(env.service.judge, ousted, game)     # before the deed: a crash between leaves no live token
    env.service.replace(game, power, account.name, source=env.source)
    return [f"{power_name(env.service, game, power)} in {game} is now played by {account.name}"]


def rollback(env: Env, cmd: c.Rollback) -> list[str]:
    game = require_master(env.service, env.session, "ROLLBACK")
    phase, turn = cmd.phase, ""
    if phase is None or phase.isdecimal():
        played = [h.phase for h in env.service.history(game) if h.processed_at and not h.rolled_back]
        if not played:
            raise Refused(f"{game} has no phase played to go back to", "ROLLBACK S1901M")
        if phase is None:
            phase = played[-1]
        else:   # njudge's turn number: the n-th phase played (1: the first), to be played again
            if not 1 <= int(phase) <= len(played):
                raise Refused(f"there is no turn {phase}: {game} has played {len(played)} phase"
                              + ("" if len(played) == 1 else "s"),
                              f"ROLLBACK {played[-1]} (or a turn from 1 to {len(played)})")
            turn, phase = f" (turn {phase}, as njudge counts them)", played[int(phase) - 1]
    status = env.service.rollback(game, phase, source=env.source)
    return [f"{game} rolled back to {status.phase}{turn}"]


def preview(env: Env, cmd: c.Preview) -> list[str]:
    """A player's PREVIEW is its own power's (judge.mail.commands.own_preview); the master's, every
    power's orders as PROCESS would play them."""
    session = env.session
    if session.power is not None or (session.powers and not session.as_master):
        return own_preview(env, *require_player(session, "PREVIEW"))   # (several powers: which one?)
    game = require_master(env.service, env.session, "PREVIEW")
    result = env.service.preview(game)
    variant = env.service.variant(env.service.status(game).variant)
    lines = ["what PROCESS would do now (nothing was changed):"]
    for phase in result["results"]:
        if not phase["outcomes"]:
            continue   # a phase nobody plays (no retreats): an empty heading only puzzles
        lines.append(f"{phase['phase']}:")
        lines.extend(outcome_line(variant, o) for o in phase["outcomes"])
    if result["civil_disorder"]:
        lines.append("in civil disorder: " + ", ".join(variant.power(p).name for p in result["civil_disorder"]))
    return lines


def set_game(env: Env, cmd: c.SetGame) -> list[str]:
    """SET <setting> <value>: one of the game's settings (judge.mail.commands.game_settings)."""
    if cmd.setting == "STANDBY":        # the one SET word about the player, not the game
        return _standby(env, cmd.value)
    game = require_master(env.service, env.session, f"SET {cmd.setting}")
    if cmd.setting == "CLOCK" and (cmd.value or "").strip().upper() == "AUTO":
        return _auto_clock(env, game)
    setting, value = read_setting(cmd.setting, cmd.value)
    if setting.field == EDITION:
        return _set_rules(env, game, setting, value)
    if setting.field in DATES and value is not None:
        value = _date_setting(env, game, setting, value)
    state = env.service.status(game)
    if setting.field not in CHANGEABLE_IN_PLAY and state.status != GameStatus.FORMING.value:
        # said in the setting's own word (the games layer names its field, which no player writes)
        raise Refused(f"SET {setting.words[0]} cannot change once the game has started",
                      "none: once a game has started only its clock and manners change (HELP SETTINGS)")
    before = state.settings[setting.field]
    try:
        after = env.service.set_settings(game, **{setting.field: value}).settings[setting.field]
    except ValueError as e:            # GameError included: a setting fixed once play began, a bad zone
        raise Refused(f"SET {setting.words[0]}: {refusal_words(e)}",
                      f"SET {setting.words[0]} {setting.example}") from None
    return [f"{setting.words[0]} of {game}: {setting.show(after)} (was {setting.show(before)}); {setting.means}"]



def _date_setting(env: Env, game: str, setting: Setting, text: str) -> str:
    """SET GRACE UNTIL <date>, SET START <date>: read as SET DEADLINE reads a date (in the game's
    zone), stored in UTC."""
    try:
        return iso(env.service.read_date(game, text).instant)
    except ValueError as e:
        raise Refused(f"SET {setting.words[0]}: {refusal_words(e)}", f"SET {setting.words[0]} {setting.example}, or"
                      f" {setting.example} 18:00 (in the game's zone)") from None


def _standby(env: Env, value: str | None) -> list[str]:
    """SET STANDBY [ANY | variant,variant | OFF]: the standby list (judge.games.standby); alone, what
    the account is on."""
    usage = "SET STANDBY standard,abstraction2 (or ANY; OFF to leave the list; alone: what you are on)"
    account = authenticate(env.service, env.session, None,
                           "REGISTER name password (or SIGNON Fgame password), then " + usage, anywhere=True)
    word = (value or "").strip()
    if not word:
        now = env.service.standby_of(account)
        return [f"you are on the standby list for {_standby_words(now)}" if now else
                "you are not on the standby list; " + usage]
    if word.lower() in ("off", "none", "no", "-"):
        env.service.set_standby(account, None)
        return ["you are off the standby list: the judge offers you no power"]
    try:
        now = env.service.set_standby(account, word)
    except (KeyError, ValueError, FileNotFoundError):
        raise Refused(f"{word[:60]!r} names a variant this judge does not have", "LIST VARIANTS; " + usage) from None
    return [f"you are on the standby list for {_standby_words(now)}: when a power in such a game loses its"
            " player, the judge may offer it to you by mail"]


def _standby_words(variants: str | None) -> str:
    return "any variant" if variants == "ANY" else f"these variants: {(variants or '').replace(',', ', ')}"


def _set_rules(env: Env, game: str, setting: Setting, rules: str) -> list[str]:
    """SET RULES: the rulebook the game is judged by, chosen while it forms."""
    before = env.service.status(game).rules
    try:
        after = env.service.set_rules(game, rules).rules
    except ValueError as e:            # GameError: the game has started
        raise Refused(f"SET {setting.words[0]}: {refusal_words(e)}",
                      f"SET {setting.words[0]} {setting.example}") from None
    return [f"{setting.words[0]} of {game}: {after} (was {before}); {setting.means}"]


def force_start(env: Env, cmd: c.ForceStart) -> list[str]:
    """FORCE START: with the players there are; START: a full game (held by MANUALSTART)."""
    word = "FORCE START" if cmd.force else "START"
    game = require_master(env.service, env.session, word)
    try:
        status = env.service.start(game, force=cmd.force, source=env.source)
    except GameError as e:       # started already, or not full (START)
        raise Refused(refusal_words(e),
                      "FORCE START starts it with the players there are" if not cmd.force else "") from None
    if not cmd.force:
        return [f"{game} has started: the powers are given out and every player is told"]
    neutral = [power_name(env.service, game, p) for p, info in status.powers.items() if info.status == "neutral"]
    return [f"{game} has started with the players there are"
            + (f"; {', '.join(neutral)} {'is' if len(neutral) == 1 else 'are'} neutral" if neutral else "")]


def terminate(env: Env, cmd: c.Terminate) -> list[str]:
    game = require_master(env.service, env.session, "TERMINATE")
    env.service.terminate(game, source=env.source)
    return [f"{game} is over: you ended it, with no winner; everyone is told"]


def access(env: Env, cmd: c.Access) -> list[str]:
    """ALLOW / DENY names: each name put on the list (and off the other); `-name` taken off it
    (njudge's `ALLOW -sam`); NONE empties it (`ALLOW NONE`: anyone may join again, unless a join
    password is set; `DENY NONE`: nobody kept out)."""
    word = "ALLOW" if cmd.allow else "DENY"
    kind = word.lower()
    game = require_master(env.service, env.session, word)
    added = tuple(a for a in cmd.accounts if not a.startswith("-") and a.upper() != "NONE")
    taken = tuple(a[1:] for a in cmd.accounts if a.startswith("-") and len(a) > 1)
    clear = (kind,) if any(a.upper() == "NONE" for a in cmd.accounts) else ()
    before = env.service.set_access(game)
    listed = before.allow if cmd.allow else before.deny
    absent = [a for a in taken if a not in listed]
    try:
        rules = (env.service.set_access(game, clear=clear, allow=added, unallow=taken) if cmd.allow
                 else env.service.set_access(game, clear=clear, deny=added, undeny=taken))
    except KeyError:
        unknown = ", ".join(a for a in added if not _registered(env, a))
        raise Refused(f"{word}: there is no account {unknown}; nothing was changed",
                      f"{word} name (the names players REGISTERed with), {word} -name to take one off,"
                      f" {word} NONE to empty the list") from None
    invited = ", ".join(rules.allow) or "nobody"
    kept_out = ", ".join(rules.deny) or "nobody"
    private = "private: only those invited may join" if rules.allow or rules.password else "open to anyone"
    lines = [f"the {word} list of {game} is emptied"] if clear else []
    lines += [f"{', '.join(absent)} {'was' if len(absent) == 1 else 'were'} not on the {word} list"] if absent else []
    return [*lines, f"{game} is {private}; invited: {invited}; kept out: {kept_out}"]


def _registered(env: Env, name: str) -> bool:
    try:
        env.service.accounts.get(name)
    except KeyError:
        return False
    return True


def _auto_clock(env: Env, game: str) -> list[str]:
    """SET CLOCK AUTO: the deadline hour that falls in waking hours (08:00-22:00) for the most
    players, from their registered zones; the reply says whom it suits and whom not."""
    chosen = env.service.auto_clock(game)
    if not chosen.suits and not chosen.not_suited:
        raise Refused(
            f"{game} has no players yet to choose a clock for", "SET CLOCK 20:00, or AUTO once players have joined"
        )
    clock = chosen.clock.strftime("%H:%M")
    env.service.set_settings(game, deadline_clock=clock)
    zone = env.service.status(game).settings["time_zone"]
    awake = ", ".join(chosen.suits) or "nobody"
    return [f"CLOCK of {game}: {clock} ({zone}), the hour awake for {len(chosen.suits)} of"
            f" {len(chosen.suits) + len(chosen.not_suited)} players: {awake}"
            + (f"; not for {', '.join(chosen.not_suited)}" if chosen.not_suited else "")]


def become_power(env: Env, cmd: c.BecomePower) -> list[str]:
    """BECOME power: the rest of the message acts for the power (orders, SET ABSENCE), for a player
    who cannot write; the power's player is told (a master_acted notice)."""
    game = require_master(env.service, env.session, f"BECOME {cmd.power}")
    power = power_in(env, game, cmd.power)
    env.service.act_for(game, power, env.session.account_signed_on, source=env.source)
    env.session.powers, env.session.acting = (power,), True
    player = env.service.status(game).powers[power].account
    name = power_name(env.service, game, power)
    return [f"you act for {name} in {game} until the end of this mail: orders and SET ABSENCE below are"
            f" {name}'s" + (f"; its player, {player}, is told" if player and player != env.session.account else "")]


def _account_named(env: Env, word: str, usage: str) -> str:
    """An account by its name or one of its addresses."""
    found = env.service.accounts.by_address(word) if "@" in word else None
    if found is not None:
        return found.name
    try:
        return env.service.accounts.get(word).name
    except KeyError:
        raise Refused(f"{word} is not registered with this judge", usage) from None


def promote(env: Env, cmd: c.Promote) -> list[str]:
    word = "DEMOTE" if cmd.remove else "PROMOTE"
    game = require_master(env.service, env.session, word)
    account = _account_named(env, cmd.who, f"{word} name (or address) of a registered player")
    try:
        changed = env.service.promote(game, account, remove=cmd.remove, source=env.source)
    except GameError as e:       # the master itself
        raise Refused(refusal_words(e), f"{word} another account") from None
    masters = ", ".join(env.service.status(game).masters)
    if cmd.remove:
        done = f"{account} is no longer a master of {game}" if changed else f"{account} was not a co-master of {game}"
    else:
        done = (f"{account} is now a co-master of {game}, with the master's rights and mail (SIGNON M{game}"
                " with their own password)" if changed else f"{account} is a co-master of {game} already")
    return [f"{done}; the masters are {masters}"]


def clear(env: Env, cmd: c.ClearOrders) -> list[str]:
    """CLEAR: the player's own orders, or the named power's for a master (or after BECOME)."""
    session = env.session
    if cmd.power is not None:
        game = require_master(env.service, session, f"CLEAR {cmd.power}")
        power = power_in(env, game, cmd.power)
    elif session.as_master and session.power is None:
        raise Refused("CLEAR whose orders?", "CLEAR France")
    else:
        game, power = require_player(session, "CLEAR")
    result = env.service.clear_orders(game, power, account=session.account, source=env.source)
    missing = len(result.units_without_orders)
    return [f"the orders of {power_name(env.service, game, power)} in {game} are cleared"
            + (f"; {missing} unit{'s' * (missing != 1)} without orders" if missing else "")]


def reveal(env: Env, cmd: c.Reveal) -> list[str]:
    game = require_master(env.service, env.session, "REVEAL")
    env.service.reveal(game, source=env.source)
    return [f"the players of {game} are revealed: everyone is told who plays each power"]


def seek(env: Env, cmd: c.Seek) -> list[str]:
    """SEEK power: the master asks the standbys for a new player for a power still played (its
    player plays on until one takes it); SEEK power OFF stops (judge.games.standby)."""
    game = require_master(env.service, env.session, f"SEEK {cmd.power}")
    power = power_in(env, game, cmd.power)
    env.service.seek(game, power, not cmd.stop, source=env.source)
    name = power_name(env.service, game, power)
    if cmd.stop:
        return [f"{name} in {game} is no longer offered: the offers out are withdrawn, each standby told"]
    return [f"{name} in {game} is offered to the standby list, the most reliable first; its player plays on"
            f" until someone takes it (SEEK {name} OFF stops)"]


def end_ousted_replies(env: Env, game: str, power: str, taker: str) -> None:
    """Before a power the master SEEKs a player for passes: its player's reply address for the game
    stops signing on (before the deed, as REPLACE: a crash between leaves no live token), unless
    that player plays another power there."""
    status = env.service.status(game)
    ousted = status.powers[power].account if power in status.powers else None
    if ousted and ousted != taker and status.powers[power].status not in ("resigned", "abandoned") and not any(
            p != power and info.account == ousted for p, info in status.powers.items()):
        revoke(env.service.judge, ousted, game)


def decide_takeover(env: Env, cmd: c.DecideTakeover) -> list[str]:
    """APPROVE or REJECT name: a takeover held for the master (SET APPROVE TAKEOVERS ON)."""
    word = "APPROVE" if cmd.approve else "REJECT"
    game = require_master(env.service, env.session, f"{word} {cmd.account}")
    account = _account_named(env, cmd.account, f"{word} name (the account in the judge's mail)")
    waiting = env.service.takeovers_waiting(game, account)
    if cmd.approve and waiting:
        end_ousted_replies(env, game, waiting[0], account)       # the one APPROVE hands over
    power = env.service.decide_takeover(game, account, cmd.approve, source=env.source)
    if power is None:
        return [f"{word} {account}: done before"]
    name = power_name(env.service, game, power)
    if not cmd.approve:
        return [f"{account}'s takeover of {name} in {game} is rejected: they are told, with thanks, and the"
                " power is offered to the next standby"]
    return [f"{account} now plays {name} in {game}: they get the position, everyone is told"]
