"""The words for a refusal the games layer gave a code (`GameError.why`, judge.games.model.Refusal): chosen
by the code and filled in with the facts the refusal carries, never the exception's own text. A
refusal without a code yet says the games layer's sentence, as before the codes.
"""
from __future__ import annotations

from collections.abc import Mapping

from ...games.model import GameError, Refusal

WORDS: Mapping[Refusal, str] = {
    Refusal.NOT_PAUSED: "{game} is not paused",
    Refusal.NOT_TERMINATED: "{game} was not ended by its master's TERMINATE, so there is nothing to resume",
    Refusal.TERMINATED_LONG_AGO: "{game} was terminated at {when}, more than a day ago: a TERMINATE can be undone"
                             " only within a day, and the game stays over",
    Refusal.FORMING_ALREADY: "{game} has not started yet: it is forming already",
    Refusal.OVER: "{game} is over: only a game under way can go back to forming",
    Refusal.PLAYED_ALREADY: "{game} has played {phase} already: it can go back to forming only before its first"
                        " phase is played (ROLLBACK plays a phase again)",
    Refusal.NOT_A_MASTER: "{account} is not a master of {game}",
    Refusal.NO_MASTER_LEFT: "{game} would be left with no master: hand it to another first (SET MASTER name) or"
                        " PROMOTE a co-master, who then takes it over",
    Refusal.STARTED_ALREADY: "{game} has already started",
    Refusal.TOO_FEW_TO_FORCE: "{game} has {players} player{players_s}: a game needs two",
    Refusal.NOT_FULL: "{game} needs {needed} players and has {players}",
    Refusal.MASTER_ALREADY: "{account} is the master of {game} already",
    Refusal.MASTER_NOT_COMASTER: "{account} is the master of {game}, not a co-master",
    Refusal.NOT_UNDER_WAY: "{game} is {status}",
    Refusal.NO_SURVIVING_POWER: "{account} plays no surviving power in {game}",
    Refusal.NOT_A_SURVIVOR: "{power} is not a surviving power in {game}: only a survivor can be conceded to",
    Refusal.OWN_POWER: "a concession is to another player's power, not to one of your own",
    Refusal.NO_DIARY_ENTRY: "you have no diary entry {number} in {game} (DIARY LIST shows yours)",
    Refusal.DIARIES_UNTIL_THE_END: "{game} is not over: each diary is its writer's alone until the end",
    Refusal.DIARIES_PRIVATE: "{game} keeps its diaries private, even after the end",
    Refusal.NOT_AN_ADDRESS: "{address!r} is not one mail address (name@domain, nothing else)",
    Refusal.BAD_ACCOUNT_NAME: "an account name is 1 to 64 letters, digits or signs, without spaces, '@' or quotes",
    Refusal.NAME_TAKEN: "the account name {name!r} is taken",
    Refusal.ADDRESS_YOURS: "{address} is already one of your addresses",
    Refusal.ADDRESS_TAKEN: "the address {address} already belongs to another account",
    Refusal.CLAIMS_WAITING: "{waiting} addresses of yours are still waiting for their code: confirm those first,"
                        " or wait {days} days",
    Refusal.NO_CLAIM: "no account is waiting for {address} to confirm it (a claim lasts {days} days): ask again"
                  " from the account's own address with I AM ALSO",
    Refusal.WRONG_CODE: "that is not the code the judge mailed to this address; the claim is ended: ask again from"
                    " the account's own address with I AM ALSO",
    Refusal.NOT_TAKING_ORDERS: "{game} is {status}; orders are not taken now",
    Refusal.NOBODY_PLAYS: "nobody plays {power} in {game}",
    Refusal.NOT_THEIRS: "{account} does not play {power} in {game}",
    Refusal.POWER_GONE: "{power} is {status}",
    Refusal.NO_PHASE: "{game} has no phase {phase:.40}",
    Refusal.NOT_STARTED: "{game} has not started",
    Refusal.ABSENCE_BACKWARDS: "an absence must end after it starts, and in the future",
    Refusal.NO_ABSENCES: "{game} allows no absences (its master set NOABSENCE); ask the game master, who may still"
                         " set one for you",
    Refusal.ABSENCE_TOO_LONG: "a player may be away at most {days} days at once; ask the game master for more",
    Refusal.PLAYS_NO_POWER: "{account} plays no power in {game}",
    Refusal.BAD_GAME_NAME: "a game name is 1-32 letters, digits, '-' or '_', starting with a letter or digit: {name!r}",
    Refusal.GAME_EXISTS: "there is already a game called {game}",
    Refusal.UNKNOWN_RULES: "unknown rules edition {rules!r}; known: 1982, 2000, 5th",
    Refusal.UNKNOWN_VARIANT: "unknown variant {variant!r}; known: {known}",
    Refusal.SETUP_NOT_FOR: "the {setup}-player setup is for the standard map, not {variant}",
    Refusal.NOT_A_DATE_TIME: "{text!r} is not a date and time (month 1-12, hour 0-23)",
    Refusal.PAST: "{when} ({zone}) is already past",
    Refusal.NO_DATE: "no date given",
    Refusal.DATE_WORD: "cannot read {word!r} in {text!r}: write a date such as Dec 5, 5 Dec, Sat Dec 5 2026 23:30"
                       " or 2026-12-05 23:30",
    Refusal.TOO_FAR_AHEAD: "{text} is more than ten years ahead",
    Refusal.YEAR_PAST: "{text} is already past",
    Refusal.YEAR_NO_DAY: "{text!r} names a year but no day",
    Refusal.NO_DAY: "{text!r} names no day",
    Refusal.DAY_AND_MONTH: "{text!r} needs a day and a month, such as Dec 5",
    Refusal.WRONG_WEEKDAY: "{date} is a {weekday}, not a {named}",
    Refusal.NOT_A_DATE: "{month} {day} is not a date",
}


def refusal_words(error: ValueError) -> str:
    """What the player reads for a refusal of the games layer: its code's words, with its facts (and
    `<fact>_s`, "s" but for one, for each number). A refusal without a code yet, or a ValueError of the
    judge's own readers (a date, a setting), says its sentence."""
    if not isinstance(error, GameError) or error.why is None:
        return str(error)
    plurals = {f"{k}_s": "" if v == 1 else "s" for k, v in error.facts.items() if isinstance(v, int)}
    return WORDS[error.why].format(**error.facts, **plurals)
