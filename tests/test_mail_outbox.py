"""judge/mail/outbound/outbox.py: idempotent enqueue, at-least-once delivery through a real SMTP sink, backoff,
.eml files."""
from email import message_from_bytes, policy

import pytest

from judge.config import OutboxConfig, RelayConfig
from judge.mail.outbound import outbox
from judge.mail.outbound.compose import build_message
from judge.storage.db import open_db

from servers.sink import Sink, SinkHandler

RETRY = OutboxConfig(first_retry=60, max_retry=600, max_attempts=5)


def report(key="report:g1:S1901M:FRANCE", to=("france@example.org",)):
    msg = build_message(key=key, sender="judge@localhost", to=list(to), subject="Spring 1901 results",
                        body="A PAR - BUR succeeds.\n", domain="localhost")
    return msg["Message-ID"], list(to), bytes(msg)


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def db(tmp_path):
    db = open_db(tmp_path / "judge.sqlite")
    outbox.prepare(db)
    yield db
    db.conn.close()


def sender_for(tmp_path, relay: RelayConfig, clock, config=RETRY):
    return outbox.Sender(tmp_path / "judge.sqlite", relay, config, tmp_path / "outbox", clock=clock)


def test_enqueue_twice_is_a_no_op(db):
    mid, to, raw = report()
    assert outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost") is True
    assert outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost") is False     # after a crash
    assert db.execute("SELECT count(*) FROM outbox").fetchone()[0] == 1


def test_enqueue_joins_the_callers_transaction(db):
    mid, to, raw = report()
    db.conn.execute("BEGIN IMMEDIATE")
    assert outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost")
    db.conn.execute("ROLLBACK")          # the caller's flow failed: its report is not queued either
    assert outbox.status(db, mid) is None


def test_enqueue_requires_the_same_message_id_in_the_message(db):
    mid, to, raw = report()
    with pytest.raises(ValueError, match="Message-ID"):
        outbox.enqueue(db, "<other@localhost>", to, raw, envelope_from="judge@localhost")
    with pytest.raises(ValueError, match="recipient"):
        outbox.enqueue(db, mid, [], raw, envelope_from="judge@localhost")


def test_backoff_doubles_up_to_the_limit():
    assert [outbox.retry_delay(n, RETRY) for n in range(1, 7)] == [60, 120, 240, 480, 600, 600]


def test_a_relay_that_refuses_then_accepts(db, tmp_path):
    clock = Clock()
    with Sink(SinkHandler(refuse_next=2)) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port, timeout=30), clock)
        mid, to, raw = report()
        outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost", now=clock.now)

        assert [a.state for a in sender.deliver_due()] == ["queued"]        # 451 from the relay
        st = outbox.status(db, mid)
        assert st["attempts"] == 1 and st["next_attempt_at"] == clock.now + 60 and "451" in st["last_error"]
        assert sender.deliver_due() == []                                   # not due yet
        clock.now += 60
        assert [a.state for a in sender.deliver_due()] == ["queued"]        # 451 again
        assert outbox.status(db, mid)["next_attempt_at"] == clock.now + 120
        clock.now += 119
        assert sender.deliver_due() == []
        clock.now += 1
        assert [a.state for a in sender.deliver_due()] == ["sent"]
        assert sender.deliver_due() == []
        st = outbox.status(db, mid)
        assert st["state"] == "sent" and st["attempts"] == 3 and st["delivered_via"] == f"relay 127.0.0.1:{sink.port}"
        assert sink.handler.attempts == 3 and len(sink.received) == 1
        got = sink.received[0]
        assert got.mail_from == "judge@localhost" and got.rcpt_tos == to
        parsed = message_from_bytes(got.raw, policy=policy.default)
        assert parsed["Message-ID"] == mid and parsed["Auto-Submitted"] == "auto-generated"
        sender.close()


def test_a_permanent_refusal_fails_at_once(db, tmp_path):
    clock = Clock()
    with Sink(SinkHandler(refuse_next=1, refusal="554 5.7.1 Rejected")) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port), clock)
        mid, to, raw = report()
        outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost", now=clock.now)
        assert [a.state for a in sender.deliver_due()] == ["failed"]
        assert "554" in outbox.status(db, mid)["last_error"]
        sender.close()


