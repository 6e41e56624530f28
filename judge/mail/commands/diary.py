"""njudge's DIARY by mail: a player's private notes on a game (judge.games.diaries). DIARY RECORD
(or DIARY alone) keeps the lines up to ENDDIARY as a new numbered entry; DIARY LIST, DIARY READ n
and DIARY DELETE n are the player's own. Once the game is over, DIARY LIST shows every player's
entries, unless the game keeps them private."""
from __future__ import annotations

from ...games.answers import DiaryEntry
from ...games.model import GameError
from ...language import commands as c
from ..screening.auth import Refused, power_name, require_player
from ..words.refusals import refusal_words
from .command_env import Env

USAGE = "DIARY RECORD, the entry, then ENDDIARY; DIARY LIST; DIARY READ number; DIARY DELETE number"


def run(env: Env, cmd: c.Diary) -> list[str]:
    session, svc = env.session, env.service
    if cmd.action == "list" and session.game and svc.status(session.game).status == "finished":
        return _all(env, session.game)
    game, power = require_player(session, "DIARY")
    account, name = session.account, power_name(svc, game, power)
    try:
        if cmd.action == "record":
            if not cmd.body.strip():
                raise Refused("the diary entry is empty: nothing was kept",
                              "write it between DIARY RECORD and ENDDIARY")
            number = svc.diary_record(game, power, cmd.body, account=account, source=env.source)
            until = ("nobody else reads it until the game ends" if svc.status(game).settings.get("diaries_revealed")
                     else "nobody else reads it, even after the end")
            return [f"diary entry {number} kept for {name} in {game}: {until}"]
        if cmd.action == "delete":
            svc.diary_delete(game, power, cmd.number or 0, account=account)
            return [f"diary entry {cmd.number} of {name} in {game} deleted (its number is not used again)"]
    except GameError as e:
        raise Refused(refusal_words(e), USAGE) from None
    mine = svc.diary(game, power, account)
    if cmd.action == "list":
        if not mine:
            return [f"you have no diary entries for {name} in {game}: DIARY RECORD starts one"]
        return [f"your diary for {name} in {game}:", *(_heading(e) for e in mine)]
    entry = next((e for e in mine if e.number == cmd.number), None)
    if entry is None:
        raise Refused(f"you have no diary entry {cmd.number} in {game}", "DIARY LIST shows yours")
    return [_heading(entry), *_body(entry)]


def _all(env: Env, game: str) -> list[str]:
    try:
        every = env.service.revealed_diaries(game)
    except GameError as why:
        raise Refused(refusal_words(why), f"HISTORY {game} shows its record") from None
    if not every:
        return [f"nobody kept a diary in {game}"]
    out = [f"the diaries of {game}, shown to all now that it is over:"]
    for e in every:
        out += [f"{power_name(env.service, game, e.power)} ({e.account or 'nobody'}), {_heading(e)}", *_body(e)]
    return out


def _heading(e: DiaryEntry) -> str:
    return f"entry {e.number}, written {e.at[:16].replace('T', ' ')} UTC" + (
        f" in {e.phase}" if e.phase else "")


def _body(e: DiaryEntry) -> list[str]:
    return [f"| {line}" for line in e.body.splitlines()]
