"""The judge's configuration: embedded defaults, then one TOML file, then JUDGE_* variables, then flags.

Every setting has a default, so `judge serve` runs with no configuration at all. The TOML file
has top-level keys and the sections [smtp], [imap], [relay], [outbox], [limits] and [shard]; an environment variable
is named after its place, e.g. JUDGE_SMTP_PORT or JUDGE_DATA_DIR. Unknown keys are errors: a
misspelt setting must not be silently ignored.
"""
from __future__ import annotations

import dataclasses
import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class SmtpConfig:
    host: str = "127.0.0.1"
    port: int = 2525
    lmtp: bool = False               # speak LMTP, as Postfix's lmtp(8) backend
    size_limit: int = 1_048_576      # bytes; advertised with SIZE and enforced during DATA
    rate_limit: int = 30             # messages accepted per sender ...
    rate_window: float = 600.0       # ... in this many seconds; more are answered 450
    # The mail servers in front of the judge (addresses or networks, comma-separated): their own address
    # is nobody's, and their XFORWARD naming the client is believed (judge.mail.intake.xforward).
    relays: str = "127.0.0.1, ::1"


@dataclass(frozen=True)
class ImapConfig:
    host: str = ""                   # empty: no IMAP intake
    port: int = 143
    user: str = ""
    password: str = ""
    folder: str = "INBOX"
    ssl: bool = False
    use_idle: bool = True            # IDLE when the server offers it; polling otherwise
    poll_seconds: float = 30.0
    idle_seconds: float = 600.0      # renew IDLE well inside the 29 minutes of RFC 2177

    @property
    def enabled(self) -> bool:
        return bool(self.host)


@dataclass(frozen=True)
class RelayConfig:
    host: str = ""                   # empty: outbound mail becomes .eml files under <data>/outbox/
    port: int = 25
    user: str = ""
    password: str = ""
    starttls: bool = False
    timeout: float = 30.0

    @property
    def enabled(self) -> bool:
        return bool(self.host)


@dataclass(frozen=True)
class OutboxConfig:
    first_retry: float = 60.0        # seconds before the second attempt; doubles each time
    max_retry: float = 3600.0        # the longest wait between attempts
    max_attempts: int = 20           # after this many temporary failures the message is failed
    poll_seconds: float = 1.0
    keep_sent_days: float = 30.0     # sent mail's bodies and pictures are dropped after this (0: kept)
    warn_mib: float = 500.0          # `judge doctor` warns when the outbox holds more than this


@dataclass(frozen=True)
class LimitsConfig:
    """How much one mail may ask of the judge. Beyond the intake limits a mail is refused for good
    (5xx, or flagged in IMAP); beyond the reading limits the rest of it is not read, and the reply
    says so; replies beyond their budgets are cut short or, to a stranger, not sent."""
    mime_depth: int = 30             # multiparts inside multiparts (a real mail has 3 or 4)
    mime_parts: int = 500            # body parts in all, and message/* parts at most mime_depth
    mail_lines: int = 100_000        # lines in the whole mail
    lines_read: int = 1_000          # lines of the cleaned body read as commands and orders
    commands_run: int = 100          # commands run from one mail; orders are bounded by lines_read
    reply_bytes: int = 200_000       # one reply's text; a longer one is cut with a note
    stranger_bytes: int = 1_000_000  # replies per hour to an address no account has
    process_attempts: int = 4        # a mail whose processing fails this often is set aside
    process_retry: float = 10.0      # seconds before its second try; doubles each time


@dataclass(frozen=True)
class ShardConfig:
    """Several judges behind one mail server, each owning some games (judge.mail.federation.shards,
    deploy/README.md "Past one machine"). With no secret the judge is alone: it forwards nothing,
    sends no account changes, and trusts no mail that says it was forwarded."""
    secret: str = ""                 # shared by all the hosts: signs forwarded mail and account changes
    name: str = ""                   # this host's name, unique among them (orders account changes made at once)
    peers: str = ""                  # the other hosts' addresses, comma-separated: account changes go there

    @property
    def enabled(self) -> bool:
        return bool(self.secret)

    @property
    def peer_addresses(self) -> list[str]:
        return [p.strip() for p in self.peers.split(",") if p.strip()]


