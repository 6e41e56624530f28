"""judge/mail/outbound/outgoing.py's send_copies: one text's copies queued in one statement, each the
bytes building that copy on its own gives (the cases: tests/data/outgoing_copies.json)."""
import json
import random
import re
from email.contentmanager import _encode_text  # the email package's own choice and encoding
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from judge.config import Config
from judge.mail.outbound import outbox, outgoing
from judge.mail.outbound.compose import stable_message_id
from judge.mail.outbound.plain_headers import SMTP
from judge.mail.outbound.shared_part import SharedPicture
from judge.mail.words.reports import Rendered
from judge.storage.db import open_db, transaction

CASES = json.loads((Path(__file__).parent / "data" / "outgoing_copies.json").read_text())
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8       # (not a picture: bytes to carry)
ICS = outgoing.Attachment("alpha.ics", "text", "calendar", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")


def _boundless(raw: bytes) -> bytes:
    """The mail with the generator's random multipart boundary named alike (a calendar file's mail)."""
    return re.sub(rb"={15}\d+==", b"=BOUNDARY=", raw)


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_each_copy_is_the_mail_built_for_it_alone(tmp_path, case):
    config = Config(data_dir=tmp_path, address="judge@dip.test")
    db = open_db(config.db_path)
    outbox.prepare(db)
    rendered = Rendered(case["subject"], case["body"])
    shared = SharedPicture("alpha-S1901M.png", PNG) if case.get("picture") else None
    files = [ICS] if case.get("file") else []
    copies = [outgoing.Copy(key, tuple(to), reply_to) for key, to, reply_to in case["copies"]]
    random.seed(1)
    if case.get("raises"):       # a value that would break the header lines is refused, not spliced in
        with pytest.raises(ValueError), transaction(db):
            outgoing.send_copies(db, config, rendered, copies, shared=shared, files=files)
        assert db.conn.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0
        return
    with transaction(db):
        queued = outgoing.send_copies(db, config, rendered, copies, shared=shared, files=files)
    stored = {row[0]: (json.loads(row[1]), bytes(row[2])) for row in db.conn.execute(
        "SELECT message_id, recipients, raw FROM outbox_mail")}
    assert queued == len(stored) == len(copies)
    date = parsedate_to_datetime(re.search(rb"\r\nDate: ([^\r]+)\r\n", next(iter(stored.values()))[1])[1].decode())
    for copy in copies:
        mail = outgoing.message(config, rendered, key=copy.key, to=copy.to, reply_to=copy.reply_to, files=files,
                                date=date.timestamp())
        message_id, raw, part = outbox.stored(mail, shared)
        whole = raw + (part.part if part else b"")
        recipients, queued_raw = stored[message_id]
        assert recipients == list(copy.to)
        assert (_boundless(queued_raw) if files else queued_raw) == (_boundless(whole) if files else whole)
    # the copies made from the first one's bytes (the rest built whole: a header not plain on one line)
    first = next(c for c in copies if stored_id(config, c) in stored)
    made = [outgoing._spliced(config, (first, stored[stored_id(config, first)][1]), c) for c in copies[1:]]
    assert sum(m is not None for m in made) == case["spliced"]
    with transaction(db):       # the same keys again: nothing new
        assert outgoing.send_copies(db, config, rendered, copies, shared=shared, files=files) == 0


def stored_id(config: Config, copy: outgoing.Copy) -> str:
    return stable_message_id(copy.key, config.domain)


NOTICES = json.loads((Path(__file__).parent / "data" / "outgoing_notices.json").read_text())


@pytest.mark.parametrize("case", NOTICES, ids=[c["case"] for c in NOTICES])
def test_a_games_notices_made_from_one_anothers_bytes_are_the_mails_built_alone(tmp_path, case):
    """The courier's notices of one game, each its reader's own text: a notice's mail made from another's
    bytes (outgoing.Models) is byte for byte the mail built for it alone, and only where that is sure."""
    config = Config(data_dir=tmp_path, address="judge@dip.test")
    db = open_db(config.db_path)
    outbox.prepare(db)
    shared = SharedPicture("alpha-S1901M.png", PNG) if case["picture"] else None
    made = _queue_game(config, db, case, shared, outgoing.Models())
    assert sum(made) == case["rewritten"]


def _queue_game(config: Config, db, case: dict, shared: SharedPicture | None, models: outgoing.Models,
                game: str = "") -> list[bool]:
    """A case's notices queued as one game's, each copy checked against the mail built for it alone;
    whether each notice's first copy was made from the game's own model (`Models.like`)."""
    made = []
    with transaction(db):
        for notice in case["notices"]:
            body = notice["body"].replace("BOUNDARY", shared.boundary if shared else "")
            rendered = Rendered(notice["subject"], body)
            copies = [outgoing.Copy(key + game, tuple(to), reply_to) for key, to, reply_to in notice["copies"]]
            model = models.like(shared)
            made.append(model is not None and outgoing._rewritten(config, model, copies[0], rendered) is not None)
            assert outgoing.send_copies(db, config, rendered, copies, shared=shared, models=models) == len(copies)
            for copy in copies:
                mail = outgoing.message(config, rendered, key=copy.key, to=copy.to, reply_to=copy.reply_to,
                                        date=models.date)
                message_id, raw, part = outbox.stored(mail, shared)
                queued = db.conn.execute("SELECT raw FROM outbox_mail WHERE message_id = ?", [message_id]).fetchone()
                # (a picture attached into the mail has the generator's random boundary)
                assert _boundless(bytes(queued[0])) == _boundless(raw + (part.part if part else b""))
    return made


@pytest.mark.parametrize("case", [c for c in NOTICES if c["picture"]], ids=lambda c: c["case"])
def test_the_next_games_mails_made_from_the_last_games_are_the_mails_built_alone(tmp_path, case):
    """The courier's games one after another, each with its own picture and Date: the next game's
    first mail with a picture is made from the last game's bytes (its boundary and Date put in),
    byte for byte the mail built for it alone."""
    config = Config(data_dir=tmp_path, address="judge@dip.test")
    db = open_db(config.db_path)
    outbox.prepare(db)
    last = outgoing.LastPictured()     # the courier's: one for all its runs
    first = outgoing.Models(date=1_780_000_000.25, last=last)
    _queue_game(config, db, case, SharedPicture("alpha-S1901M.png", PNG), first)
    shared = SharedPicture("beta-F1901M.png", PNG[::-1])
    later = outgoing.Models(date=first.date + 86_400 * 40 + 3_601, last=last)      # (another day, month and hour)
    made_before = first.like(SharedPicture("alpha-S1901M.png", PNG)) is not None
    assert later.like(shared) is None and (later.like(shared, from_last=True) is not None) >= made_before
    _queue_game(config, db, case, shared, later, game=":beta")
    if made_before:      # made from the last game's, the same as those its own would have been made from
        assert later.like(shared).raw.count(shared.boundary.encode()) == 2


BODIES = json.loads((Path(__file__).parent / "data" / "written_bodies.json").read_text())


@pytest.mark.parametrize("case", BODIES, ids=[c["case"] for c in BODIES])
def test_a_text_is_written_as_the_email_package_writes_it(case):
    """outgoing._written_body (quoted-printable a line at a time, each line once) gives the email
    package's own choice of encoding and bytes, as the generator writes them out (CRLF lines)."""
    cte, payload = _encode_text(case["text"], "utf-8", None, SMTP)
    expected = None if cte == "8bit" else (cte, re.sub(r"\r\n|\r|\n", "\r\n", payload).encode("ascii"))
    assert outgoing._written_body(case["text"]) == expected
    assert outgoing._written_body(case["text"]) == expected      # (the lines encoded before, again)