def test_deferred_recipients_are_retried_alone(db, tmp_path):
    clock = Clock()
    handler = SinkHandler(refuse_rcpt={"busy@example.org": "452 4.2.2 Mailbox full"})
    with Sink(handler) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port), clock)
        mid, to, raw = report(to=("ok@example.org", "busy@example.org"))
        outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost", now=clock.now)
        assert [a.state for a in sender.deliver_due()] == ["queued"]
        assert [r.rcpt_tos for r in sink.received] == [["ok@example.org"]]
        handler.refuse_rcpt.clear()
        clock.now += 60
        assert [a.state for a in sender.deliver_due()] == ["sent"]
        assert [r.rcpt_tos for r in sink.received] == [["ok@example.org"], ["busy@example.org"]]
        sender.close()


def test_no_relay_listening_is_retried_then_given_up(db, tmp_path):
    from servers.net import free_port
    clock = Clock()
    sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=free_port(), timeout=5), clock,
                        OutboxConfig(first_retry=1, max_retry=1, max_attempts=2))
    mid, to, raw = report()
    outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost", now=clock.now)
    assert [a.state for a in sender.deliver_due()] == ["queued"]
    clock.now += 1
    assert [a.state for a in sender.deliver_due()] == ["failed"]
    assert "gave up after 2 attempts" in outbox.status(db, mid)["last_error"]
    sender.close()


def test_without_a_relay_each_message_becomes_an_eml_file(db, tmp_path):
    clock = Clock()
    sender = sender_for(tmp_path, RelayConfig(), clock)
    assert "no relay" in sender.destination
    ids = []
    for n in range(3):
        mid, to, raw = report(key=f"report:{n}")
        outbox.enqueue(db, mid, to, raw, envelope_from="judge@localhost", now=clock.now)
        ids.append((mid, raw))
    assert [a.state for a in sender.deliver_due()] == ["sent"] * 3
    files = sorted((tmp_path / "outbox").iterdir())
    assert len(files) == 3 and all(f.suffix == ".eml" and not f.name.startswith(".") for f in files)
    for mid, raw in ids:
        path = tmp_path / "outbox" / outbox.eml_name(mid)
        assert path.read_bytes() == raw
        assert outbox.status(db, mid)["delivered_via"] == str(path)
    assert sender.deliver_due() == []          # sent once
    sender.close()


def test_eml_names_are_safe():
    assert outbox.eml_name("<judge.abc@localhost>") == "judge.abc@localhost.eml"
    assert outbox.eml_name("../../etc/passwd@x") == "_.._etc_passwd@x.eml"
    assert "/" not in outbox.eml_name("a/b@c")


def picture_mail(key: str, to: str):
    return build_message(key=key, sender="judge@localhost", to=[to], subject="alpha: Spring 1901 results",
                         body=f"Results for {to}.\n", domain="localhost")


def test_a_shared_picture_is_stored_once_sent_whole_and_dropped_after_the_retention(db, tmp_path):
    from judge.mail.outbound.shared_part import SharedPart
    clock = Clock()
    picture = SharedPart("alpha-S1901M.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 300)
    keep = OutboxConfig(first_retry=60, max_retry=600, max_attempts=5, keep_sent_days=2)
    with Sink(SinkHandler()) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port, timeout=30), clock, keep)
        for who in ("france", "england"):
            assert outbox.queue(db, picture_mail(f"n:{who}", f"{who}@example.org"), [f"{who}@example.org"],
                                envelope_from="judge@localhost", shared=picture, now=clock.now)
        assert not outbox.queue(db, picture_mail("n:france", "france@example.org"), ["france@example.org"],
                                envelope_from="judge@localhost", shared=picture, now=clock.now)   # after a crash
        parts, texts = db.execute("SELECT (SELECT count(*) FROM outbox_parts),"
                                  " (SELECT max(length(raw)) FROM outbox)").fetchone()
        assert parts == 1 and texts < len(picture.data)          # the picture once, not in each mail
        assert [a.state for a in sender.deliver_due()] == ["sent", "sent"]
        for got in sink.received:
            parsed = message_from_bytes(got.raw, policy=policy.default)
            text, png = parsed.iter_parts()
            assert text.get_content().replace("\r\n", "\n") == f"Results for {got.rcpt_tos[0]}.\n"
            assert png.get_content() == picture.data and png.get_filename() == "alpha-S1901M.png"
            assert got.raw.count(b"\n") == got.raw.count(b"\r\n")
        whole = db.execute("SELECT raw FROM outbox_mail WHERE message_id = ?",
                           [sink.received[0].raw.split(b"Message-ID: <")[1].split(b">")[0].decode()]).fetchone()[0]
        assert whole.replace(b"\r\n", b"\n") == sink.received[0].raw.replace(b"\r\n", b"\n")
        # a third mail with the same picture is still queued when the first two pass the retention
        outbox.queue(db, picture_mail("n:italy", "italy@example.org"), ["italy@example.org"],
                     envelope_from="judge@localhost", shared=picture, now=clock.now + 10**6)
        clock.now += 2 * 86400 + 1
        sender.deliver_due()
        assert db.execute("SELECT count(*) FROM outbox WHERE length(raw) = 0").fetchone()[0] == 2
        assert db.execute("SELECT count(*) FROM outbox_parts").fetchone()[0] == 1     # italy's still needs it
        assert db.execute("SELECT count(*), min(state) FROM outbox").fetchone() == (3, "queued")
        clock.now += 10**6
        assert [a.state for a in sender.deliver_due()] == ["sent"]
        assert sink.received[-1].rcpt_tos == ["italy@example.org"] and b"image/png" in sink.received[-1].raw
        assert outbox.forget_sent(db, clock.now + 1) == 1
        assert db.execute("SELECT count(*) FROM outbox_parts").fetchone()[0] == 0
        assert outbox.stored_bytes(db) == 0
        sender.close()


