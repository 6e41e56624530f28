"""`judge serve`: flags over JUDGE_* variables over the TOML file over embedded defaults."""
from __future__ import annotations

import argparse
import logging
import sys
import threading
from typing import Any

from . import schema_stamp
from .config import Config, ConfigError, load_config, parse_host_port


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="run the mail judge (SMTP intake, optional IMAP, outbox)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Runs the judge: takes mail by SMTP (or LMTP, or IMAP), archives it, and sends its\n"
                    "own mail through a relay, or as .eml files under <data>/outbox/ when none is set.\n"
                    "Settings: embedded defaults < --config FILE (TOML) < JUDGE_* variables < flags.",
        epilog="examples:\n"
               "  judge serve                                   # 127.0.0.1:2525, data in var/\n"
               "  judge serve --smtp-port 2600 --relay smtp.example.org:587\n"
               "  JUDGE_SMTP_LMTP=yes judge serve --config /etc/judge.toml   # behind Postfix")
    p.add_argument("--config", metavar="FILE", help="TOML configuration file (or $JUDGE_CONFIG)")
    p.add_argument("--data", metavar="DIR", help="data directory (default var/)")
    p.add_argument("--address", help="the judge's own address (default judge@localhost)")
    p.add_argument("--master", metavar="ADDRESS", help="the judge keeper's address, told about bounces")
    p.add_argument("--smtp-host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--smtp-port", type=int, help="port to listen on (default 2525; 0 picks a free one)")
    p.add_argument("--lmtp", action="store_true", default=None, help="speak LMTP (as Postfix's lmtp backend)")
    p.add_argument("--size-limit", type=int, metavar="BYTES", help="largest message taken (default 1 MiB)")
    p.add_argument("--rate-limit", type=int, metavar="N", help="messages per sender per --rate-window")
    p.add_argument("--rate-window", type=float, metavar="SECONDS", help="the rate limit's window (default 600)")
    p.add_argument("--relay", metavar="HOST[:PORT]", help="SMTP relay for outbound mail (default: .eml files)")
    p.add_argument("--imap", metavar="HOST[:PORT]", help="also take mail from this IMAP server")
    p.add_argument("--imap-user", help="IMAP login (password from the config or $JUDGE_IMAP_PASSWORD)")
    p.add_argument("-v", "--verbose", action="store_true", help="log every message taken and sent")
    p.set_defaults(func=run)


def overrides_from(args: argparse.Namespace) -> dict[str, Any]:
    o = {"data_dir": args.data, "address": args.address, "master_address": args.master,
         "smtp.host": args.smtp_host, "smtp.port": args.smtp_port, "smtp.lmtp": args.lmtp,
         "smtp.size_limit": args.size_limit, "smtp.rate_limit": args.rate_limit,
         "smtp.rate_window": args.rate_window, "imap.user": args.imap_user}
    if args.relay:
        o["relay.host"], o["relay.port"] = parse_host_port(args.relay, 25)
    if args.imap:
        o["imap.host"], o["imap.port"] = parse_host_port(args.imap, 143)
    return o


def run(args: argparse.Namespace) -> int:
    from .daemon import serve      # imported here so `judge --help` and `serve --help` load no area
    from .storage.datalock import hold
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd logs every SMTP line at INFO
    logging.getLogger("judge.news").setLevel(logging.INFO)    # a line when a game is made, starts, plays, ends
    try:
        config = load_config(args.config, overrides=overrides_from(args))
    except ConfigError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return 2
    try:
        lock = hold(config.data_dir)      # before migrating: one judge per data directory
    except OSError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return 1
    try:
        if not schema_stamp.vouched(config.data_dir) and not checked_current(config):
            return 2
        hooks = MailHooks(config)
        return serve(config, dispatch=Deferred(hooks, "dispatch"), tick=Deferred(hooks, "tick"),
                     on_bounce=Deferred(hooks, "dispatch", "bounced"))
    finally:
        lock.release()


def checked_current(config: Config) -> bool:
    """judge.sqlite brought to this judge's schema, and stamped so (judge.schema_stamp); False when it
    cannot be (said on stderr). Schema migrations run at start-up, before any mail, when this judge is
    new to the data directory. A restart finds judge.sqlite current, most often by the stamp alone,
    and starts at once, without importing what defines the schemas: the game files changed since the
    index saw them are swept by the daemon's worker after the banner, before its first mail."""
    from .ops.upgrade import JUDGE_FILE_COMPONENTS, UpgradeError, current, upgrade
    try:
        if not current(config.data_dir):
            for changed in upgrade(config.data_dir):
                print(f"judge serve: upgraded {changed}", flush=True)
    except UpgradeError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return False
    schema_stamp.leave(config.data_dir, [step for schema in JUDGE_FILE_COMPONENTS.values()
                                         for step in (*schema.steps, *([schema.current] if schema.current else []))])
    return True


class MailHooks:
    """The mail judge's hooks (judge.mail.serve_hooks: the dispatcher and the tick, on one games
    service), built the first time the daemon uses one: on its worker, after the banner, so that
    `judge serve` takes mail (spooled, acknowledged) while the games layer and the mail stack are
    still being imported."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._built: dict[str, object] | None = None
        self._lock = threading.Lock()

    def get(self, name: str) -> object:
        with self._lock:
            if self._built is None:
                from .mail.serve_hooks import build_hooks
                dispatch, tick = build_hooks(self.config)
                self._built = {"dispatch": dispatch, "tick": tick}
        return self._built[name]


class Deferred:
    """One of `hooks`' hooks (or `attribute` of it) in its place until it is first called or asked
    for an attribute (`judge_connection`, `due`, ...), which builds the hooks."""

    def __init__(self, hooks: MailHooks, name: str, attribute: str | None = None) -> None:
        self.hooks, self.name, self.attribute = hooks, name, attribute

    def real(self) -> Any:
        hook = self.hooks.get(self.name)
        return getattr(hook, self.attribute) if self.attribute else hook

    def __call__(self, *args: Any) -> Any:
        return self.real()(*args)

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):      # (the banner asks for __qualname__: not a reason to build)
            raise AttributeError(attribute)
        return getattr(self.real(), attribute)

    def __repr__(self) -> str:
        return f"the mail judge's {self.name} (judge.mail.serve_hooks)"
