"""Mail commands anyone may send: LIST (LIST VARIANTS too), HISTORY and SUMMARY (njudge's whogame:
who plays each power and since when, the centres by year, the settings). MAP and EXPORT are in
files.py."""
from __future__ import annotations

import re
from importlib import metadata

from ...engine.variant import Variant
from ...games.answers import GameState, Json
from ...games.records import Record
from ...games.service import GameService
from ...language import commands as c
from ...pictures.games import centre_counts_by_year
from ..words.anonymity import hides_players
from ..screening.auth import Refused, known_game
from .command_env import Env
from ..words.fog_mail import history_as_seen, reader_powers
from .game_settings import EDITION, SETTINGS
from ..words.textlayout import WIDTH, table, wrap
from .variant_info import list_variants


def viewer(env: Env) -> str | None:
    """The account whose time zone the times are shown in, besides the game's."""
    return env.session.account or env.session.sender_account


def list_games(env: Env, cmd: c.ListGames) -> list[str]:
    if cmd.game and cmd.game.upper() in ("VARIANTS", "VARIANT"):   # LIST VARIANTS: what the judge plays
        return list_variants(env)
    if cmd.game:
        return status_lines(env.service, known_game(env.service, cmd.game), viewer(env), env.session.account)
    games = env.service.list_games(env.session.account)   # signed on: its unlisted games too
    if not games:
        return ["no games yet: CREATE game password starts one"]
    rows = [f"{g.name:<16} {g.variant:<12} {g.status:<9} {g.phase or '-'}" for g in games]
    mine = viewer(env)
    return [f"{'game':<16} {'variant':<12} {'status':<9} phase", *rows,
            "LIST game shows one game's players and deadline; JOIN game password plays in a forming one",
            *([record_line(env.service.record(mine))] if mine else [])]


def record_line(record: Record, whose: str = "your") -> str:
    """A player's record across this judge's games (judge.games.records), as JOIN and LIST show it."""
    if not record.phases:
        return f"{whose} record: no phase played on this judge yet"
    return (f"{whose} record: orders sent in {record.reliability:.0f}% of {record.phases} phases"
            f" ({record.late} late, {record.missed} missed), {record.finished} game"
            f"{'s' if record.finished != 1 else ''} finished, {record.abandoned} abandoned")


def short_record(record: Record) -> str:
    """A record in a table's cell: "92% of 25" (orders sent in 92% of 25 phases), or "new"."""
    return "new" if not record.phases else f"{record.reliability:.0f}% of {record.phases}"


def hidden(status: GameState, viewer: str | None) -> bool:
    """Whether players' names are kept from this viewer (judge.mail.words.anonymity)."""
    return hides_players(status, viewer)


def status_lines(service: GameService, name: str, viewer: str | None = None, reader: str | None = None) -> list[str]:
    """`viewer`: whose zone times are also shown in; `reader`: the signed-on account, whose powers'
    sight cuts the centre counts in a game with fog of war (judge.mail.words.fog_mail)."""
    s = service.status(name, viewer=viewer)
    variant = service.variant(s.variant)
    sees = reader_powers(service, name, reader, s)
    lines = [f"{s.name}: {s.variant} ({s.rules} rules), {s.status}"
             + (f", {s.phase_name}" if s.phase_name else "")]
    if s.settings.get("comment"):      # the master's SET COMMENT
        lines.append(f"comment: {s.settings['comment']}")
    if s.deadline:
        lines.append("deadline: " + "; ".join(f"{t} ({z})" for z, t in s.deadline["shown"].items()))
    anonymous = hidden(s, viewer)
    if s.status == "forming":
        lines.append(f"signed up: {len(s.signups)} of {s.players_needed}")
        if not anonymous:
            lines.extend(f"  {a:<16} record {short_record(service.record(a))}" for a in s.signups)
    lords = (s.position or {}).get("vassals", {})     # a vassal's orders are its overlord's player's
    for power, info in sorted(s.powers.items()):
        centres = f"{info.centres:>2}" if sees is None or power in sees else " ?"
        who = "" if anonymous or not info.account else f"{info.account[:12]:<12} " \
            f"{short_record(service.record(info.account)):<10}"
        lines.append(f"  {variant.power(power).name:<10} {who:<24}{info.status:<10} {centres} centres"
                     + ("  owes orders" if info.owes else "")
                     + (f" (by {variant.power(lord).name}'s player)"
                        if info.owes and (lord := lords.get(power)) else ""))
    if s.powers and not anonymous:
        lines.append("(record: orders sent in that per cent of the player's phases on this judge)")
    return lines


