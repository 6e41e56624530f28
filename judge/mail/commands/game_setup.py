"""A game set up by mail: `CREATE game password [variant] [setting value ...] [PRIVATE join-password]`,
the master's `SET JOIN PASSWORD x` (or `SET PRIVATE x`; NONE makes the game open again), and
`JOIN game password [power] PRIVATE join-password` for a player.

The settings after CREATE are the words SET knows (judge.mail.commands.game_settings), read the same way:
a setting's name, then its value up to the next setting's name. A CREATE with any wrong setting
creates nothing and says what was wrong with each, so no game is left half set up.
"""
from __future__ import annotations

from typing import Any

from ...games.answers import NoSuchGame
from ...games.model import GameError, Refusal, Settings
from ...language import commands as c
from ..screening.auth import Refused, authenticate, game_name, require_master
from ..words.refusals import refusal_words
from .command_env import Env
from ...games.clock import iso
from .game_settings import BY_WORD, DATES, EDITION, SETTINGS, read_setting
from .variant_info import find_variant

USAGE = "CREATE game password [variant] [setting value ...] [PRIVATE join-password]"


def setting_words(words: tuple[str, ...]) -> tuple[list[tuple[str, str]], str | None, list[str]]:
    """([(setting name, value as written)], join password, problems) from the words after CREATE's
    variant. A setting still without its value takes the next word even if that word names a
    setting (`PRESSPHASES MOVEMENT`)."""
    pairs: list[tuple[str, list[str]]] = []
    key, problems = None, []
    i = 0
    while i < len(words):
        word = words[i]
        if word.lower() in c.JOIN_PASSWORD_WORDS:
            if i + 1 >= len(words):
                problems.append(f"{word.upper()} is followed by the game's join password")
            else:
                key = words[i + 1]
            i += 2
            continue
        setting = BY_WORD.get(word.upper())
        open_ = pairs and not pairs[-1][1] and BY_WORD[pairs[-1][0]].implied is None
        if setting is not None and not open_:
            pairs.append((word.upper(), []))
        elif pairs:
            pairs[-1][1].append(word)
        else:
            problems.append(f"{word!r} is neither a variant nor a game setting (HELP SETTINGS lists them)")
        i += 1
    return [(name, " ".join(value)) for name, value in pairs], key, problems


def read_settings(words: tuple[str, ...]) -> tuple[dict[str, Any], list[str], str | None]:
    """The settings' fields and values, what each means in words, and the join password; Refused
    naming every wrong one."""
    pairs, key, problems = setting_words(words)
    changes: dict[str, Any] = {}
    said = []
    for name, value in pairs:
        if name == "CLOCK" and value.strip().upper() == "AUTO":
            problems.append("CLOCK AUTO needs players to choose for: SET CLOCK AUTO once they have joined")
            continue
        try:
            setting, read = read_setting(name, value)
        except Refused as e:
            problems.append(e.problem)
            continue
        changes[setting.field] = read
        said.append(f"{setting.words[0]} {setting.show(read)}")
    if not problems:
        try:
            Settings().with_(**{k: v for k, v in changes.items() if k != EDITION and k not in DATES})
        except (ValueError, TypeError) as e:
            problems.append(str(e))
    if problems:
        raise Refused("nothing was created: " + "; ".join(problems), USAGE + ", e.g. CREATE game pw PRESS grey")
    return changes, said, key


def create(env: Env, cmd: c.Create) -> list[str]:
    account = authenticate(env.service, env.session, cmd.password, USAGE)
    name = game_name(cmd.game)
    variant: str | None = cmd.variant
    words = cmd.settings
    if variant is not None and (variant.upper() in BY_WORD or variant.lower() in c.JOIN_PASSWORD_WORDS):
        words, variant = (variant, *words), None       # no variant named: the standard map
    changes, said, key = read_settings(words)
    rules = changes.pop(EDITION, "5th")
    # a date (SET START, GRACE UNTIL) is read in the game's zone and on its clock: once the game is made
    dates = {f: changes.pop(f) for f in DATES if f in changes}
    if key:
        env.session.passwords.add(key)                 # masked in the reply and the archive
    existing = _master_of(env, name)
    if existing is not None:
        if existing != account:
            raise Refused(f"there is already a game called {name}",
                          f"choose another name, or JOIN {name} password to play in it")
        env.session.game, env.session.powers, env.session.as_master = name, (), True
        if key:
            # the join password is set after the game's file is first committed: a crash between the
            # two leaves a public game, and this same CREATE handled again makes it private as asked
            env.service.set_access(name, password=key)
            return [f"{name} was created by you already; it is private: joining needs its join password"]
        return [f"{name} was created by you already"]
    try:
        # a variant by its id or its name, as HELP VARIANT takes it
        chosen = (find_variant(variant) or variant.lower()) if variant else "standard"
        env.service.create_game(name, variant=chosen, master=account, rules=rules,
                                settings=Settings().with_(**changes))
    except GameError as e:
        if e.why is Refusal.UNKNOWN_VARIANT:
            raise Refused(refusal_words(e), "CREATE game password standard (LIST VARIANTS names them)") from None
        raise Refused(f"nothing was created: {refusal_words(e)}", USAGE) from None
    env.session.game, env.session.powers, env.session.as_master = name, (), True
    lines = [f"created {name}; you are its master. Players join with JOIN {name} their-password"
             + (" PRIVATE the-join-password" if key else "")]
    if key:
        env.service.set_access(name, password=key)
        lines.append(f"{name} is private: joining needs its join password (not repeated here)")
    if said:
        lines.append("settings: " + "; ".join(said))
    return lines + _dates(env, name, dates)


def _dates(env: Env, name: str, dates: dict[str, str | None]) -> list[str]:
    """The date settings CREATE was given, read in the new game's zone; one that cannot be is left
    unset, and the reply says so."""
    out = []
    for field, text in dates.items():
        word = next(s.words[0] for s in SETTINGS if s.field == field)
        try:
            value = None if text is None else iso(env.service.read_date(name, text).instant)
        except ValueError as e:
            out.append(f"{word} was not set: {refusal_words(e)}; SET {word} with a date to come")
            continue
        env.service.set_settings(name, **{field: value})
    return out


def _master_of(env: Env, name: str) -> str | None | bool:
    """The game's master; False for a game with none; None when there is no such game."""
    try:
        return env.service.status(name).master or False
    except NoSuchGame:
        return None


def set_join_password(env: Env, cmd: c.SetJoinPassword) -> list[str]:
    game = require_master(env.service, env.session, "SET JOIN PASSWORD")
    if cmd.password:
        env.session.passwords.add(cmd.password)
    rules = env.service.set_access(game, password=cmd.password, clear_password=cmd.password is None)
    if cmd.password:
        return [(f"{game} is private: joining needs its join password (not repeated here): players write"
                 f" JOIN {game} their-password PRIVATE the-join-password")]
    open_ = "open to anyone" if not rules.allow else "private: only those invited (ALLOW) may join"
    return [f"{game} has no join password now; it is {open_}"]
