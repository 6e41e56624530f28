"""The words for a command or order line the games layer refused by raising (judge.mail.commands.dispatch).

The games layer's refusals (`GameError`, `NoSuchGame`) are worded by their code where they have one
(judge.mail.words.refusals), else carry sentences written for players. A name
it could not find is typed (`NoSuchAccount`, `NoSuchPower`, `UnknownZone`) and worded here, never by the
exception's str(), which for a KeyError is Python's quoted key. Anything else that escapes it (a
KeyError or ValueError of Python's own) is a defect of the judge: the player reads `NOT_CARRIED_OUT`,
the keeper the log.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping

from ...games.accounts import NoSuchAccount, UnknownZone
from ...games.answers import NoSuchGame, NoSuchPower
from ...games.model import GameError
from .refusals import refusal_words


class Problem(enum.Enum):
    """Why a line was not carried out, where the games layer said it by raising."""
    SAID = "said"                   # the games layer's own sentence (GameError, NoSuchGame)
    NO_SUCH_ACCOUNT = "no_such_account"
    NO_SUCH_POWER = "no_such_power"
    UNKNOWN_ZONE = "unknown_zone"
    NOT_CARRIED_OUT = "not_carried_out"


WORDS: Mapping[Problem, str] = {
    Problem.NO_SUCH_ACCOUNT: "there is no account called {name}",
    Problem.NO_SUCH_POWER: "there is no power {name} in {game}",
    Problem.UNKNOWN_ZONE: "{name} is not a time zone the judge knows (an IANA name, such as Europe/Paris)",
    Problem.NOT_CARRIED_OUT: "the judge could not carry out this line (a fault of its own, logged for its keeper)",
}


def problem_of(error: Exception) -> Problem:
    """The typed reason for `error`, raised by the games layer while carrying out a line."""
    if isinstance(error, NoSuchAccount):
        return Problem.NO_SUCH_ACCOUNT
    if isinstance(error, NoSuchPower):
        return Problem.NO_SUCH_POWER
    if isinstance(error, UnknownZone):
        return Problem.UNKNOWN_ZONE
    if isinstance(error, (GameError, NoSuchGame)):
        return Problem.SAID
    return Problem.NOT_CARRIED_OUT


def problem_words(error: Exception) -> str:
    """What the player reads for `error` (see problem_of)."""
    problem = problem_of(error)
    if isinstance(error, GameError):
        return refusal_words(error)
    if problem is Problem.SAID:
        return str(error)
    if isinstance(error, NoSuchAccount):
        return WORDS[problem].format(name=error.name)
    if isinstance(error, NoSuchPower):
        return WORDS[problem].format(name=error.power.title(), game=error.game)
    if isinstance(error, UnknownZone):
        return WORDS[problem].format(name=error.zone[:60])
    return WORDS[problem]