def outcome_line(variant: Variant, outcome: Json) -> str:
    """One order's outcome in a table of a phase: the power by name, the order, ok or why not."""
    why = "ok" if outcome["succeeded"] else outcome["reason"]
    return f"  {variant.power(outcome['power']).name:<10} {outcome['order']:<28} {why}"


_PHASE = re.compile(r"^[A-Z]{1,3}\d{1,4}[MRAB]$", re.IGNORECASE)   # S1901M; A1425M (Hundred), B273M (Classical)
_RANGE_WORDS = {"from", "to", "until", "-", "..", "through"}


def wanted_phases(words: tuple[str, ...], played: list[str]) -> tuple[list[str], str]:
    """The phases `HISTORY game ...` asks for, of `played` (oldest first), and how it read them:
    none: all; `S1901M F1902M` or `FROM S1901M TO F1902M`: that range; a year (1902): its phases;
    three or more phases: those."""
    parts = [w for word in words for w in re.split(r"(?<=[MRAB])-(?=[SFWU]\d)", word, flags=re.IGNORECASE)]
    ranged = any(w.lower() in _RANGE_WORDS for w in parts)
    codes = [w.upper() for w in parts if w.lower() not in _RANGE_WORDS]
    bad = [w for w in codes if not _PHASE.match(w) and not w.isdigit()]
    if bad:
        raise Refused(f"{bad[0]!r} is not a phase (S1901M, F1901R, W1901A) or a year",
                      "HISTORY game, HISTORY game 1902, or HISTORY game S1901M F1902M (from, to)")
    if not codes:
        return played, "every phase played"
    if all(w.isdigit() for w in codes) and len(codes) == 1:
        return [p for p in played if p[1:-1] == codes[0]], f"the phases of {codes[0]}"
    if ranged or len(codes) == 2:
        first, last = (codes + codes)[:2] if len(codes) == 1 else (codes[0], codes[-1])
        index = {p: i for i, p in enumerate(played)}
        start = index.get(first, 0 if first not in played else None)
        end = index.get(last, len(played) - 1)
        missing = [p for p in (first, last) if p not in index]
        if missing:
            raise Refused(f"no phase {missing[0]} has been played", "HISTORY game from to, with phases played: "
                          + (f"{played[0]} to {played[-1]}" if played else "none yet"))
        return played[start:end + 1], f"{first} to {last}"
    return [p for p in played if p in codes], " ".join(codes)


def history(env: Env, cmd: c.History) -> list[str]:
    name = known_game(env.service, cmd.game)
    phases = history_as_seen(env.service, name, env.session.account)   # fog of war: as the reader saw it
    played = [h.phase for h in phases if h.processed_at and not h.rolled_back]
    wanted, how = wanted_phases(cmd.phases, played)
    variant = env.service.variant(env.service.status(name).variant)
    lines = [f"{name}, {how}:" if cmd.phases else f"{name}: {how}"]
    for phase in phases:
        if phase.phase not in wanted or phase.processed_at is None:
            continue
        if phase.rolled_back and cmd.phases:
            continue
        lines.append(f"{phase.phase}" + (" (rolled back)" if phase.rolled_back else "") + ":")
        for result in phase.results:
            lines.extend(outcome_line(variant, o) for o in result["outcomes"])
    if cmd.phases and len(lines) == 1:
        return [f"{name} has no phases played in {how}"]
    current = [p.phase for p in phases if p.processed_at is None and not p.rolled_back]
    return lines + ([f"{current[-1]}: not played yet"] if current and not cmd.phases else [])


def excuses_spent(s: GameState, variant: Variant, who: str | None, anonymous: bool) -> list[str]:
    """The excused misses each seat has spent (judge.games.excuses), where the game gives any. In an
    anonymous game a player sees only their own powers' (whoever missed is not named to the others)."""
    allowed = int(s.settings.get("excuses") or 0)
    if not allowed:
        return []
    seats = [(p, info) for p, info in s.powers.items() if info.account and info.status != "neutral"
             and (not anonymous or info.account == who)]
    if not seats:
        return []
    return wrap("excuses spent (of " + str(allowed) + " each): " + ", ".join(
        f"{variant.power(p).name} {info.excuses_used}" for p, info in sorted(seats)), "  ", "", WIDTH - 2).split("\n")