def test_a_mail_queued_to_be_forgotten_loses_its_body_once_delivered_and_the_others_keep_theirs(db, tmp_path):
    # a player's mail forwarded to another host may hold a password: it does not outlive its delivery
    clock = Clock()
    secret = build_message(key="forward:1", sender="judge@localhost", to=["judge+beta@localhost"],
                           subject="forwarded", body="SIGNON Fbeta my-password\n", domain="localhost")
    kept_id, to, raw = report()
    with Sink(SinkHandler()) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port, timeout=30), clock)
        assert outbox.queue(db, secret, ["judge+beta@localhost"], envelope_from="p@example.org",
                            forget_when_sent=True, now=clock.now)
        outbox.enqueue(db, kept_id, to, raw, envelope_from="judge@localhost", now=clock.now)
        assert sorted(a.state for a in sender.deliver_due()) == ["sent", "sent"]
        assert any(b"my-password" in r.raw for r in sink.handler.received)
    bodies = dict(db.execute("SELECT message_id, raw FROM outbox").fetchall())
    assert bodies[str(secret["Message-ID"]).strip("<>")] == b""
    assert bodies[kept_id.strip("<>")] == raw


def test_a_mail_queued_to_be_forgotten_loses_its_body_when_it_fails_for_good(db, tmp_path):
    clock = Clock()
    secret = build_message(key="forward:2", sender="judge@localhost", to=["judge+beta@localhost"],
                           subject="forwarded", body="SIGNON Fbeta my-password\n", domain="localhost")
    with Sink(SinkHandler(refuse_next=10, refusal="554 5.7.1 Rejected")) as sink:
        sender = sender_for(tmp_path, RelayConfig(host="127.0.0.1", port=sink.port, timeout=30), clock)
        outbox.queue(db, secret, ["judge+beta@localhost"], envelope_from="p@example.org", forget_when_sent=True,
                     now=clock.now)
        assert [a.state for a in sender.deliver_due()] == ["failed"]
    assert db.execute("SELECT raw FROM outbox").fetchone()[0] == b""


@pytest.mark.parametrize("size", [0, 1, 56, 57, 58, 114, 70_001])
@pytest.mark.parametrize("name", ["alpha-S1901M.png", "Ünïcode game-S1901M.png", "g" * 90 + ".png", 'q"uote.png'])
def test_a_shared_part_is_the_email_packages_own_encoding(size, name):
    """The part is spliced from its header lines and base64's lines: byte for byte what the email
    package writes for the attachment (CRLF), at every length a last line can have."""
    from email.message import MIMEPart

    from judge.mail.outbound.shared_part import SharedPart
    data = bytes((i * 7919) % 256 for i in range(size))
    shared = SharedPart(name, data)
    made = MIMEPart()
    made.set_content(data, maintype="image", subtype="png", disposition="attachment", filename=name)
    crlf = bytes(made).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert shared.part == b"--" + shared.boundary.encode() + b"\r\n" + crlf + b"\r\n" + shared._closing
