"""An arrived mail is read with judge.mail.intake.reading_policy.READING (header kinds' classes made once,
header values already read answered from a cache) instead of policy.default: the answers must be
policy.default's, on every real client's mail of tests/data/mail/clients/ and the crafted shapes of
tests/data/mail/shapes.json, read twice (the second time from the cache). The archive's raw copy is
scrubbed of passwords the same whether the scrub looks at the dispatcher's parse first or not."""
import json
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.mail.intake.reading_policy import CACHED_UP_TO, READING
from judge.mail.screening.secrets_mask import scrub_raw

DATA = Path(__file__).parent / "data" / "mail"
CLIENTS = [pytest.param(path.read_bytes(), id=path.name) for path in sorted((DATA / "clients").glob("*.eml"))]
SHAPES = [pytest.param("\n".join(case["lines"]).encode("utf-8", "surrogateescape"), id=name)
          for name, case in json.loads((DATA / "shapes.json").read_text(encoding="utf-8"))["cases"].items()]
LONG = "Subject: " + "word " * (CACHED_UP_TO // 4) + "\nFrom: a@b.test\n\nbody\n"   # not kept, still read


def reading(mail):
    """Everything the dispatcher asks of a parsed mail, part by part, as plain values."""
    seen = []
    for part in mail.walk():
        headers = [(name, str(value), type(value).__mro__[1].__name__, tuple(map(str, getattr(value, "defects", ()))))
                   for name, value in part.items()]
        try:
            content = part.get_content() if not part.is_multipart() else None
        except (LookupError, ValueError, AssertionError) as e:
            content = f"raises {type(e).__name__}"
        seen.append((headers, part.get_content_type(), part.get_params(), part.get_filename(),
                     part.get_content_charset(), content))
    return seen


@pytest.mark.parametrize("raw", [*CLIENTS, *SHAPES, pytest.param(LONG.encode(), id="long-header")])
def test_reading_answers_as_policy_default_does(raw):
    expected = reading(message_from_bytes(raw, policy=policy.default))
    assert reading(message_from_bytes(raw, policy=READING)) == expected
    assert reading(message_from_bytes(raw, policy=READING)) == expected     # the second time, from the cache


@pytest.mark.parametrize("secrets", [(), ("hunter2",)])
@pytest.mark.parametrize("raw", CLIENTS[:12] + [pytest.param(
    b"From: p@x.test\nSubject: signon fgame hunter2\n\nSIGNON Fgame hunter2\nA PAR H\n", id="signon")])
def test_the_scrub_is_the_same_with_the_parse_in_hand(raw, secrets):
    assert scrub_raw(raw, secrets, message_from_bytes(raw, policy=READING)) == scrub_raw(raw, secrets)
