"""judge/mail/intake/smtp_server.py against real clients: smtplib, swaks and a raw LMTP conversation."""
import re
import os
import shutil
import smtplib
import socket
import sqlite3
import subprocess

import pytest

from judge.mail.intake import spool_format

from servers.running import IntakeServer

ORDERS = (b"From: England <england@example.org>\r\nTo: judge@localhost\r\nSubject: orders\r\n"
          b"Message-ID: <eng-1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n"
          b"Content-Transfer-Encoding: 8bit\r\n\r\nF Lon-Nth\r\n.A line with a dot\r\nF Edi \xe2\x86\x92 Nwg\r\n")


def rows(db_path):
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT id, via, mail_from, rcpt_tos, raw, state, duplicate_of FROM inbound "
                            "ORDER BY id").fetchall()


def spooled(db_path):
    """What intake's spool (beside the judge file) holds that the archive has not got yet: (via, mail_from,
    rcpt_tos, raw) of each record, read from its segments as the drain reads them."""
    records = [r for _, path in spool_format.segments(db_path.with_name("spool"))
               for r in spool_format.read_segment(path, 0) or []]
    drained = set()
    if db_path.exists():
        with sqlite3.connect(db_path) as conn:
            drained = {k for (k,) in conn.execute("SELECT spool_key FROM inbound WHERE spool_key IS NOT NULL")}
    return [(r.via, r.mail_from, r.rcpt_tos, r.raw) for r in records if r.key not in drained]


def drained(server, db_path):
    """The archive's rows once the spool has been drained into it (as the daemon's processor has it done)."""
    server.drain()
    return rows(db_path)


def test_250_only_after_the_raw_bytes_are_committed(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        smtp.ehlo()
        smtp.mail("england@example.org", ["BODY=8BITMIME"])
        smtp.rcpt("judge@localhost")
        code, text = smtp.data(ORDERS)
        assert code == 250 and b"stored as #1" in text
        # The 250 has arrived: a separate reader must already find the exact bytes on disk, in the
        # spool or (drained meanwhile) the archive; a spool row is deleted only once the archive has it.
        on_disk = spooled(db) + [(r[1], r[2], r[3], r[4]) for r in rows(db)]
        assert on_disk == [("smtp", "england@example.org", '["judge@localhost"]', ORDERS)]
        [(id_, via, mail_from, rcpts, raw, state, dup)] = drained(server, db)
        assert (via, mail_from, rcpts, state, dup) == ("smtp", "england@example.org", '["judge@localhost"]',
                                                        "new", None)
        assert raw == ORDERS


def test_size_is_advertised_and_enforced(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db, size_limit=2000) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        smtp.ehlo()
        assert smtp.has_extn("size") and smtp.esmtp_features["size"] == "2000"
        big = b"Subject: big\r\n\r\n" + b"x" * 70 + b"\r\n"
        big = big * 40
        # A client that declares the size is refused at MAIL FROM ...
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:
            smtp.sendmail("a@example.org", ["judge@localhost"], big)
        assert refused.value.smtp_code == 552
        # ... and one that does not is refused after DATA.
        smtp.rset()
        smtp.mail("a@example.org")
        smtp.rcpt("judge@localhost")
        code, _ = smtp.data(big)
        assert code == 552
        # A message within the limit still gets through on the same connection.
        smtp.rset()
        assert smtp.sendmail("a@example.org", ["judge@localhost"], b"Subject: small\r\n\r\nhi\r\n") == {}
    assert len(rows(db)) == 1


def test_rate_limit_per_sender(tmp_path):
    now = [1000.0]
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db, rate_limit=2, rate_window=60, clock=lambda: now[0]) as server, \
            smtplib.SMTP("127.0.0.1", server.port) as smtp:
        def send(sender, n):
            return smtp.sendmail(sender, ["judge@localhost"], f"Subject: {n}\r\n\r\nbody {n}\r\n".encode())
        send("Flood@example.org", 1)
        send("flood@example.org", 2)                  # the same sender, whatever the letter case
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:
            send("flood@example.org", 3)
        assert refused.value.smtp_code == 450         # temporary: a real MTA keeps it and retries
        smtp.rset()
        send("calm@example.org", 4)                   # others are not affected
        now[0] += 61                                  # the window has passed
        send("flood@example.org", 5)
    assert [r[2].lower() for r in rows(db)] == ["flood@example.org"] * 2 + ["calm@example.org", "flood@example.org"]


