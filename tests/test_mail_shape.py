"""judge/mail/intake/shape_gate.py measures a mail's shape on its raw bytes before any parser: the cases of
tests/data/mail/shapes.json (plain mails take a shortcut that must not miss a multipart or a
message/* part, whatever the letter case), and the bounds that make intake refuse a mail."""
import json
from pathlib import Path

import pytest

from judge.config import LimitsConfig
from judge.mail.intake.shape_gate import Shape, measure, refusal

CASES = json.loads((Path(__file__).parent / "data" / "mail" / "shapes.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_shape_of_each_mail(case):
    raw = "\r\n".join(case["lines"]).encode()
    assert measure(raw) == Shape(**case["shape"])


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_mail_past_a_bound_is_refused_and_one_within_them_is_not(case):
    raw = "\r\n".join(case["lines"]).encode()
    shape = Shape(**case["shape"])
    assert refusal(raw, LimitsConfig()) is None
    assert refusal(raw, LimitsConfig(mail_lines=shape.lines - 1)).startswith(f"the message has {shape.lines} lines")
    if shape.depth:
        assert "nested" in refusal(raw, LimitsConfig(mime_depth=shape.depth - 1))
        assert "MIME parts" in refusal(raw, LimitsConfig(mime_parts=shape.parts - 1))
