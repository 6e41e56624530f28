"""Pictures of games: the board of a played phase, for the results mail and `judge map --data`."""
from __future__ import annotations

import functools
import hashlib
import logging
from email.message import EmailMessage, MIMEPart
from typing import Any

from ..engine.geography import UnitKind
from ..engine.notation import parse_loc, position_from_json
from ..engine.outcomes import Outcome, Reason, Why
from ..engine.position import DislodgedUnit, Position, Unit
from ..engine.variant import Variant
from ..games.ordercodec import order_from_json
from ..games.service import GameService
from .atlas import Atlas, has_layout
from .chart import centre_chart_png

log = logging.getLogger("judge.pictures")
from .render import render_png, title_of


def outcomes_from_json(result: dict[str, Any]) -> tuple[Outcome, ...]:
    """Read back one stored phase result (`history`'s shape) as engine outcomes."""
    return tuple(Outcome(o["power"], order_from_json(o["json"]), bool(o["succeeded"]), Reason(o["reason"]),
                             Why(o["why"]) if o.get("why") else None, tuple(o.get("args") or ()),
                             tuple(o.get("involving") or ()), o.get("dislodged_from"),
                             bool(o.get("by_judge"))) for o in result.get("outcomes", ()))


def dislodged_from_json(variant: Variant, result: dict[str, Any]) -> tuple[DislodgedUnit, ...]:
    out = []
    for d in result.get("dislodged", ()):
        kind, _, where = d["unit"].partition(" ")
        unit = Unit(d["power"], UnitKind(kind.upper()), parse_loc(variant, where))
        out.append(DislodgedUnit(unit, d["from"].lower(), tuple(parse_loc(variant, r) for r in d.get("retreats", ()))))
    return tuple(out)


def phase_board(service: GameService, record: dict[str, Any]):
    """(variant, position before the phase, outcomes, dislodged) of a `GameService.phase_record`."""
    variant = service.variant(record["variant"])
    position: Position = position_from_json(variant, record["position"])
    own = next((r for r in record["results"] if r["phase"] == record["phase"]), None)
    outcomes, dislodged = ((), ())
    if own is not None:
        outcomes = outcomes_from_json(own)
        dislodged = dislodged_from_json(variant, own)
    return variant, position, outcomes, dislodged


def picture_of_phase(service: GameService, game: str, phase: str, *, atlas: Atlas | None = None) -> bytes | None:
    """The picture for a game's results notice of `phase` (the position before it, its orders and
    their outcomes); None when the game turned pictures off."""
    record = service.phase_record(game, phase)
    if not record["settings"].get("pictures", True):
        return None
    if atlas is None and not has_layout(record["variant"]):
        log.warning("no picture for %s %s: the %s variant has no layout.json", game, phase, record["variant"])
        return None
    variant, position, outcomes, dislodged = phase_board(service, record)
    return render_png(variant, position, outcomes or None, atlas=atlas, dislodged=dislodged,
                      title=game_title(game, variant, position))


def game_title(game: str, variant: Variant, position: Position) -> str:
    return f"{game}: {title_of(variant, position)}"


def centre_counts_by_year(service: GameService, game: str) -> dict[int, dict[str, int]]:
    """Each power's supply centres at the end of each year played (the last phase recorded in it:
    ownership changes after the year's last movement phase, so that phase's successors hold it)."""
    variant = service.variant(service.status(game)["variant"])
    counts: dict[int, dict[str, int]] = {}
    for row in service.history(game):
        if row["rolled_back"]:
            continue
        position = position_from_json(variant, service.phase_record(game, row["phase"])["position"])
        counts[position.phase.year] = {p: len(position.centres_of(p)) for p in variant.power_ids}
    return counts


def end_of_game_chart(service: GameService, game: str) -> bytes:
    """The chart for the end-of-game report: each power's centres by year."""
    variant = service.variant(service.status(game)["variant"])
    return centre_chart_png(variant, centre_counts_by_year(service, game))


def attach_png(message: EmailMessage, png: bytes, name: str) -> EmailMessage:
    """Add the picture after the text: a plain message becomes multipart/mixed, text first."""
    message.add_attachment(png, maintype="image", subtype="png", filename=name)
    return message


class SharedPicture(tuple):
    """(file name, PNG) of one phase, for every recipient's mail: its MIME part is encoded once, and
    `mail_bytes` splices it into each mail (encoding a 70 KB picture and writing it out again cost
    about 25 ms a recipient)."""

    def __new__(cls, name: str, png: bytes) -> "SharedPicture":
        return super().__new__(cls, (name, png))

    @property
    def boundary(self) -> str:
        return "=_picture_" + hashlib.sha256(self[1]).hexdigest()[:32]

    @functools.cached_property
    def part(self) -> bytes:
        part = MIMEPart()
        part.set_content(self[1], maintype="image", subtype="png", disposition="attachment", filename=self[0])
        return bytes(part)

    def mail_bytes(self, message: EmailMessage) -> bytes:
        """The bytes of `attach_png(message, png, name)`, with the part encoded once for all."""
        if message.is_multipart() or self.boundary in message.get_payload():
            # a text quoting the boundary (the picture can be drawn by anyone beforehand): the slow way
            return bytes(attach_png(message, self[1], self[0]))
        message.make_mixed()
        message.set_boundary(self.boundary)
        raw = bytes(message)
        end = raw.rindex(f"--{self.boundary}--".encode())
        sep = message.policy.linesep.encode()      # CRLF for mail the judge builds: one line end throughout
        part = self.part if sep == b"\n" else self.part.replace(b"\n", sep)
        return raw[:end] + f"--{self.boundary}".encode() + sep + part + sep + raw[end:]
