"""The judge's own addresses: mail from them is never answered.

A mail that says it comes from the judge (its envelope sender, From, Sender or Reply-To, or the
address a reply would go to) is either the judge's own mail come back, a loop through a relay or
a forwarding rule, or a forgery. Answering it mails the judge itself, which answers again; so it
is neither read nor answered. Own means the configured `address`, any subaddress of it
(`judge+<game>.<token>@domain`, the secret reply addresses), and the same of each of
`[shard] peers`, the judge's other hosts. Signed mail between hosts is read before this screen
(judge.mail.federation.shards), so it still arrives.
"""
from __future__ import annotations

from dataclasses import dataclass
from email.message import Message

from ...config import Config
from .addresses import addresses_in, header_text, reply_address

_HEADERS = ("From", "Sender", "Reply-To")


def _split(address: str) -> tuple[str, str]:
    """(local part without any +subaddress, domain), case-folded, the domain without a final dot."""
    local, _, domain = address.strip().strip("<>").strip().rpartition("@")
    return local.split("+", 1)[0].strip('"').casefold(), domain.rstrip(".").casefold()


@dataclass(frozen=True)
class OwnAddresses:
    addresses: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, address: str, peers: list[str] | tuple[str, ...] = ()) -> OwnAddresses:
        return cls(frozenset(_split(a) for a in [address, *peers] if "@" in a))

    @classmethod
    def configured(cls, config: Config) -> OwnAddresses:
        return cls.of(config.address, config.shard.peer_addresses)

    def __contains__(self, address: object) -> bool:
        return isinstance(address, str) and "@" in address and _split(address) in self.addresses

    def in_mail(self, mail: Message, mail_from: str | None) -> str | None:
        """The first of the judge's own addresses the mail names as its sender, else None."""
        named = [mail_from or "", reply_address(mail, mail_from)]
        named += [a for _, a in addresses_in(*(header_text(mail.get(h, "")) for h in _HEADERS))]
        return next((a for a in named if a in self), None)