def test_redelivery_is_acknowledged_and_recorded_once(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server:
        for _ in range(2):      # e.g. the client lost our first 250 and sent again
            with smtplib.SMTP("127.0.0.1", server.port) as smtp:
                assert smtp.sendmail("england@example.org", ["judge@localhost"], ORDERS) == {}
    (first, *_, s1, d1), (second, *_, s2, d2) = rows(db)
    assert (s1, d1) == ("new", None) and (s2, d2) == ("duplicate", first)


def test_a_failed_store_answers_451_and_the_client_keeps_the_message(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server:
        # The spool's file fails under its writer (as a failing disk would): its writes get an OSError.
        spool = server.handler._store.spool
        read_only = os.open(spool.directory / spool_format.segment_name(spool.synced[0]), os.O_RDONLY)
        os.dup2(read_only, spool._fd)
        os.close(read_only)
        with smtplib.SMTP("127.0.0.1", server.port) as smtp:
            with pytest.raises(smtplib.SMTPDataError) as refused:
                smtp.sendmail("england@example.org", ["judge@localhost"], ORDERS)
            assert refused.value.smtp_code == 451
            # the next message goes to a new segment, and is stored
            assert smtp.sendmail("england@example.org", ["judge@localhost"], ORDERS) == {}
        assert [r[2] for r in drained(server, db)] == ["england@example.org"]


@pytest.mark.skipif(shutil.which("swaks") is None, reason="swaks is not installed (bin/setup installs it as root)")
def test_swaks_an_independent_client(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server:
        result = subprocess.run(
            ["swaks", "--server", f"127.0.0.1:{server.port}", "--from", "turkey@example.org",
             "--to", "judge@localhost", "--header", "Subject: orders", "--body", "A Con-Bul\nF Ank-Bla"],
            capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "250 2.0.0 OK stored as #1" in result.stdout
        [(_, via, mail_from, _, raw, state, _)] = drained(server, db)
    assert mail_from == "turkey@example.org" and b"A Con-Bul" in raw and b"Subject: orders" in raw


def lmtp_conversation(port: int, lines: list[bytes], data: bytes, answers_after_data: int) -> list[bytes]:
    """Speak LMTP by hand: smtplib.LMTP reads a single reply to DATA, LMTP gives one per recipient."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        f = s.makefile("rb")

        def reply():
            out = []
            while True:
                line = f.readline()
                out.append(line.rstrip(b"\r\n"))
                if line[3:4] != b"-":
                    return out
        reply()                                  # greeting
        for line in lines:
            s.sendall(line + b"\r\n")
            reply()
        s.sendall(b"DATA\r\n")
        assert reply()[0].startswith(b"354")
        s.sendall(re.sub(rb"(?m)^\.", b"..", data) + b".\r\n")     # dot-stuffing, RFC 5321 4.5.2
        answers = [reply()[0] for _ in range(answers_after_data)]
        s.sendall(b"QUIT\r\n")
        return answers


def test_lmtp_mode_answers_once_per_recipient(tmp_path):
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db, lmtp=True) as server:
        with smtplib.SMTP("127.0.0.1", server.port) as smtp:
            assert smtp.ehlo()[0] == 500                # LMTP speaks LHLO, not EHLO
        answers = lmtp_conversation(server.port, [b"LHLO postfix.example", b"MAIL FROM:<italy@example.org>",
                                                  b"RCPT TO:<judge@localhost>", b"RCPT TO:<gm@localhost>"],
                                    ORDERS, 2)
    assert [a[:3] for a in answers] == [b"250", b"250"]
    [(_, via, _, rcpts, raw, _, _)] = rows(db)
    assert via == "lmtp" and rcpts == '["judge@localhost", "gm@localhost"]' and raw == ORDERS


def test_messages_arriving_during_a_commit_are_stored_together_and_each_acknowledged_after_it(tmp_path):
    """Group commit: while the spool's thread is busy, DATA from five clients waits; the messages are then
    committed in at most two transactions (the one already handed to the thread, and one for the rest:
    one received_at each), and no client hears 250 before the commit that holds its message. (The
    commits on the spool's thread, as on a slow disk; on a quick one they run on the event loop.)"""
    import threading
    from servers.net import wait_until
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server:
        store = server.handler._store
        store._inline, store.INLINE_AGAIN_BELOW = False, 0.0      # as after slow commits: on the thread
        store.INLINE_WHEN_IDLE_UP_TO = 0.0
        gate = threading.Event()
        store._executor.submit(gate.wait, 60)       # the spool's thread, held busy
        acked: list[bytes] = []

        def client(n: int) -> None:
            with smtplib.SMTP("127.0.0.1", server.port) as smtp:
                raw = ORDERS.replace(b"eng-1@", f"eng-group-{n}@".encode())
                smtp.ehlo()
                smtp.mail("england@example.org")
                smtp.rcpt("judge@localhost")
                code, text = smtp.data(raw)
                assert code == 250
                acked.append(text)

        clients = [threading.Thread(target=client, args=(n,)) for n in range(5)]
        for t in clients:
            t.start()
        # the first commit is queued behind the busy thread; the messages after it wait for the next
        wait_until(lambda: server.handler._store.waiting() == 5, what="five messages waiting to be stored")
        assert acked == [] and rows(db) == [] and spooled(db) == []
        gate.set()
        for t in clients:
            t.join(60)
    assert len(acked) == 5
    with sqlite3.connect(db) as conn:
        groups = [n for (n,) in conn.execute("SELECT count(*) FROM inbound GROUP BY received_at")]
    assert sum(groups) == 5 and len(groups) <= 2



def test_a_client_stalled_in_the_middle_of_a_message_does_not_hold_up_the_others(tmp_path):
    """Group commit waits a moment for clients that are sending (MAIL FROM given, DATA not ended), so
    they share the commit; one that stops there must not keep the others from their 250."""
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as stalled, \
            smtplib.SMTP("127.0.0.1", server.port) as other:
        stalled.ehlo()
        stalled.mail("slow@example.org")
        stalled.rcpt("judge@localhost")                 # ... and never sends DATA
        for n in range(3):
            raw = ORDERS.replace(b"eng-1@", f"eng-busy-{n}@".encode())
            assert other.sendmail("england@example.org", ["judge@localhost"], raw) == {}
        assert [r[2] for r in drained(server, db)] == ["england@example.org"] * 3


def test_each_commit_wakes_the_processor_before_its_250_and_the_spool_waits_for_its_drain(tmp_path):
    """Intake writes the spool alone: a mail stays there until the processor (woken by each commit that
    stored something, before that commit's 250s go out) has it drained into the archive."""
    db = tmp_path / "judge.sqlite"
    woken: list[int] = []
    with IntakeServer(db, on_committed=lambda: woken.append(len(spooled(db)))) as server, \
            smtplib.SMTP("127.0.0.1", server.port) as smtp:
        for n in range(2):
            smtp.sendmail("england@example.org", ["judge@localhost"], ORDERS.replace(b"eng-1@", f"eng-w{n}@".encode()))
            assert woken == list(range(1, n + 2))       # woken with the mail already in the spool
        assert rows(db) == [] and len(spooled(db)) == 2
        assert [r[2] for r in drained(server, db)] == ["england@example.org"] * 2
        assert spooled(db) == []


def test_commits_move_to_the_spools_thread_when_slow_and_back_when_quick(tmp_path):
    """Commits run on the event loop while they are quick; once their moving average passes INLINE_UP_TO
    they run on the thread (the loop then keeps reading clients while the disk syncs), and come back
    below INLINE_AGAIN_BELOW. Every message is answered 250 and stored either way."""
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        store = server.handler._store
        store.INLINE_UP_TO = store.INLINE_AGAIN_BELOW = 0.0      # every commit counts as slow ...
        store.INLINE_WHEN_IDLE_UP_TO = 0.0                         # ... even with no other client sending
        for n in range(3):
            assert smtp.sendmail("england@example.org", ["judge@localhost"],
                                 ORDERS.replace(b"eng-1@", f"eng-slow-{n}@".encode())) == {}
        assert (store.stats.commits, store.stats.inline) == (3, 1) and not store._inline
        store.INLINE_UP_TO, store.INLINE_AGAIN_BELOW = 1.0, 1.0     # every commit counts as quick
        for n in range(3):
            assert smtp.sendmail("england@example.org", ["judge@localhost"],
                                 ORDERS.replace(b"eng-1@", f"eng-quick-{n}@".encode())) == {}
        assert store._inline and store.stats.inline == 3        # one more on the thread, then back
        assert len(drained(server, db)) == 6


def test_commits_as_slow_as_a_shared_disks_stay_on_the_event_loop_while_no_other_client_sends(tmp_path):
    """Commits of a few milliseconds (a disk other jobs write to) are slow, but while no other client is in
    the middle of a message the loop has nothing to read meanwhile: they run on it, sparing the hand-over
    to the thread (which beside busy processes costs more than the commit: bench/intake.py --hog). Only a
    much slower disk sends them to the thread regardless (the test above)."""
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        store = server.handler._store
        store._commit_time = 0.003      # as after commits of 3 ms each
        for n in range(2):
            assert smtp.sendmail("england@example.org", ["judge@localhost"],
                                 ORDERS.replace(b"eng-1@", f"eng-idle-{n}@".encode())) == {}
        assert store.stats.inline == 2 and not store._inline      # (slow, by the moving average)
        assert len(drained(server, db)) == 2


def test_mail_drained_does_not_stay_in_the_spool_once_its_segment_is_old_enough(tmp_path):
    """After a drain that read everything written, intake moves on to a new segment once the old one's
    first mail is RETIRE_AFTER old, and the next drain deletes it: the password in the mail is then
    only in the archive, whose copy the dispatcher scrubs."""
    from servers.net import wait_until
    db = tmp_path / "judge.sqlite"
    with IntakeServer(db) as server, smtplib.SMTP("127.0.0.1", server.port) as smtp:
        store = server.handler._store
        store.RETIRE_AFTER = 0.0
        assert smtp.sendmail("turkey@example.org", ["judge@localhost"],
                             b"Subject: x\r\nMessage-ID: <pw1@example.org>\r\n\r\nsignon Talpha turkey-pw\r\n") == {}
        first = store.spool.synced[0]
        assert server.drain().count == 1
        wait_until(lambda: store.spool.synced[0] > first, what="the spool to move on to a new segment")
        server.drain()
        spool = tmp_path / "spool"
        assert spool_format.segment_name(first) not in os.listdir(spool)
        assert not any(b"turkey-pw" in (spool / name).read_bytes() for name in os.listdir(spool))
