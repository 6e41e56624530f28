"""Several addresses for one account (njudge's `I AM ALSO addr`, `SET ADDRESS a,b`): each added only
once a mail from it gives the code the judge mailed there (to it alone), then mail from it is the
account's and the judge writes to it too; a wrong code, or a code from another address, adds nothing."""
from __future__ import annotations

import re

from test_mail_master_power import answer, playing, said, to  # noqa: F401 - the fixture, used by name


def code_in(sent, address: str) -> str:
    mails = [s for s in to(sent, address) if "yours too" in s.subject]
    assert len(mails) == 1, [s.subject for s in sent]
    return re.search(r"SET ADDRESS CONFIRM (\w+)", mails[0].body).group(1)


def test_i_am_also_adds_an_address_once_confirmed_from_it(playing):  # noqa: F811
    sent = playing.send("france@dip.test", "SIGNON Falpha france-pw\nI AM ALSO fr@home.test")
    reply = said(to(sent, "france@dip.test")[0])
    assert "read `I AM ALSO fr@home.test` as `SET ADDRESS ALSO fr@home.test`" in reply
    assert "a code is mailed to fr@home.test" in reply
    code = code_in(sent, "fr@home.test")
    assert code not in reply                                   # the proof goes to the new address alone
    assert "fr@home.test" not in playing.service.accounts.get("france").addresses
    r = answer(playing, "fr@home.test", f"SET ADDRESS CONFIRM {code}")
    assert "fr@home.test is now one of france's addresses" in r
    assert playing.service.accounts.get("france").addresses == ("france@dip.test", "fr@home.test")
    r = answer(playing, "fr@home.test", "SIGNON Falpha france-pw\nA Par - Bur")   # mail from it acts for france
    assert "signed on as France in alpha" in r and "which is not your address" not in r
    sent = playing.send("gm@dip.test", "SIGNON Malpha gm-pw\nPROCESS")
    assert to(sent, "fr@home.test") and to(sent, "france@dip.test")     # the results go to both


def test_a_wrong_code_or_one_from_another_address_adds_nothing(playing):  # noqa: F811
    sent = playing.send("france@dip.test", "SIGNON Falpha france-pw\nI AM ALSO fr@home.test")
    code = code_in(sent, "fr@home.test")
    r = answer(playing, "mallory@evil.test", f"SET ADDRESS CONFIRM {code}")      # the code, but not from there
    assert "no account is waiting for mallory@evil.test" in r
    r = answer(playing, "fr@home.test", "SET ADDRESS CONFIRM 0000000000")
    assert "that is not the code the judge mailed" in r
    r = answer(playing, "fr@home.test", f"SET ADDRESS CONFIRM {code}")            # one wrong try ends the claim
    assert "no account is waiting for fr@home.test" in r
    assert playing.service.accounts.get("france").addresses == ("france@dip.test",)
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nI AM ALSO germany@dip.test")
    assert "the address germany@dip.test already belongs to another account" in r
    r = answer(playing, "france@dip.test", "SIGNON Falpha france-pw\nI AM ALSO judge+x@dip.test")
    assert "judge+x@dip.test is this judge's own address" in r


def test_set_address_with_several_moves_to_the_first_and_claims_the_others(playing):  # noqa: F811
    sent = playing.send("france@dip.test", "SIGNON Falpha france-pw\nSET ADDRESS fr@new.test, fr@home.test")
    reply = said(to(sent, "france@dip.test")[0])
    assert "the judge now writes to fr@new.test" in reply and "a code is mailed to fr@home.test" in reply
    code = code_in(sent, "fr@home.test")
    answer(playing, "fr@home.test", f"SET ADDRESS CONFIRM {code}")
    assert playing.service.accounts.get("france").addresses == ("fr@new.test", "fr@home.test")