@dataclass(frozen=True)
class Config:
    data_dir: Path = Path("var")
    address: str = "judge@localhost"          # the judge's own address: From of its mail
    master_address: str = ""                  # the judge's keeper: told about bounces
    tick_seconds: float = 30.0
    smtp: SmtpConfig = field(default_factory=SmtpConfig)
    imap: ImapConfig = field(default_factory=ImapConfig)
    relay: RelayConfig = field(default_factory=RelayConfig)
    outbox: OutboxConfig = field(default_factory=OutboxConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    shard: ShardConfig = field(default_factory=ShardConfig)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "judge.sqlite"

    @property
    def outbox_dir(self) -> Path:
        return self.data_dir / "outbox"

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


SECTIONS = {"smtp": SmtpConfig, "imap": ImapConfig, "relay": RelayConfig, "outbox": OutboxConfig,
            "limits": LimitsConfig, "shard": ShardConfig}


def load_config(path: str | Path | None = None, *, env: Mapping[str, str] | None = None,
                overrides: Mapping[str, Any] | None = None) -> Config:
    """Defaults < TOML file (path, or $JUDGE_CONFIG) < JUDGE_* environment < overrides.

    `overrides` uses dotted keys for sections: {"smtp.port": 2600, "data_dir": "/srv/judge"}.
    """
    env = os.environ if env is None else env
    path = path or env.get("JUDGE_CONFIG") or None
    values: dict[str, Any] = {}
    if path:
        try:
            with open(path, "rb") as f:
                values = _flatten(tomllib.load(f), source=str(path))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ConfigError(f"cannot read configuration {path}: {e}") from e
    values.update(_from_env(env))
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    return _build(values)


def _fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _flatten(doc: Mapping[str, Any], source: str) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    top = {n for n in _fields(Config) if n not in SECTIONS}
    for key, value in doc.items():
        if key in SECTIONS:
            if not isinstance(value, Mapping):
                raise ConfigError(f"{source}: [{key}] must be a table")
            for sub, subvalue in value.items():
                if sub not in _fields(SECTIONS[key]):
                    raise ConfigError(f"{source}: unknown setting {key}.{sub}")
                flat[f"{key}.{sub}"] = subvalue
        elif key in top:
            flat[key] = value
        else:
            raise ConfigError(f"{source}: unknown setting {key}")
    return flat


def _env_names() -> dict[str, str]:
    """JUDGE_<SECTION>_<KEY> or JUDGE_<KEY> -> dotted key."""
    names = {f"JUDGE_{n.upper()}": n for n in _fields(Config) if n not in SECTIONS}
    for section, cls in SECTIONS.items():
        for n in _fields(cls):
            names[f"JUDGE_{section.upper()}_{n.upper()}"] = f"{section}.{n}"
    return names


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    names = _env_names()
    return {names[k]: v for k, v in env.items() if k in names}


def _convert(key: str, kind: Any, value: Any) -> Any:
    kind = {"int": int, "float": float, "bool": bool, "str": str, "Path": Path}.get(kind, kind)
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(f"not a yes/no value: {value!r}")
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(f"not a whole number: {value!r}")
        return kind(value)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"setting {key}: {e}") from e


def _build(values: Mapping[str, Any]) -> Config:
    sections: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    top: dict[str, Any] = {}
    for key, value in values.items():
        section, _, name = key.rpartition(".")
        if section:
            if section not in SECTIONS or name not in _fields(SECTIONS[section]):
                raise ConfigError(f"unknown setting {key}")
            sections[section][name] = _convert(key, _fields(SECTIONS[section])[name].type, value)
        else:
            if name not in _fields(Config) or name in SECTIONS:
                raise ConfigError(f"unknown setting {key}")
            top[name] = _convert(key, _fields(Config)[name].type, value)
    config = Config(**top, **{name: SECTIONS[name](**kw) for name, kw in sections.items()})
    _check(config)
    return config


def _check(config: Config) -> None:
    if "@" not in config.address:
        raise ConfigError(f"address must be an e-mail address, not {config.address!r}")
    for name, port in (("smtp.port", config.smtp.port), ("imap.port", config.imap.port),
                       ("relay.port", config.relay.port)):
        if not 0 <= port <= 65535:
            raise ConfigError(f"{name} must be a port number, not {port}")
    if config.smtp.size_limit <= 0 or config.smtp.rate_limit <= 0 or config.smtp.rate_window <= 0:
        raise ConfigError("smtp.size_limit, smtp.rate_limit and smtp.rate_window must be positive")
    try:
        [ipaddress.ip_network(w.strip(), strict=False) for w in config.smtp.relays.split(",") if w.strip()]
    except ValueError as e:
        raise ConfigError(f"smtp.relays: {e}") from None
    if config.outbox.first_retry <= 0 or config.outbox.max_retry < config.outbox.first_retry:
        raise ConfigError("outbox.first_retry must be positive and at most outbox.max_retry")
    if config.outbox.max_attempts < 1:
        raise ConfigError("outbox.max_attempts must be at least 1")
    if config.outbox.keep_sent_days < 0 or config.outbox.warn_mib <= 0:
        raise ConfigError("outbox.keep_sent_days must be 0 (keep) or more, outbox.warn_mib positive")
    bad = [f"limits.{f.name}" for f in dataclasses.fields(LimitsConfig) if getattr(config.limits, f.name) <= 0]
    if bad:
        raise ConfigError(f"{', '.join(bad)} must be positive")
    shard = config.shard
    if shard.enabled and (len(shard.secret) < 16 or not shard.name):
        raise ConfigError("shard.secret must be at least 16 characters, and shard.name set with it")
    if shard.peers and not shard.enabled:
        raise ConfigError("shard.peers needs shard.secret: account changes are sent signed")


def parse_host_port(text: str, default_port: int) -> tuple[str, int]:
    """'mail.example.org:587', 'mail.example.org', '[::1]:25' -> (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if not host:
        raise ConfigError(f"no host in {text!r}")
    try:
        return host, int(port) if port else default_port
    except ValueError as e:
        raise ConfigError(f"bad port in {text!r}") from e
