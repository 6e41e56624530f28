"""Fog of war in the judge's mail: the results notice, HISTORY, LIST/SUMMARY counts and the picture,
each cut to what its reader sees (judge.games.fog says what that is).

Who reads what is decided once, by `judge.games.fog.view_for`: in a game with fog under way the
master reads everything, a player what its powers see, anyone else (observers, strangers, the
public copy of a notice) no province at all. Once the game has ended nothing is cut: HISTORY then
shows every order of every phase, the full record.
"""
from __future__ import annotations

import dataclasses

from ...games import fog, hidden_builds
from ...games.answers import GameState, Notice, NoticeKind, PlayedPhase
from ...games.service import GameService


def reader_powers(service: GameService, game: str, account: str | None,
                  status: GameState | None = None) -> frozenset[str] | None:
    """The powers whose sight `account` reads `game` with, or None: it sees everything."""
    return fog.view_for(status or service.status(game), account)


def notice_as_seen(service: GameService, notice: Notice, status: GameState) -> Notice:
    """The notice its recipient may read: a results notice cut to the recipient's view in a game
    with fog; every other notice as it is (they tell the recipient of its own powers only, or of
    players, never of the board)."""
    if notice.kind is not NoticeKind.RESULTS:
        return notice
    notice = _veiled(service, notice, status)
    powers = notice_powers(service, notice, status)
    if powers is None:
        return notice
    variant = service.variant(status.variant)
    before = service.phase_record(notice.payload["game"], notice.payload["phase"]).position
    return dataclasses.replace(notice, payload=fog.cut_results(variant, notice.payload, before, powers))


def _veiled(service: GameService, notice: Notice, status: GameState) -> Notice:
    """A results notice without the hidden builds its recipient may not read yet (judge.games.hidden_builds)."""
    veil = veil_of(service, notice.payload["game"], status, notice.recipient, notice.payload.get("powers"))
    if not veil:
        return notice
    hiders = {p for p in veil.units if p not in veil.readers}
    payload = {**notice.payload, "results": [veil.result(r) for r in notice.payload.get("results", ())],
               "position": veil.position(notice.payload["position"]),
               # a digest of a few builds is found by trying them all: not the hiding power's
               "digests": {p: d for p, d in notice.payload.get("digests", {}).items() if p not in hiders},
               "hidden_builds": {p: len(veil.units[p]) for p in sorted(hiders)}}     # how many, as DPjudge tells
    return dataclasses.replace(notice, payload=payload)


def veil_of(service: GameService, game: str, status: GameState, account: str | None,
            powers: list[str] | None = None) -> hidden_builds.Veil:
    """The hidden builds `account` may not read of `game` now (none: an empty veil)."""
    variant = service.variant(status.variant)
    if not any(m.hidden for m in variant.build_marks):
        return hidden_builds.Veil({})
    units = hidden_builds.unrevealed(variant, hidden_builds.played(service.history(game)))
    return hidden_builds.veil_for(variant, status, units, account, powers)


def history_as_seen(service: GameService, game: str, account: str | None) -> list[PlayedPhase]:
    """`GameService.history` as `account` may read it: each phase played cut to what its powers saw
    from the position before the phase to the one after it; hidden builds not yet revealed cut."""
    rows = service.history(game)
    status = service.status(game)
    veil = veil_of(service, game, status, account)
    if veil:
        rows = hidden_builds.veiled_history(veil, rows)
    powers = reader_powers(service, game, account, status)
    if powers is None:
        return rows
    variant = service.variant(status.variant)
    out = []
    for i, row in enumerate(rows):
        later = [r for r in rows[i + 1:] if not r.rolled_back] if not row.rolled_back else []
        after = later[0].position if later else None
        out.append(dataclasses.replace(
            row, results=tuple(fog.cut_history_phase(variant, row.results, row.position, after, powers)),
            civil_disorder=tuple(p for p in row.civil_disorder if p in powers)))
    return out


def notice_powers(service: GameService, notice: Notice, status: GameState | None = None) -> frozenset[str] | None:
    """The powers whose sight a notice is read with (None: the whole board). A player's notice keeps
    the powers it was written for (`payload["powers"]`), should the player have left them since."""
    powers = reader_powers(service, notice.payload["game"], notice.recipient, status)
    if powers is not None and notice.payload.get("powers"):
        return frozenset(notice.payload["powers"])
    return powers


def picture_powers(service: GameService, game: str, notice: Notice) -> frozenset[str] | None:
    """For the courier: the powers a results picture is drawn for (None: the whole board)."""
    return notice_powers(service, notice)
