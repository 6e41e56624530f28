"""Who really sent a mail that a relay handed over: Postfix's XFORWARD, and the peer string intake stores.

Behind the keeper's Postfix every mail comes from the relay's own address (127.0.0.1), so that
address says nothing about who is writing: counting wrong passwords by it would let one guesser
shut every player out (judge.mail.screening.password_guard). Postfix can name the client it took
the mail from with XFORWARD (`smtp_send_xforward_command = yes`, or `lmtp_` for LMTP) before each
MAIL FROM. Anyone who can connect from a relay's address can send XFORWARD, so it is offered and
believed only from the addresses in `[smtp] relays` (by default the loopback ones: a remote
client cannot connect from there, and a local user who can already writes mail as anyone).

What intake stores as a message's peer (`stored_peer`), read back by `client_address`:
  "203.0.113.5:41000"                       a client that connected to the judge itself
  "203.0.113.5:41000 via 127.0.0.1:39822"   a client a trusted relay named with XFORWARD
  "unknown via 127.0.0.1:39822"             a trusted relay that named none
"""
from __future__ import annotations

import ipaddress
from collections.abc import Iterable

# The attributes Postfix may send; only ADDR and PORT are used (NAME, HELO and the rest are the
# client's own words, worth nothing here).
ATTRIBUTES = ("NAME", "ADDR", "PORT", "PROTO", "HELO", "IDENT", "SOURCE")
EHLO_LINE = "250-XFORWARD " + " ".join(ATTRIBUTES)
VIA = " via "

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def relay_networks(text: str) -> tuple[Network, ...]:
    """'127.0.0.1, ::1, 10.0.0.0/24' -> the networks; ValueError names a word that is none."""
    return tuple(ipaddress.ip_network(word.strip(), strict=False) for word in text.split(",") if word.strip())


def is_relay(host: str | None, relays: Iterable[Network]) -> bool:
    ip = _ip(host)
    return ip is not None and any(ip in net for net in relays)


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text:
        return None
    text = text.strip().strip("[]")
    if text[:5].upper() == "IPV6:":       # Postfix writes IPv6 client addresses so
        text = text[5:]
    try:
        ip = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _xtext(value: str) -> str | None:
    """RFC 3461 xtext ("+2B" for "+"), as XFORWARD's values are written; None when malformed."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "+":
            try:
                out.append(chr(int(value[i + 1:i + 3], 16)))
            except ValueError:
                return None
            if len(value[i + 1:i + 3]) != 2:
                return None
            i += 3
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def parse(arg: str) -> dict[str, str] | None:
    """'ADDR=203.0.113.5 PORT=41000 NAME=[UNAVAILABLE]' -> {'ADDR': ..., 'PORT': ...}; None: a syntax error
    (no attribute, an unknown name, a value that is not xtext)."""
    found: dict[str, str] = {}
    for word in arg.split():
        name, eq, value = word.partition("=")
        name = name.upper()
        if not eq or name not in ATTRIBUTES:
            return None
        decoded = _xtext(value)
        if decoded is None:
            return None
        found[name] = decoded
    return found or None


def _hostport(host: str, port: object) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def stored_peer(peer: object, forwarded: dict[str, str], relays: Iterable[Network]) -> str:
    """The peer string to store for a message from the TCP peer `peer` (aiosmtpd's session.peer) that
    sent these XFORWARD attributes (empty when none): see the module's docstring."""
    if not isinstance(peer, tuple) or len(peer) < 2:
        return str(peer)
    seen = _hostport(str(peer[0]), peer[1])
    if not is_relay(str(peer[0]), relays):
        return seen
    client = _ip(forwarded.get("ADDR"))
    if client is None:      # none named, or Postfix's [UNAVAILABLE] / [TEMPUNAVAIL]
        return f"unknown{VIA}{seen}"
    port = forwarded.get("PORT", "")
    return f"{_hostport(str(client), port if port.isdigit() else 0)}{VIA}{seen}"


def client_address(via: str | None, peer: str | None) -> str | None:
    """The IP address of the computer that sent the mail, when known; None when the only address is a
    relay's (LMTP from the keeper's server, a relay that named no client) or there is none (IMAP)."""
    if not peer:
        return None
    named, through, _ = peer.partition(VIA)
    if not through and via != "smtp":
        return None
    host = named.rpartition(":")[0] if named.rpartition(":")[0] else named
    ip = _ip(host)
    return str(ip) if ip is not None else None
