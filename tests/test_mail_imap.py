"""judge/mail/intake/imap.py against a real dovecot: BODY.PEEK[], \\Seen only after the store, IDLE, polling,
reconnects."""
import threading

import pytest
from imapclient import IMAPClient

from judge.config import ImapConfig
from judge.mail.intake.archive import Archive
from judge.mail.intake.imap import ImapIntake

from servers.dovecot import dovecot_binary, remove, start_dovecot
from servers.net import wait_until

pytestmark = pytest.mark.skipif(dovecot_binary() is None,
                                reason="dovecot is not installed (bin/setup installs it with apt as root)")
USER = "judge"


@pytest.fixture
def dovecot():
    server = start_dovecot()
    yield server
    remove(server)


def config_for(server, **kw) -> ImapConfig:
    return ImapConfig(host=server.host, port=server.port, user=USER, password=server.password, ssl=False, **kw)


def player_mail(n: int) -> bytes:
    return (f"From: Player {n} <p{n}@example.org>\r\nTo: judge@localhost\r\nSubject: orders {n}\r\n"
            f"Message-ID: <imap-{n}@example.org>\r\n\r\nA Par-Bur {n}\r\n").encode()


class Mailbox:
    """Another IMAP session on the same mailbox: how a player's mail arrives and how we look at flags."""

    def __init__(self, server):
        self.client = IMAPClient(server.host, port=server.port, ssl=False)
        self.client.login(USER, server.password)
        self.client.select_folder("INBOX")

    def deliver(self, raw: bytes) -> None:
        self.client.append("INBOX", raw)

    def seen(self) -> list[bool]:
        self.client.noop()
        flags = self.client.get_flags(self.client.search(["ALL"]))
        return [b"\\Seen" in flags[uid] for uid in sorted(flags)]

    def close(self):
        self.client.logout()


def ready(intake: ImapIntake) -> None:
    """Wait until mail delivered now is seen without luck: with IDLE, once the IDLE is established
    (dovecot leaves mail that lands between the judge's NOOP and its IDLE to a periodic check 30 s
    or more later); polling finds it at its next poll whenever it lands."""
    if intake.idles:
        wait_until(intake.idling.is_set, what="the judge's IDLE")


def test_seen_only_after_store_and_a_failed_store_leaves_mail_unseen(dovecot, tmp_path):
    mailbox = Mailbox(dovecot)
    for n in (1, 2):
        mailbox.deliver(player_mail(n))
    archive = Archive(tmp_path / "judge.sqlite")
    observed = []

    def store_then_look(raw, **kw):
        # At the moment of the store nothing may be \Seen yet, not even by our own fetch.
        observed.append(list(mailbox.seen()))
        return archive.store(raw, **kw)

    intake = ImapIntake(config_for(dovecot), store_then_look, size_limit=100_000)
    intake.connect()
    stored = intake.fetch_unseen()
    assert observed == [[False, False], [True, False]]
    assert [m.raw for m in stored] == [player_mail(1), player_mail(2)]
    assert mailbox.seen() == [True, True]
    assert [m.via for m in stored] == ["imap", "imap"]
    intake.disconnect()

    # The judge crashes inside the store (here: the store raises): the message stays unseen ...
    mailbox.deliver(player_mail(3))

    def crash(raw, **kw):
        raise OSError("disk full")

    crashing = ImapIntake(config_for(dovecot), crash, size_limit=100_000)
    crashing.connect()
    with pytest.raises(OSError):
        crashing.fetch_unseen()
    crashing.disconnect()
    assert mailbox.seen() == [True, True, False]
    # ... and the next run takes it.
    again = ImapIntake(config_for(dovecot), archive.store, size_limit=100_000)
    again.connect()
    assert [m.raw for m in again.fetch_unseen()] == [player_mail(3)]
    again.disconnect()
    assert mailbox.seen() == [True, True, True]
    mailbox.close()


