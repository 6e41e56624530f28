"""The reply numbers an HTML-only mail's lines as its writer typed them, through the real
dispatcher: the cases of tests/data/mail/html_lines.json (the blocks mail clients write)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parent / "data" / "mail" / "html_lines.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_an_html_mails_lines_are_numbered_as_typed(playing, case):
    body = playing.reply_to("france@dip.test", case["html"], html=True).body
    assert [line for line in body.splitlines() if re.match(r"ERROR on line \d+: ", line)] == case["errors"], body
