"""Issue 23, item 8: the judge never answers mail from its own addresses (its address, any
judge+...@ of its domain, its [shard] peers), whichever of the envelope sender, From, Sender or
Reply-To names them: such mail is its own come back, a loop, or a forgery. The cases are
tests/data/mail/own_addresses.json, each sent through the real dispatcher."""
import json
from pathlib import Path

import pytest

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
