"""XFORWARD's attributes and the peer string intake stores, read back as the computer the password guard
counts (judge.mail.intake.xforward): cases in tests/data/mail/xforward_peers.json. The SMTP dialogue
itself is tested on a real `judge serve` (tests/test_security.py) and behind Postfix
(tests/test_deploy_postfix_guard.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.mail.intake import xforward

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "xforward_peers.json").read_text())
RELAYS = xforward.relay_networks(DATA["relays"])


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["why"] for c in DATA["cases"]])
def test_the_stored_peer_and_the_client_counted(case):
    forwarded = xforward.parse(case["xforward"]) if case["xforward"] else {}
    assert forwarded is not None
    stored = xforward.stored_peer(tuple(case["peer"]), forwarded, RELAYS)
    assert stored == case["stored"]
    assert xforward.client_address(case["via"], stored) == case["client"]


@pytest.mark.parametrize("line", DATA["syntax_errors"])
def test_a_malformed_xforward_is_a_syntax_error(line):
    assert xforward.parse(line) is None
