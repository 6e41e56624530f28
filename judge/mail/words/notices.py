"""What the judge's own mail says: each notice the games layer writes, rendered from its template.

    reports = Reports()
    for notice in service.pending_notices("alpha"):
        mail = render_notice(reports, service, notice)      # -> Rendered(subject, body)

A notice of kind K is rendered by `templates/notice_K.j2`; a kind without a template raises
UnknownNotice (the tests check every kind the games layer can write has one). The payload is
the news as it was when it happened; the service fills in what it lacks (full names, the
players, the centre table by year). Every template gets the context `notice_context` builds:

    kind, game, p (the payload), recipient (account or None: the public copy), your_powers
    (names of the recipient's powers), variant (the Variant), status (GameService.status, a GameState),
    game_zone, and the functions power(id) -> "France", adjective(id) -> "French", names(ids),
    place("STP/SC") -> "St Petersburg (south coast)", phase_name("F1901M"), player(power),
    units_of(power) (its units now, in words), in_play (names of the powers still playing),
    when(times) -> ["Wed 04 Mar 2026 13:00 CET (Europe/Berlin, game time)", ...],
    left(times) -> "1 day 23 hours" (from the notice's time) and deadline_text(times, label) (the
    two as the "Deadline:" lines: _macros.j2's `deadline`), where `times` is a payload's
    {"utc": ..., "shown": {zone: text}}; fail(message) raises UnknownNotice (a case not foreseen).
Some kinds get more: results -> `report` (results_report.py) and `shared_part(name)` (the parts
of its mail every copy shares, rendered once: `_shared_part`); game_end -> `centre_tables`,
`final_rows`; game_start -> `reconstruction`, `seats`, `units`, `signon`, `rules`; press ->
`who`, `whom`; exchange_offer -> `gives`, `receives` (centre names, from the offerer's side);
revealed -> `seats`; replacement -> `standing`, `centre_tables` (the new player's copy only: the
hand-over). In an anonymous game the status and payload come masked (judge.mail.words.anonymity).
Under fog of war a results notice's payload is first cut to what its recipient sees
(judge.mail.words.fog_mail.notice_as_seen): then `p.fog` names the reader's powers and `report.fog` is true.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

import jinja2

from ...engine import starting_position
from ...engine.notation import unit_text
from ...engine.position import Unit
from ...engine.variant import Variant
from ...games.clock import parse_time, shown
from ...games.answers import CentreCount, GameState, Notice, NoticeKind
from ...games.service import GameService
from ...games.small import setup
from .anonymity import hidden_accounts, masked_payload, masked_status
from .fog_mail import notice_as_seen
from .outcome_words import place, unit_words
from .reports import Reports, Rendered
from .results_report import results_report
from .textlayout import WIDTH, table


class UnknownNotice(LookupError):
    """A notice kind with no template: a defect to fix, never a blank mail."""


def template_for(kind: str) -> str:
    return f"notice_{kind}.j2"


def render_notice(reports: Reports, service: GameService, notice: Notice) -> Rendered:
    name = template_for(notice.kind)
    try:
        template = reports.env.get_template(name)
    except jinja2.TemplateNotFound:
        raise UnknownNotice(f"no template {name} for notices of kind '{notice.kind}'") from None
    context = notice_context(service, notice)
    if "report" in context:
        context["shared_part"] = _shared_part(reports, context)
    return reports.render(template, **context)


def _shared_part(reports: Reports, context: dict[str, Any]) -> Callable[[str], str]:
    """`shared_part(name)` for the results template: the text of a part that reads only what every
    copy of one report shares (templates/_results_*.j2 say what), rendered once for them all and
    kept with the report: in a deadline rush the same sections, tables and news were rendered anew
    for each of a phase's nine copies, half of the courier's Jinja time."""
    texts: dict[object, str] = context["report"]["shared_texts"]

    def part(name: str) -> str:
        key = (reports.env, name)     # (another Reports may have other templates under the name)
        text = texts.get(key)
        if text is None:
            text = texts[key] = reports.env.get_template(name).render(context)
        return text
    return part


def notice_context(service: GameService, notice: Notice) -> dict[str, Any]:
    status = service.status(notice.payload["game"])    # the same for every reader: times come from the payload
    notice = notice_as_seen(service, notice, status)    # fog of war: what the recipient sees
    hidden = hidden_accounts(status, notice.recipient)   # an anonymous game: judge.mail.words.anonymity
    status = masked_status(status, hidden)
    p = masked_payload(notice.payload, hidden)
    if hidden:
        notice = Notice(notice.id, notice.kind, notice.recipient, p, notice.created_at)
    variant = service.variant(status.variant)
    players = _players(status)
    game_zone = status.settings["time_zone"]
    reader_zone = service.accounts.zone_of(notice.recipient)

    def when(times: dict[str, Any]) -> list[str]:
        return list(_when(times["utc"], game_zone, reader_zone))

    def left(times: dict[str, Any]) -> str:
        return duration(_seconds_between(notice.created_at, times["utc"]))

    def passed(times: dict[str, Any]) -> bool:
        """Whether the time had gone by when the notice was made (`left` then says so in words)."""
        return _seconds_between(notice.created_at, times["utc"]) <= 0

    def deadline_text(times: dict[str, Any], label: str = "Deadline") -> str:
        """A deadline in words, each zone a line, the time left after (templates/_macros.j2's `deadline`,
        also called directly by the results template: importing the macros with the notice's context
        made their module anew for every copy, a fifth of rendering one)."""
        lines = when(times) + ([] if passed(times) else [f"(time left: {left(times)})"])
        return f"{label}: " + ("\n" + " " * (len(label) + 2)).join(lines)

    ctx: dict[str, Any] = {
        "kind": notice.kind, "game": p["game"], "p": p, "recipient": notice.recipient,
        "your_powers": [variant.power(x).name for x in p.get("powers", ())],
        "variant": variant, "status": status, "game_zone": game_zone,
        "power": lambda x: variant.power(x.upper()).name,
        "adjective": lambda x: variant.power(x.upper()).adjective,
        "place": lambda text: place(variant, text),
        "phase_name": lambda code: variant.calendar.name(variant.calendar.parse(code)),
        "player": lambda x: players.get(x.upper()) or "nobody",
        "names": lambda ids: [variant.power(x.upper()).name for x in ids],
        "units_of": lambda x: [unit_words(variant, u) for u in (status.position or {}).get("units", {}).get(x, ())],
        "in_play": [variant.power(x).name for x, info in status.powers.items()
                    if info.status not in ("eliminated", "neutral")],
        "when": when, "left": left, "passed": passed, "deadline_text": deadline_text, "fail": _fail,
    }
    extra = _EXTRA.get(notice.kind)
    if extra:
        ctx.update(extra(service, notice, variant, status))
    return ctx


# A phase's copies tell the same deadline, mostly to readers of the same zone: worked out once each
@lru_cache(maxsize=256)
def _when(utc: str, game_zone: str, reader_zone: str | None) -> tuple[str, ...]:
    """A time in the game's zone first, then the reader's (as the reader's account says now,
    whatever the payload was written with), or UTC for a reader without another zone."""
    mine = reader_zone if reader_zone and reader_zone != game_zone else None
    zones = [game_zone, mine or ("UTC" if game_zone != "UTC" else None)]
    texts = shown(utc, [z for z in zones if z])
    return tuple(f"{texts[zone]} ({zone}, {'game time' if zone == game_zone else 'your time'})"
                 if zone in (game_zone, mine) else f"{texts[zone]} ({zone})" for zone in zones if zone)


@lru_cache(maxsize=256)
def _seconds_between(start: str, end: str) -> float:
    return (parse_time(end) - parse_time(start)).total_seconds()


def _fail(message: str) -> None:
    raise UnknownNotice(message)


def duration(seconds: float) -> str:
    """ "1 day 23 hours", "3 hours 10 minutes"; "passed" for a time gone by."""
    if seconds <= 0:
        return "passed"
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (mins, "minute")]
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(words) or "less than a minute"


# -- what some kinds need beyond the payload --------------------------------------------------------

def _players(status: GameState) -> dict[str, str | None]:
    return {power: info.account for power, info in status.powers.items()}


def _results(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    return {"report": results_report(variant, notice.payload, _players(status),
                                     reader=tuple(notice.payload.get("powers", ())))}


def _game_start(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    p = notice.payload
    players = p.get("players") or _players(status)  # the seats as given out, in the players' copies
    start = starting_position(variant)  # the same whenever the mail is rendered
    seat = p.get("seat", ())
    return {
        "reconstruction": (
            variant.extra.get("x_reconstruction_notice")
            or f"The {variant.name} map was reconstructed and may differ from the printed map."
        )
        if variant.reconstructed
        else None,
        "seats": [[variant.power(x).name, players.get(x) or "(neutral)"] for x in variant.power_ids],
        "units": [
            (variant.power(x).name, [unit_words(variant, unit_text(u.kind, u.location)) for u in start.units_of(x)])
            for x in seat
        ],
        "signon": [f"SIGNON {variant.power(x).letter}{p['game']} <your password>" for x in seat[:1]],
        "example": example_moves(variant, [u for x in seat[:1] for u in start.units_of(x)]),
        "rules": game_rules(variant, status.settings),
    }


def example_moves(variant: Variant, units: Iterable[Unit]) -> list[str]:
    """Moves the player's own first units could make ("A VIE - BOH"), for the first mail's example:
    an example made of another power's units reads as a mistake. Destinations with coasts are
    skipped so no example needs one."""
    board, out = variant.board, []
    for u in units:
        places = sorted(p for p in board.neighbours(u.location.province)
                        if board.can_reach_province(u.kind, u.location, p) and not board.coasts_of(p))
        if places:
            out.append(f"{unit_text(u.kind, u.location)} - {places[0].upper()}")
    return out[:2]


def game_rules(variant: Variant, settings: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The settings a player needs to know, as (what, how) rows."""
    seats = setup(settings["players"])
    victory = settings["victory_centres"] or seats.victory_centres or variant.victory_centres
    hours: Callable[[float], str] = lambda h: f"{h:g} hour{'s' if h != 1 else ''}"  # noqa: E731
    rows = [
        ("Movement phases", hours(settings["movement_hours"])),
        ("Retreat phases", hours(settings["retreat_hours"])),
        ("Adjustment phases", hours(settings["adjustment_hours"])),
        ("Grace after a deadline", hours(settings["grace_hours"])),
        ("Reminders", ", ".join(f"{h:g}" for h in settings["reminder_hours"]) + " hours before a deadline"
         if settings["reminder_hours"] else "none"),
        ("Missing orders", "the power falls into civil disorder" if settings["nmr_policy"] == "civil disorder"
         else "the game waits for them (the master can process)"),
        ("After a missed move", "dislodged units are disbanded, as the rulebooks say"
         if settings.get("missed_orders") == "book" else "the units hold and may still retreat"),
        ("Abandoned after", f"{settings['abandon_after']} phases missed in a row"),
        ("Press", {"white": "white (signed)", "grey": "grey (may be anonymous)",
                   "broadcast": "broadcast only (to every power at once)",
                   "none": "none (only with the game master)"}[settings["press"]]
         + ("; none in retreat and adjustment phases"
            if settings.get("movement_press_only") or settings.get("ftf_press") else "")
         + ("; no private press once a deadline has passed" if settings.get("ftf_press") else "")),
        ("Victory", f"{victory} supply centres" + (" (counted per player)" if settings["victory_by_player"]
                                                    or seats.victory_by_player else "")),
        ("Draws", "none: the game ends in a win, or when the others concede to one power" if settings.get("no_draw")
         else "shared by all survivors" if settings["draw_rule"] == "all survivors"
         else "shared by the powers the votes name"),
        ("Time zone", settings["time_zone"]),
    ]
    if settings.get("fog"):
        rows.append(("Fog of war", ("you see only what your units and centres see; the master sees all,"
                                    " and the whole record is shown at the end")))
    if settings["last_year"]:
        rows.append(("Last year", str(settings["last_year"])))
    if settings["ends_at"]:
        rows.append(("Ends at", settings["ends_at"]))
    return rows


