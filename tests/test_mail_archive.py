"""judge/mail/intake/archive.py: commit first, claim in order, a redelivery recorded but never processed twice."""
import sqlite3

import pytest

from judge.mail.intake.archive import Archive, Arrival
from judge.mail.intake.message_keys import content_hash, message_id_of

MESSAGE = (b"Received: from a.example by b.example; Mon, 1 Jan 2029 10:00:00 +0000\r\n"
           b"From: France <france@example.org>\r\nTo: judge@localhost\r\nSubject: orders\r\n"
           b"Message-ID: <orders-1@example.org>\r\n\r\nA Par-Bur\r\nF Bre-Mao\r\n")


def relayed_again(raw: bytes) -> bytes:
    """The same message as a second relay delivers it: one more trace header in front."""
    return b"Received: from c.example by b.example; Mon, 1 Jan 2029 10:05:00 +0000\r\n" + raw


def test_store_commits_before_returning(tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    stored = archive.store(MESSAGE, mail_from="france@example.org", rcpt_tos=["judge@localhost"], via="smtp",
                           peer="127.0.0.1:1")
    # Another connection (another process, after a crash) sees the row: it is committed.
    other = sqlite3.connect(tmp_path / "judge.sqlite")
    raw, state, mid = other.execute("SELECT raw, state, message_id FROM inbound WHERE id = ?", [stored.id]).fetchone()
    assert raw == MESSAGE and state == "new" and mid == "orders-1@example.org"
    assert stored.message_id == "orders-1@example.org" and not stored.is_duplicate


def test_claim_process_in_order_and_redelivery_is_not_processed_again(tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    first = archive.store(MESSAGE, mail_from="france@example.org", rcpt_tos=["judge@localhost"], via="smtp")
    again = archive.store(relayed_again(MESSAGE), mail_from="france@example.org", rcpt_tos=["judge@localhost"],
                          via="imap")
    assert again.duplicate_of == first.id
    assert archive.state_of(again.id)[0] == "duplicate"

    other = MESSAGE.replace(b"A Par-Bur", b"A Par-Pic")      # same Message-ID, different content
    changed = archive.store(other, mail_from="france@example.org", rcpt_tos=["judge@localhost"], via="smtp")
    assert not changed.is_duplicate

    claimed = archive.claim_next()
    assert claimed.id == first.id and claimed.raw == MESSAGE
    archive.mark_processed(claimed.id, "orders stored")
    assert archive.claim_next().id == changed.id
    archive.mark_processed(changed.id, "orders stored")
    assert archive.claim_next() is None
    # A redelivery after processing is recorded too, and still not handed out.
    late = archive.store(relayed_again(MESSAGE), mail_from="france@example.org", rcpt_tos=["x"], via="smtp")
    assert late.duplicate_of == first.id and archive.claim_next() is None
    assert archive.counts() == {"processed": 2, "duplicate": 2}


def test_a_claim_left_by_a_crash_is_processed_after_restart(tmp_path):
    path = tmp_path / "judge.sqlite"
    archive = Archive(path)
    stored = archive.store(MESSAGE, mail_from="f@example.org", rcpt_tos=["judge@localhost"], via="smtp")
    assert archive.claim_next().id == stored.id
    archive.close()                                  # stopped before marking it processed

    restarted = Archive(path)
    assert restarted.claim_next() is None            # still claimed by the old run
    assert restarted.release_claims() == 1
    assert restarted.claim_next().id == stored.id
    restarted.mark_processed(stored.id, "done")
    with pytest.raises(RuntimeError):
        restarted.mark_processed(stored.id, "done twice")


def test_message_without_message_id_dedups_by_content(tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    raw = b"From: a@example.org\r\nSubject: hi\r\nDate: Mon, 1 Jan 2029 10:00:00 +0000\r\n\r\nbody\r\n"
    a = archive.store(raw, mail_from="a@example.org", rcpt_tos=["j"], via="smtp")
    b = archive.store(relayed_again(raw), mail_from="a@example.org", rcpt_tos=["j"], via="smtp")
    assert a.message_id is None and b.duplicate_of == a.id


def test_one_commit_of_several_messages_finds_the_redeliveries_in_it_and_before_it(tmp_path):
    """Intake's group commit stores a batch at once: each message's id in order, and a redelivery known
    whether its first copy came in an earlier commit or earlier in the same one."""
    archive = Archive(tmp_path / "judge.sqlite")
    earlier = archive.store(MESSAGE, mail_from="france@example.org", rcpt_tos=["judge@localhost"], via="smtp")
    second, third = (MESSAGE.replace(b"orders-1@", f"orders-{n}@".encode()) for n in (2, 3))

    def arrivals(*raws):
        return [Arrival(raw, "france@example.org", ("judge@localhost",), "smtp", "127.0.0.1:1") for raw in raws]

    apart = archive.store_many(arrivals(second, relayed_again(MESSAGE), third))     # no two alike
    assert [s.id for s in apart] == [earlier.id + 1, earlier.id + 2, earlier.id + 3]
    assert [s.duplicate_of for s in apart] == [None, earlier.id, None]
    fourth = MESSAGE.replace(b"orders-1@", b"orders-4@")
    alike = archive.store_many(arrivals(fourth, relayed_again(fourth), relayed_again(third)))
    assert [s.id for s in alike] == [earlier.id + 4, earlier.id + 5, earlier.id + 6]
    assert [s.duplicate_of for s in alike] == [None, alike[0].id, apart[2].id]
    assert [s.raw for s in alike] == [fourth, relayed_again(fourth), relayed_again(third)]
    rows = archive.db.conn.execute("SELECT id, state, raw, message_id, outcome FROM inbound ORDER BY id").fetchall()
    assert [(state, raw, mid) for _, state, raw, mid, _ in rows] == [
        ("new", MESSAGE, "orders-1@example.org"), ("new", second, "orders-2@example.org"),
        ("duplicate", MESSAGE, "orders-1@example.org"),            # the first copy's bytes are kept
        ("new", third, "orders-3@example.org"), ("new", fourth, "orders-4@example.org"),
        ("duplicate", fourth, "orders-4@example.org"), ("duplicate", third, "orders-3@example.org")]
    assert rows[2][4] == f"redelivery of #{earlier.id}; not processed again"
    assert archive.counts() == {"new": 4, "duplicate": 3}


def test_a_big_commit_keeps_every_message_in_order(tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    earlier = archive.store(MESSAGE, mail_from="france@example.org", rcpt_tos=["judge@localhost"], via="smtp")
    raws = [MESSAGE.replace(b"orders-1@", f"big-{n}@".encode()) for n in range(300)]     # more than intake's BATCH
    raws[100] = relayed_again(MESSAGE)
    stored = archive.store_many([Arrival(raw, "f@example.org", ("judge@localhost",), "smtp") for raw in raws])
    assert [s.id for s in stored] == list(range(earlier.id + 1, earlier.id + 1 + len(raws)))
    assert [s.id for s in stored if s.is_duplicate] == [earlier.id + 101] and stored[100].duplicate_of == earlier.id
    in_file = archive.db.conn.execute("SELECT raw FROM inbound WHERE id > ? ORDER BY id", [earlier.id]).fetchall()
    assert [raw for (raw,) in in_file] == raws[:100] + [MESSAGE] + raws[101:]


def test_content_hash_ignores_trace_headers_only():
    assert content_hash(MESSAGE) == content_hash(relayed_again(MESSAGE))
    assert content_hash(MESSAGE) == content_hash(MESSAGE.replace(b"\r\n", b"\n"))
    assert content_hash(MESSAGE) != content_hash(MESSAGE.replace(b"Subject: orders", b"Subject: Orders"))
    folded = b"Received: from x\r\n\tby y; Mon, 1 Jan 2029\r\n" + MESSAGE
    assert content_hash(folded) == content_hash(MESSAGE)
    assert message_id_of(b"Message-ID:   <abc@d>  \r\n\r\n") == "abc@d"


def test_bounces_mark_addresses_failing_once_per_bounce(tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    stored = archive.store(MESSAGE, mail_from="", rcpt_tos=["judge@localhost"], via="smtp")
    archive.record_bounce("Player@Example.org", "550 no such user", stored.id)
    archive.record_bounce("player@example.org", "550 no such user", stored.id)    # processed again
    assert archive.is_failing("PLAYER@example.org")
    assert archive.db.execute("SELECT bounces FROM address_status").fetchone()[0] == 1
    archive.clear_failing("player@example.org")
    assert not archive.is_failing("player@example.org")
