"""Mail commands anyone may send: LIST (LIST VARIANTS too), HISTORY and SUMMARY."""
from __future__ import annotations

from ..games.service import GameService
from ..language import commands as c
from .auth import known_game
from .command_env import Env
from .game_settings import SETTINGS, shown
from .variant_info import list_variants


def viewer(env: Env) -> str | None:
    """The account whose time zone the times are shown in, besides the game's."""
    return env.session.account or env.session.sender_account


def list_games(env: Env, cmd: c.ListGames) -> list[str]:
    if cmd.game and cmd.game.upper() in ("VARIANTS", "VARIANT"):   # LIST VARIANTS: what the judge plays
        return list_variants(env)
    if cmd.game:
        return status_lines(env.service, known_game(env.service, cmd.game), viewer(env))
    games = env.service.list_games(env.session.account)   # signed on: its unlisted games too
    if not games:
        return ["no games yet: CREATE game password starts one"]
    rows = [f"{g['name']:<16} {g['variant']:<12} {g['status']:<9} {g['phase'] or '-'}" for g in games]
    return [f"{'game':<16} {'variant':<12} {'status':<9} phase", *rows,
            "LIST game shows one game's players and deadline; JOIN game password plays in a forming one"]


def status_lines(service: GameService, name: str, viewer: str | None = None) -> list[str]:
    s = service.status(name, viewer=viewer)
    variant = service.variant(s["variant"])
    lines = [f"{s['name']}: {s['variant']} ({s['rules']} rules), {s['status']}"
             + (f", {s['phase_name']}" if s["phase_name"] else "")]
    if s["deadline"]:
        lines.append("deadline: " + "; ".join(f"{t} ({z})" for z, t in s["deadline"]["shown"].items()))
    if s["status"] == "forming":
        lines.append(f"signed up: {len(s['signups'])} of {s['players_needed']}")
    for power, info in sorted(s["powers"].items()):
        lines.append(f"  {variant.power(power).name:<10} {info['status']:<15} {info['centres']:>2} centres"
                     + ("  owes orders" if info["owes"] else ""))
    return lines


def outcome_line(variant, outcome: dict) -> str:
    """One order's outcome in a table of a phase: the power by name, the order, ok or why not."""
    why = "ok" if outcome["succeeded"] else outcome["reason"]
    return f"  {variant.power(outcome['power']).name:<10} {outcome['order']:<28} {why}"


def history(env: Env, cmd: c.History) -> list[str]:
    name = known_game(env.service, cmd.game)
    wanted = {p.upper() for p in cmd.phases}
    lines = []
    for phase in env.service.history(name):
        if wanted and phase["phase"] not in wanted:
            continue
        if phase["processed_at"] is None:
            lines.append(f"{phase['phase']}: not played yet")
            continue
        lines.append(f"{phase['phase']}" + (" (rolled back)" if phase["rolled_back"] else "") + ":")
        variant = env.service.variant(env.service.status(name)["variant"])
        for result in phase["results"]:
            lines.extend(outcome_line(variant, o) for o in result["outcomes"])
    return lines or [f"{name} has no phases {' '.join(sorted(wanted))}".rstrip()]


def summary(env: Env, cmd: c.Summary) -> list[str]:
    name = known_game(env.service, cmd.game)
    lines = status_lines(env.service, name, viewer(env))
    played = [h["phase"] for h in env.service.history(name) if h["processed_at"] and not h["rolled_back"]]
    lines.append(f"phases played: {', '.join(played) or 'none'}")
    settings = env.service.status(name)["settings"]
    lines.append("settings (the master changes them with SET setting value; HELP SETTINGS): "
                 + "; ".join(f"{s.words[0]} {shown(settings[s.field])}" for s in SETTINGS if s.implied is None))
    return lines