def test_stored_but_not_yet_seen_is_a_recorded_redelivery(dovecot, tmp_path):
    mailbox = Mailbox(dovecot)
    mailbox.deliver(player_mail(1))
    archive = Archive(tmp_path / "judge.sqlite")
    # A judge that stored the message and stopped before setting \Seen:
    intake = ImapIntake(config_for(dovecot), archive.store, size_limit=100_000)
    intake.connect()
    uid = intake.client.search(["UNSEEN"])[0]
    raw = intake.client.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"]
    first = archive.store(raw, mail_from=None, rcpt_tos=[USER], via="imap")
    intake.disconnect()
    # The restarted judge fetches it again; the archive knows it.
    intake = ImapIntake(config_for(dovecot), archive.store, size_limit=100_000)
    intake.connect()
    [second] = intake.fetch_unseen()
    intake.disconnect()
    assert second.duplicate_of == first.id
    assert archive.claim_next().id == first.id and archive.claim_next() is None
    mailbox.close()


def test_oversized_mail_is_flagged_and_left(dovecot, tmp_path):
    mailbox = Mailbox(dovecot)
    mailbox.deliver(player_mail(1) + b"x" * 5000 + b"\r\n")
    archive = Archive(tmp_path / "judge.sqlite")
    intake = ImapIntake(config_for(dovecot), archive.store, size_limit=1000)
    intake.connect()
    assert intake.fetch_unseen() == []
    flags = intake.client.get_flags(intake.client.search(["ALL"]))
    assert all(b"\\Flagged" in f for f in flags.values())
    intake.disconnect()
    assert archive.counts() == {}
    mailbox.close()


@pytest.mark.parametrize("use_idle", [True, False], ids=["idle", "polling"])
def test_running_intake_takes_new_mail_and_survives_a_dropped_connection(dovecot, tmp_path, use_idle):
    archive = Archive(tmp_path / "judge.sqlite")
    lock = threading.Lock()

    def store(raw, **kw):
        with lock:
            return archive.store(raw, **kw)

    def count():
        with lock:
            return sum(archive.counts().values())

    stop = threading.Event()
    intake = ImapIntake(config_for(dovecot, use_idle=use_idle, poll_seconds=0.2), store, size_limit=100_000,
                        stop=stop)
    thread = intake.start()
    mailbox = Mailbox(dovecot)
    try:
        wait_until(lambda: intake.client is not None, what="the first IMAP session")
        assert intake.idles is use_idle          # dovecot offers IDLE; polling when told not to use it
        ready(intake)
        mailbox.deliver(player_mail(1))
        wait_until(lambda: count() == 1, what="the first message")

        dovecot.kick(USER)                        # the server drops every session of the judge
        mailbox = Mailbox(dovecot)
        wait_until(lambda: intake.connections >= 2, what="the judge's new session")
        ready(intake)
        mailbox.deliver(player_mail(2))
        wait_until(lambda: count() == 2, what="the message after the reconnect")
        assert intake.connections >= 2
        # \Seen is set just after the store commits: wait for it rather than race it
        wait_until(lambda: mailbox.seen() == [True, True], what="both messages marked seen")
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    with lock:
        assert archive.counts() == {"new": 2}


def test_mail_arriving_between_the_search_and_idle_is_not_left_waiting(dovecot, tmp_path):
    archive = Archive(tmp_path / "judge.sqlite")
    intake = ImapIntake(config_for(dovecot, idle_seconds=3600), archive.store, size_limit=100_000)
    intake.connect()
    assert intake.fetch_unseen() == [] and intake.idles
    mailbox = Mailbox(dovecot)
    mailbox.deliver(player_mail(1))          # after our SEARCH, before our IDLE
    waiter = threading.Thread(target=intake.wait_for_mail, daemon=True)
    waiter.start()
    # Without the check before IDLE this would sleep for the whole hour (dovecot does not announce it).
    wait_until(lambda: not waiter.is_alive(), what="wait_for_mail to notice the new mail")
    assert [m.raw for m in intake.fetch_unseen()] == [player_mail(1)]
    intake.disconnect()
    mailbox.close()