def summary(env: Env, cmd: c.Summary) -> list[str]:
    """njudge's whogame: who plays each power and since when, the centres by year, the settings."""
    name = known_game(env.service, cmd.game)
    who = viewer(env)
    s = env.service.status(name, viewer=who)
    variant = env.service.variant(s.variant)
    lines = [f"{name}: {variant.name} ({s.rules} rules), {s.status}"
             + (f", {s.phase_name}" if s.phase_name else ""), f"master: {s.master or 'none'}"]
    if s.settings.get("comment"):      # the master's SET COMMENT
        lines.append(f"comment: {s.settings['comment']}")
    seats = env.service.seat_history(name)
    undone = [i for i, e in enumerate(seats) if e.event == "unassigned"]   # seats given out before an UNSTART
    seats = seats[undone[-1] + 1:] if undone else seats
    if s.status == "forming":
        lines.append(f"forming: {len(s.signups)} of {s.players_needed} players signed up")
    anonymous = hidden(s, who)
    rows = []
    for power in variant.power_ids:
        info = s.powers.get(power)
        if info is None:
            continue
        stints = [
            (e.account, e.phase or "-", (e.at or "")[:10])
            for e in seats
            if e.power == power and (e.event in ("assigned", "replaced") or e.event.startswith("joined"))
        ]
        stints = [st for i, st in enumerate(stints) if not i or st[0] != stints[i - 1][0]]
        for i, (account, phase, day) in enumerate(stints or [(info.account, "-", "")]):
            player = "nobody" if account is None else "(anonymous)" if anonymous else account
            rows.append([variant.power(power).name if i == 0 else "", player, f"{phase} {day}".strip(),
                         info.status if i >= len(stints) - 1 else "replaced"])
    if rows:
        lines.append("who plays each power, and since when:")
        lines.extend(table(rows, ["power", "player", "since", "now"]).split("\n"))
    counts = centre_counts_by_year(env.service, name)
    sees = reader_powers(env.service, name, env.session.account, s)
    if sees is not None:                      # fog of war: the reader's own powers' counts only
        counts = {year: {p: n for p, n in row.items() if p in sees} for year, row in counts.items()}
    if counts:
        years = sorted(counts)[-8:]             # the last eight years fit in 77 columns
        lines.append("supply centres at the end of each year:")
        lines.extend(table([[variant.power(p).name, *(counts[y].get(p, 0) for y in years)]
                            for p in variant.power_ids if p in s.powers and (sees is None or p in sees)],
                           ["power", *map(str, years)]).split("\n"))
    lines += excuses_spent(s, variant, who, anonymous)
    played = [h.phase for h in env.service.history(name) if h.processed_at and not h.rolled_back]
    lines.append(f"phases played: {len(played)}, {played[0]} to {played[-1]}" if played else "phases played: none")
    settings = {**s.settings, EDITION: s.rules}      # the rulebook shown with the settings, as SET RULES sets it
    lines.extend(wrap("settings (the master changes them with SET setting value; HELP SETTINGS): "
                      + "; ".join(f"{st.words[0]} {st.show(settings[st.field])}" for st in SETTINGS
                                  if st.implied is None and not (st.quiet_unset and settings[st.field] is None)),
                      "  ", "", WIDTH - 2).split("\n"))   # the reply indents by 2
    return lines


def whois(env: Env, cmd: c.Whois) -> list[str]:
    """WHOIS [account ...] (njudge's WHOIS, DPjudge's INFO PLAYER): each account's public record
    here; no address is shown. None named: the sender's own."""
    names = cmd.accounts or ((env.session.sender_account or env.session.account),)
    if names == (None,):
        raise Refused("whose record? this address has no account here", "WHOIS name (the name an account"
                      " REGISTERed with)")
    lines = []
    for name in names:
        try:
            account = env.service.accounts.get(str(name)).name
        except KeyError:
            lines.append(f"there is no account {name!r} on this judge")
            continue
        lines.append(record_line(env.service.record(account), f"{account}'s"))
    return lines


def version(env: Env, cmd: c.Version) -> list[str]:
    try:
        number = metadata.version("judge")
    except metadata.PackageNotFoundError:    # run from a source tree never installed
        number = "unknown"
    return [f"this judge is version {number} (a Diplomacy judge by mail, in Python)"]
