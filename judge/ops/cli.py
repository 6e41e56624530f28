"""`judge backup`, `judge restore`, `judge doctor`: the keeper's operations on a judge's data directory.

They find the data directory as `judge serve` does: --data, else --config FILE / $JUDGE_CONFIG,
else JUDGE_DATA_DIR, else var/.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from ..config import Config, ConfigError, load_config

EPILOG = {
    "backup": "examples:\n"
              "  judge backup /srv/backup/judge-$(date +%F)      # while judge serve runs\n"
              "  judge backup --config /etc/judge/judge.toml /srv/backup/today",
    "restore": "examples:\n"
               "  judge restore /srv/backup/judge-2026-11-20 --data /srv/judge/var   # into an empty directory",
    "doctor": "examples:\n"
              "  judge doctor --config /etc/judge/judge.toml     # exit 1 when something is wrong\n"
              "  judge doctor --max-age 1800 --json              # for a monitor",
}


def _config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="TOML configuration file (or $JUDGE_CONFIG)")
    p.add_argument("--data", metavar="DIR", help="data directory (overrides the configuration)")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def add(name: str, func: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, help=help_, description=help_, epilog=EPILOG[name],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        _config_args(p)
        p.set_defaults(func=func)
        return p

    p = add("backup", _backup, "copy judge.sqlite and every game file into DIR, consistently, while the judge runs")
    p.add_argument("dir", metavar="DIR", help="a new (or empty) directory for the backup")
    p = add("restore", _restore, "check a backup and restore it into an empty data directory, migrating it")
    p.add_argument("dir", metavar="DIR", help="a directory written by `judge backup`")
    p = add("doctor", _doctor, "check configuration, data, schema, relay and mail flow; exit 1 if something is wrong")
    p.add_argument("--max-age", type=float, default=3600.0, metavar="SECONDS",
                   help="mail waiting longer than this (outbox or inbound) is a failure (default 3600)")
    p.add_argument("--offline", action="store_true", help="do not connect to the relay or the IMAP server")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")


def _load(args: argparse.Namespace, command: str) -> Config | None:
    try:
        return load_config(args.config, overrides={"data_dir": args.data})
    except ConfigError as e:
        print(f"judge {command}: {e}", file=sys.stderr)
        return None


def _backup(args: argparse.Namespace) -> int:
    from .backup import BackupError, backup
    config = _load(args, "backup")
    if config is None:
        return 2
    try:
        copied = backup(config.data_dir, Path(args.dir))
    except BackupError as e:
        print(f"judge backup: {e}", file=sys.stderr)
        return 1
    total = sum(c.size for c in copied)
    print(f"judge backup: {len(copied)} file(s), {total} bytes, from {config.data_dir} into {args.dir}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from .backup import BackupError, restore
    config = _load(args, "restore")
    if config is None:
        return 2
    try:
        restored = restore(Path(args.dir), config.data_dir)
    except BackupError as e:
        print(f"judge restore: {e}", file=sys.stderr)
        return 1
    print(f"judge restore: {len(restored)} file(s) from {args.dir} into {config.data_dir}; "
          "schemas migrated and the games index rebuilt. Start `judge serve` on it.")
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from .doctor import FAIL, Check, report, run_checks
    try:
        config = load_config(args.config, overrides={"data_dir": args.data})
    except ConfigError as e:
        checks = [Check(FAIL, "config", str(e))]
    else:
        where = args.config or "embedded defaults and JUDGE_* variables"
        checks = [Check("ok", "config", f"configuration read from {where}"),
                  *run_checks(config, max_age=args.max_age, network=not args.offline)]
    if args.json:
        print(json.dumps([c.__dict__ for c in checks], indent=2))
    else:
        print(report(checks))
    return 1 if any(c.level == FAIL for c in checks) else 0
