"""Issue 23, item 8: the judge never answers mail from its own addresses (its address, any
judge+...@ of its domain, its [shard] peers), whichever of the envelope sender, From, Sender or
Reply-To names them: such mail is its own come back, a loop, or a forgery. The cases are
tests/data/mail/own_addresses.json, each sent through the real dispatcher."""
import json
from email.utils import getaddresses, parseaddr
from pathlib import Path

import pytest

from judge.mail.screening.addresses import CACHED_UP_TO, addresses_in, parsed_address
from judge.mail.screening.own_addresses import OwnAddresses

from mailjudge import MailJudge, mail

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "own_addresses.json").read_text(encoding="utf-8"))
MAILS, PEERS = DATA["mails"], DATA["peers"]


@pytest.mark.parametrize("case", MAILS.values(), ids=MAILS.keys())
def test_mail_naming_the_judges_own_address_is_never_answered(tmp_path, case):
    j = MailJudge(tmp_path)
    headers = dict(case["headers"])
    frm = headers.pop("From")
    raw = mail(frm, "REGISTER someone pw1\nHELP", headers=headers)
    stored = j.processor.archive.store(raw, mail_from=case["mail_from"], rcpt_tos=["judge@dip.test"], via="smtp")
    j.processor.process_next()
    state, outcome = j.processor.archive.state_of(stored.id)
    assert state == "processed"
    if case["answered"]:
        assert outcome.startswith("answered ") and len(j.outbox()) == 1
    else:
        assert outcome.startswith("not read and not answered: from the judge's own address"), outcome
        assert j.outbox() == []
        with pytest.raises(KeyError):
            j.service.accounts.get("someone")                     # not read either


@pytest.mark.parametrize("address", PEERS["own"])
def test_the_judges_and_its_peers_addresses_are_its_own(address):
    assert address in OwnAddresses.of(PEERS["address"], PEERS["peers"])


@pytest.mark.parametrize("address", PEERS["not own"])
def test_other_addresses_are_not(address):
    assert address not in OwnAddresses.of(PEERS["address"], PEERS["peers"])


@pytest.mark.parametrize("case", MAILS.values(), ids=MAILS.keys())
def test_a_senders_address_read_again_is_read_as_email_reads_it(case):
    """Screening reads a sender's From from a bounded cache (a player's comes in every mail): each
    time the same answers as email.utils gives, for these headers and for one too long to keep."""
    values = [*case["headers"].values(), case["mail_from"] or "", "a" * CACHED_UP_TO + " <x@dip.test>"]
    for _ in range(2):
        assert [parsed_address(v) for v in values] == [parseaddr(v) for v in values]
        assert addresses_in(*values) == getaddresses(values) and addresses_in(*values[:-1]) == getaddresses(values[:-1])