def _game_end(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    counts = notice.payload["result"]["counts"]
    players = _players(status)
    return {
        "centre_tables": centre_tables(variant, service.centre_history(notice.payload["game"])),
        "victory": status.settings.get("victory_centres") or variant.victory_centres,
        "final_rows": [[variant.power(x).name, players.get(x) or "-", counts.get(x, 0)]
                       for x in sorted(variant.power_ids, key=lambda x: -counts.get(x, 0))],
    }


def _replacement(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    """The hand-over, for the new player's copy only: the power's orders standing (its previous
    player's, for this phase) and the centres by year (not under fog, where they are not all seen)."""
    p = notice.payload
    if notice.recipient is None or notice.recipient != p.get("account"):
        return {"standing": [], "centre_tables": []}
    standing = ([o["written"] for o in service.confirmation(p["game"], p["power"]).orders]
                if status.phase == p["phase"] else [])
    tables = [] if status.settings.get("fog") else centre_tables(variant, service.centre_history(p["game"]))
    return {"standing": standing, "centre_tables": tables}


def _press(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    def who(x: str) -> str:
        if x.startswith("OBSERVER"):       # an observer's press: OBSERVER, or OBSERVER:account where signed
            return f"{x.partition(':')[2]} (an observer)" if ":" in x else "an observer"
        return {"MASTER": "the game master", "anonymous": "anonymous"}.get(x) or variant.power(x).name
    return {"who": who, "whom": lambda xs: [who(x) for x in xs]}


def _diaries(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    return {"who": lambda x: variant.power(x).name}


def centre_tables(variant: Variant, history: list[CentreCount]) -> list[str]:
    """Supply centres per power at the start and at the end of each year, as aligned tables
    (split into several tables where one would not fit a mail window)."""
    if not history:
        return []
    columns: list[tuple[str, Mapping[str, int]]] = [("Start", history[0].centres)]
    for year in sorted({row.year for row in history}):
        later = [row for row in history if row.year > year]
        columns.append((variant.calendar.year_name(year), (later[0] if later else history[-1]).centres))
    # each column takes its label's width and a gap of two; the power names take the first
    names = max(len("Power"), *(len(p.name) for p in variant.powers))
    per_table = max(1, (WIDTH - 2 - names) // (2 + max(len(label) for label, _ in columns)))
    out = []
    for i in range(0, len(columns), per_table):
        chunk = columns[i:i + per_table]
        rows = [[variant.power(p).name, *[c[p] for _, c in chunk]] for p in variant.power_ids]
        out.append(table(rows, ["Power", *[label for label, _ in chunk]]))
    return out


def _exchange_offer(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    p = notice.payload
    return {"gives": [place(variant, c) for c in p["give"]], "receives": [place(variant, c) for c in p["receive"]]}


def _rollback(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    """What each of the reader's powers must decide in the phase played again, in words."""
    needs = notice.payload.get("needs") or {}
    decide = []
    for x in notice.payload.get("powers", ()):
        need = needs.get(x)
        if need:
            decide.append({
                "power": variant.power(x).name,
                "units": [unit_words(variant, u) for u in need["units"]],
                "retreats": [(unit_words(variant, r["unit"]), [place(variant, t) for t in r["to"]])
                             for r in need["retreats"]],
                "builds": need["builds"], "removals": need["removals"]})
    return {"decide": decide}


def _revealed(service: GameService, notice: Notice, variant: Variant, status: GameState) -> dict[str, Any]:
    players = _players(status)
    return {"seats": [[variant.power(x).name, players.get(x) or "(neutral)"] for x in variant.power_ids]}


_EXTRA: dict[str, Callable[[GameService, Notice, Variant, GameState], dict[str, Any]]] = {
    NoticeKind.RESULTS: _results, NoticeKind.GAME_START: _game_start, NoticeKind.GAME_END: _game_end,
    NoticeKind.PRESS: _press, NoticeKind.EXCHANGE_OFFER: _exchange_offer, NoticeKind.ROLLBACK: _rollback,
    NoticeKind.REVEALED: _revealed, NoticeKind.REPLACEMENT: _replacement, NoticeKind.DIARIES: _diaries,
}
