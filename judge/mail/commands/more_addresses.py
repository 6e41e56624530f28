"""Several addresses for one account by mail: njudge's `I AM ALSO addr` (here `SET ADDRESS ALSO addr`)
and the others of `SET ADDRESS a,b`. The judge mails a code to the address (to it alone: the code is the
proof that its owner asks), and `SET ADDRESS CONFIRM code` sent from that address adds it
(judge.games.address_claims)."""
from __future__ import annotations

from ...games import address_claims
from ...games.model import GameError
from ...language import commands as c
from ..outbound import outgoing
from ..screening.auth import Refused, authenticate
from ..screening.own_addresses import OwnAddresses
from ..words.refusals import refusal_words
from .command_env import Env

USAGE = "I AM ALSO you@other.example (from your own address, signed on or with your password)"


def add_address(env: Env, cmd: c.AddAddress) -> list[str]:
    account = authenticate(env.service, env.session, None, "SIGNON Fgame password, then " + USAGE)
    return [claim(env, account, cmd.address)]


def claim(env: Env, account: str, address: str) -> str:
    """The code mailed to `address`; what the reply says of it."""
    if env.config is not None and address in OwnAddresses.configured(env.config):
        raise Refused(f"{address} is this judge's own address", USAGE)
    try:
        code = address_claims.claim(env.service.accounts, account, address, env.service.clock())
    except GameError as e:
        raise Refused(refusal_words(e), USAGE) from None
    if env.config is not None:
        rendered = env.reports.render("reply_address_code.j2", account=account, address=address, code=code,
                                      judge=env.config.address, days=address_claims.CLAIM_DAYS)
        outgoing.send(env.service.judge, env.config, rendered, key=f"address-code:{env.source}:{address.lower()}",
                      to=[address])
    return (f"a code is mailed to {address}: answer that mail from {address} as it says, and {address} is one of"
            f" {account}'s addresses too (the judge then writes to each of them)")


def confirm_address(env: Env, cmd: c.ConfirmAddress) -> list[str]:
    sender = env.session.sender
    try:
        account = address_claims.confirm(env.service.accounts, sender, cmd.code, env.service.clock())
    except GameError as e:
        raise Refused(refusal_words(e), "") from None
    env.session.sender_account = account
    return [f"{sender} is now one of {account}'s addresses: mail from it is {account}'s, and the judge writes"
            " to it too"]
