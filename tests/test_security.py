"""The security suite: each attack on a running `judge serve`, by mail over SMTP, and that it fails.

One test per attack. The judge under attack (tests/securityjudge.py) runs a game under way, alpha,
with seven players and a master. Attacks that are not by mail (a message dispatched again after a
crash, mail read out of its arrival order) use the in-process judge of tests/mailjudge.py.
"""
from __future__ import annotations

import subprocess

import pytest

from judge.games.accounts import check_address
from judge.mail.screening.robot_mail import classify
from judge.mail.screening.password_guard import FREE

from mailjudge import MailJudge, mail
from securityjudge import JUDGE, ServedJudge, compose


@pytest.fixture
def judge(tmp_path):
    served = ServedJudge(tmp_path)
    yield served
    served.stop()


def to(outs, address):
    return [o for o in outs if address in o.to]


# -- guessing passwords ------------------------------------------------------------------------------
def test_register_guessing_then_set_address_is_stopped(judge):
    """Issue 12 #7: `REGISTER account guess` + `SET ADDRESS thief@` from a forged From, MAIL FROM
    changed every time. Guesses are counted (per account and source), and the right password, when
    finally tried, is no longer checked: the address never changes."""
    for n in range(16):
        judge.mail("france@dip.test", f"register france guess{n}\nset address thief@evil.test",
                   mail_from=f"bounce{n}@evil.test")
    outs = judge.mail("france@dip.test", "register france france-pw\nset address thief@evil.test",
                      mail_from="bounce99@evil.test")
    assert judge.service.accounts.get("france").addresses == ("france@dip.test",)
    assert "too many wrong passwords" in to(outs, "france@dip.test")[0].text
    assert judge.rows("SELECT count(*) FROM guard_failures WHERE subject = 'account:france'")[0][0] >= FREE["from"]
    assert not any("thief@evil.test" in o.to for o in outs)


@pytest.mark.parametrize("command", [
    "signon Falpha {pw}", "register france {pw}", "join alpha {pw}", "observe alpha {pw}", "create beta {pw}",
    "become master {pw}"])
def test_every_command_that_takes_a_password_is_guarded(judge, command):
    """Each command that checks a password goes through the one guard: after the free guesses
    (each from a new envelope sender), even the right password is refused for a while."""
    for n in range(FREE["account"]):
        judge.mail("france@dip.test", command.format(pw=f"guess{n}"), mail_from=f"b{n}@evil.test")
    outs = judge.mail("france@dip.test", command.format(pw="france-pw"), mail_from="b99@evil.test")
    assert "too many wrong passwords" in to(outs, "france@dip.test")[0].text
    assert judge.service.status("alpha").master == "gm"
    assert "beta" not in [g.name for g in judge.service.list_games()]


def test_rotating_mail_from_from_and_computer_does_not_reset_the_account_count(judge):
    """Every guess from a new envelope sender, a new From and a new loopback address: the
    account's own count still stops the guessing."""
    for n in range(FREE["account"]):
        judge.mail(f"m{n}@evil.test", f"signon Falpha guess{n}\nA Par - Pic", peer=f"127.0.0.{10 + n}")
    outs = judge.mail("m99@evil.test", "signon Falpha france-pw\nA Par - Pic", peer="127.0.0.99")
    assert judge.orders("FRANCE") == []
    assert "too many wrong passwords" in to(outs, "m99@evil.test")[0].text


def test_one_computer_guessing_many_accounts_is_stopped(judge):
    """Per source: three wrong guesses from one computer, each for another account and from other
    addresses, and that computer's next password is not checked, even a right one."""
    for n, power in enumerate(["A", "E", "G"]):
        judge.mail(f"x{n}@evil.test", f"signon {power}alpha guess", peer="127.0.0.20")
    outs = judge.mail("x9@evil.test", "signon Ialpha italy-pw\nA Ven H", peer="127.0.0.20")
    assert judge.orders("ITALY") == []
    assert any("too many wrong passwords" in o.text for o in outs)
    judge.mail("italy@dip.test", "signon Ialpha italy-pw\nA Ven H", peer="127.0.0.3")   # elsewhere: fine
    assert judge.orders("ITALY") == ["A Ven H"]


def test_a_guessing_attack_cannot_lock_the_owner_out(judge):
    """Lockout as denial of service: while a guesser writing from other addresses has passwords
    for France refused to everyone else, France's password from her own address still works, and
    so does her secret reply address."""
    secret = judge.secret_of("france")
    for n in range(FREE["account"] + 3):
        judge.mail(f"m{n}@evil.test", f"signon Falpha guess{n}", peer=f"127.0.1.{n + 1}")
    refused = judge.mail("stranger@else.test", "signon Falpha france-pw\nA Par - Bur", peer="127.0.2.1")
    assert "too many wrong passwords" in to(refused, "stranger@else.test")[0].text
    judge.mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur")
    assert judge.orders("FRANCE") == ["A Par - Bur"]
    judge.mail("france@dip.test", "A Par - Pic", to=secret)
    assert judge.orders("FRANCE") == ["A Par - Pic"]


def test_the_owner_is_told_of_wrong_guesses(judge):
    """A wrong password from an address not the owner's: the owner hears of it at their own address
    (once an hour at most), without the guess."""
    told = to(judge.mail("m@evil.test", "signon Falpha hunter2"), "france@dip.test")
    assert len(told) == 1 and "wrong password for your account france" in told[0].text
    assert "m@evil.test" in told[0].text and "hunter2" not in told[0].raw.decode("latin-1")
    assert to(judge.mail("m2@evil.test", "signon Falpha hunter3"), "france@dip.test") == []   # not again this hour


def test_guesses_through_a_relay_lock_out_no_bystander(judge):
    """Every mail comes from the relay in front (127.0.0.1, naming no client): a guesser's wrong
    passwords for France are not counted against that address, so Italy's right password from a
    stranger's address still works, and France's own from her address too (she is told instead)."""
    for n in range(FREE["account"] + 3):
        judge.mail(f"m{n}@evil.test", f"signon Falpha guess{n}", peer="127.0.0.1")
    outs = judge.mail("travelling@else.test", "signon Ialpha italy-pw\nA Ven H", peer="127.0.0.1")
    assert judge.orders("ITALY") == ["A Ven H"], [o.text for o in outs]
    outs = judge.mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur", peer="127.0.0.1")
    assert judge.orders("FRANCE") == ["A Par - Bur"], [o.text for o in outs]
    refused = judge.mail("stranger@else.test", "signon Falpha france-pw\nA Par - Pic", peer="127.0.0.1")
    assert "too many wrong passwords" in to(refused, "stranger@else.test")[0].text     # the account's count holds


def test_the_client_a_relay_names_is_counted_not_the_relay(judge):
    """XFORWARD from the relay names the computer each mail came from: three wrong guesses from one,
    each at another account, and its next password is not checked; another computer behind the same
    relay signs on."""
    for n, power in enumerate(["A", "E", "G"]):
        judge.mail(f"x{n}@evil.test", f"signon {power}alpha guess", peer="127.0.0.1", client="203.0.113.5")
    outs = judge.mail("x9@evil.test", "signon Ialpha italy-pw\nA Ven H", peer="127.0.0.1", client="203.0.113.5")
    assert judge.orders("ITALY") == [] and any("too many wrong passwords" in o.text for o in outs)
    judge.mail("x10@else.test", "signon Ialpha italy-pw\nA Ven H", peer="127.0.0.1", client="198.51.100.7")
    assert judge.orders("ITALY") == ["A Ven H"]
    assert judge.rows("SELECT peer FROM inbound ORDER BY id DESC LIMIT 1")[0][0].startswith("198.51.100.7:40000 via ")


def test_a_forger_of_the_owners_address_does_not_lock_the_owner_out(judge):
    """Guesses in mail forged from France's own address, from one computer: that computer is held
    back; France writing from her own address, from hers, is not (her password is taken)."""
    for n in range(FREE["from"] + 2):
        judge.mail("france@dip.test", f"signon Falpha guess{n}", peer="127.0.0.1", client="203.0.113.66")
    held = judge.mail("france@dip.test", "signon Falpha france-pw\nA Par - Pic", peer="127.0.0.1",
                      client="203.0.113.66")
    assert judge.orders("FRANCE") == [] and "too many wrong passwords" in to(held, "france@dip.test")[0].text
    judge.mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur", peer="127.0.0.1", client="192.0.2.8")
    assert judge.orders("FRANCE") == ["A Par - Bur"]


def test_the_owner_signing_on_while_strangers_are_held_back_is_told(tmp_path):
    """France's password from her own address is taken while strangers' guesses hold her account
    back; she is told of them in a mail of its own (at most once an hour)."""
    j = MailJudge(tmp_path)
    try:
        j.seven_players()
        for n in range(FREE["account"]):
            j.send(f"m{n}@evil.test", f"signon Falpha guess{n}")      # the owner told at once; held 15 minutes
        for minutes in (16, 31):        # a guess as each hold ends: held 30, then 60 minutes
            j.clock.advance(minutes=minutes)
            j.send("m99@evil.test", "signon Falpha guess-again")
        j.clock.advance(minutes=15)     # still held, and an hour since the owner was told
        sent = j.send("france@dip.test", "signon Falpha france-pw\nA Par - Bur")
        assert [o["written"] for o in j.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Bur"]
        told = [s for s in sent if s.to == ["france@dip.test"] and "others have given many wrong" in " ".join(
            s.body.split())]
        assert len(told) == 1 and "france-pw" not in told[0].body
    finally:
        j.close()


def test_xforward_from_a_computer_that_is_no_relay_is_refused(judge):
    """Only the relays in [smtp] relays may name another computer: anyone else is refused, and
    XFORWARD is not even offered to them."""
    import smtplib
    with smtplib.SMTP("127.0.0.1", judge.port, source_address=("127.0.0.2", 0)) as smtp:
        smtp.ehlo("evil.test")
        assert not smtp.has_extn("xforward")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7")[0] == 550
    with smtplib.SMTP("127.0.0.1", judge.port) as smtp:
        smtp.ehlo("relay.dip.test")
        assert smtp.has_extn("xforward")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7 COLOUR=red")[0] == 501
        smtp.mail("a@dip.test")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7")[0] == 503


# -- secret reply addresses --------------------------------------------------------------------------
def test_a_foreign_signon_is_answered_to_the_owner_only(judge):
    """The right password from a thief's address: the answer, and with it France's secret reply
    address, goes to France's own address only, saying plainly someone else may have sent it."""
    outs = judge.mail("thief@evil.test", "signon Falpha france-pw\nA Par - Bur")
    assert to(outs, "thief@evil.test") == []
    [own] = to(outs, "france@dip.test")
    assert own.to == ["france@dip.test"] and "Someone else may have sent it" in own.text
    assert all(o.to == ["france@dip.test"] for o in outs if "judge+" in str(o.mail["Reply-To"] or ""))


def test_a_reply_to_set_by_a_forger_never_gets_the_secret_address(judge):
    """From: france@, Reply-To: thief@ with France's password: answered to France only."""
    outs = judge.mail("france@dip.test", "signon Falpha france-pw", headers={"Reply-To": "thief@evil.test"})
    assert to(outs, "thief@evil.test") == [] and to(outs, "france@dip.test")


def test_a_token_only_in_cc_does_not_sign_on(judge):
    """The secret address in Cc (or To) but not among the envelope recipients proves nothing."""
    secret = judge.secret_of("france")
    judge.mail("france@dip.test", "A Par - Pic", to="judge@dip.test", rcpt=["judge@dip.test"],
               headers={"Cc": secret, "Delivered-To": secret})
    assert judge.orders("FRANCE") == []


def test_an_allys_reply_all_to_the_token_does_not_sign_on(judge):
    """Germany answers all to a mail France sent to her secret address: delivered to the token, but
    from Germany's address, so it is not France's."""
    secret = judge.secret_of("france")
    outs = judge.mail("germany@dip.test", "A Par - Pic", to=secret)
    assert judge.orders("FRANCE") == []
    [reply] = to(outs, "germany@dip.test")
    assert "not read as theirs" in reply.text and secret not in reply.raw.decode("latin-1")


def test_a_token_for_one_game_does_not_sign_on_to_another(judge):
    """France plays in alpha and beta: her alpha reply address neither signs on to beta, nor
    changes what is the whole account's (password, address)."""
    svc = judge.service
    svc.create_game("beta", master="gm")
    for p in ["austria", "england", "france", "germany", "italy", "russia", "turkey"]:
        svc.join("beta", p, [p.upper()])
    secret = judge.secret_of("france")
    outs = judge.mail("france@dip.test", "signon Fbeta\nA Par - Bur\nset password mine\nset address x@evil.test",
                      to=secret)
    assert [o["written"] for o in svc.confirmation("beta", "FRANCE").orders] == []
    assert svc.accounts.get("france").addresses == ("france@dip.test",)
    assert svc.accounts.check_password("france", "france-pw")
    assert "password is needed" in to(outs, "france@dip.test")[0].text


@pytest.mark.parametrize("rotation", ["set password", "set address", "set newreply", "eject", "replace"])
def test_an_old_secret_address_stops_working(judge, rotation):
    """A secret reply address is replaced on SET PASSWORD, SET ADDRESS, SET NEWREPLY (on request),
    and for the ousted player on EJECT and REPLACE: mail to the old one is not France's any more."""
    secret = judge.secret_of("france")
    frm = "france@dip.test"
    if rotation == "set password":
        judge.mail(frm, "signon Falpha france-pw\nset password better-pw")
    elif rotation == "set address":
        judge.mail(frm, "signon Falpha france-pw\nset address france2@dip.test")
        frm = "france2@dip.test"
    elif rotation == "set newreply":
        judge.mail(frm, "A Par H", to=secret)
        judge.mail(frm, "set newreply", to=secret)
    else:
        judge.mail("gm@dip.test", "signon Malpha gm-secret\n" + ("eject France" if rotation == "eject"
                                                                  else "replace France spare@dip.test"))
    before = judge.orders("FRANCE")
    outs = judge.mail(frm, "A Par - Pic", to=secret)
    assert judge.orders("FRANCE") == before and "A Par - Pic" not in before
    assert "no longer knows" in to(outs, frm)[0].text


def test_a_delivered_to_header_written_by_the_sender_does_not_sign_on_by_imap(tmp_path):
    """By IMAP the envelope is the topmost Delivered-To, which the mailbox's server writes: a
    Delivered-To naming the secret address further down, written by the sender, proves nothing."""
    j = MailJudge(tmp_path)
    j.seven_players()
    first = j.reply_to("turkey@dip.test", "signon Talpha turkey-pw")
    secret = str(first.mail["Reply-To"])
    raw = b"Delivered-To: judge@dip.test\r\n" + mail("turkey@dip.test", "F Ank - Bla", headers={"Delivered-To": secret})
    j.processor.archive.store(raw, mail_from=None, rcpt_tos=["judge@dip.test"], via="imap", peer="imap.test UID 9")
    j.processor.process_next()
    assert j.service.confirmation("alpha", "TURKEY").orders == ()
    j.close()


# -- replays -----------------------------------------------------------------------------------------
def test_a_replay_with_a_header_added_is_not_applied(judge):
    """The same mail again with one header added: not applied, so its old orders do not replace
    the newer ones."""
    first = compose("france@dip.test", "signon Falpha france-pw\nA Par - Bur")
    judge.send(first, mail_from="france@dip.test")
    judge.mail("france@dip.test", "signon Falpha france-pw\nA Par - Pic")
    outs = judge.send(b"X-Resent: yes\r\n" + first, mail_from="france@dip.test")
    assert judge.orders("FRANCE") == ["A Par - Pic"]
    assert "was not read again" in to(outs, "france@dip.test")[0].text


def test_a_replay_without_message_id_is_not_applied(judge):
    """A mail without a Message-ID, sent again with a header added; and a mail that had one, sent
    again with it removed: neither is applied again."""
    bare = compose("germany@dip.test", "signon Galpha germany-pw\nA Ber - Kie", message_id=False)
    judge.send(bare, mail_from="germany@dip.test")
    judge.mail("germany@dip.test", "signon Galpha germany-pw\nA Ber - Mun")
    judge.send(b"X-Loop: 1\r\n" + bare, mail_from="germany@dip.test")
    assert judge.orders("GERMANY") == ["A Ber - Mun"]
    had = compose("italy@dip.test", "signon Ialpha italy-pw\nA Ven - Tyr")
    judge.send(had, mail_from="italy@dip.test")
    judge.mail("italy@dip.test", "signon Ialpha italy-pw\nA Ven H")
    stripped = b"\r\n".join(line for line in had.split(b"\r\n") if not line.lower().startswith(b"message-id:"))
    judge.send(stripped, mail_from="italy@dip.test")
    assert judge.orders("ITALY") == ["A Ven H"]


def test_older_mail_read_after_newer_mail_does_not_replace_its_orders(tmp_path):
    """Mail read out of its arrival order (a retry after a failure): the older one's orders are
    not used, and it says why."""
    j = MailJudge(tmp_path)
    j.seven_players()
    older = j.processor.archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur"),
                                      mail_from="france@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    newer = j.processor.archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Pic"),
                                      mail_from="france@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    j.dispatch(newer, classify(newer.raw, newer.mail_from), j.processor.context)
    j.dispatch(older, classify(older.raw, older.mail_from), j.processor.context)
    assert [o["written"] for o in j.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Pic"]
    assert any("reached the judge later" in s.text for s in j.outbox())
    j.close()


# -- passwords at rest -------------------------------------------------------------------------------
def test_no_password_stays_in_the_archive_or_a_backup(judge, tmp_path):
    """After the mail is handled its raw copy holds no password (nor does its exact redelivery),
    in the judge file on disk or in a backup of it."""
    raw = compose("turkey@dip.test", "signon Talpha turkey-pw\nset password Zebra-Quartz-71\nF Ank - Bla",
                  headers={"Subject": "signon Talpha turkey-pw"})
    judge.send(raw, mail_from="turkey@dip.test")
    judge.send(raw, mail_from="turkey@dip.test")            # redelivered, byte for byte
    judge.mail("russia@dip.test", "<p>signon Ralpha russia-pw</p>", html=True)
    stored = [bytes(r[0]) for r in judge.rows("SELECT raw FROM inbound")]
    assert stored and not any(b"turkey-pw" in r or b"Zebra-Quartz-71" in r or b"russia-pw" in r for r in stored)
    assert judge.orders("TURKEY") == ["F Ank - Bla"]
    judge.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    for path in judge.db.parent.glob("judge.sqlite*"):
        data = path.read_bytes()
        assert b"turkey-pw" not in data and b"Zebra-Quartz-71" not in data, path
    subprocess.run([str(JUDGE), "backup", str(tmp_path / "bk")], cwd=tmp_path, check=True, capture_output=True)
    for path in (tmp_path / "bk").rglob("*"):
        if path.is_file():
            assert b"turkey-pw" not in path.read_bytes() and b"Zebra-Quartz-71" not in path.read_bytes(), path


def test_a_served_judge_hashes_passwords_at_the_shipped_cost(judge):
    """In-process the tests hash cheaply (tests/conftest.py); a real `judge serve` must not: a password
    set by mail is stored as scrypt at the cost the judge ships (n = 2**14, r = 8, p = 1)."""
    judge.mail("turkey@dip.test", "signon Talpha turkey-pw\nset password Zebra-Quartz-71")
    [[stored]] = judge.rows("SELECT password FROM accounts WHERE name = 'turkey'")
    assert stored.startswith(f"scrypt${2 ** 14}$8$1$")


def test_a_dispatch_again_after_the_scrub_changes_nothing(tmp_path):
    """A crash after the raw copy was scrubbed but before the daemon recorded the message: the
    dispatch run again repeats the outcome; it does not read the masked passwords as wrong ones."""
    j = MailJudge(tmp_path)
    j.seven_players()
    stored = j.processor.archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur"),
                                       mail_from="france@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    verdict = classify(stored.raw, stored.mail_from)
    first = j.dispatch(stored, verdict, j.processor.context)
    again = j.processor.archive.get(stored.id)
    assert b"france-pw" not in again.raw
    queued = len(j.outbox())
    assert j.dispatch(again, verdict, j.processor.context) == first
    assert len(j.outbox()) == queued
    assert j.processor.context.db.execute("SELECT count(*) FROM guard_failures").fetchone()[0] == 0
    j.close()


# -- header injection --------------------------------------------------------------------------------
@pytest.mark.parametrize("header, address", [
    ("=?utf-8?q?a=0D=0ABcc:_v@evil.test?= <ann@dip.test>", "ann@dip.test"),   # parseaddr: "_v@evil.test?="
    ("=?utf-8?q?x=0D=0ABcc=3A_v=40evil.test?= <ann@dip.test>", "ann@dip.test"),
    ("Ann <ann@dip.test>, Bob <bob@dip.test>", "ann@dip.test"),
    ("ann@dip.test", "ann@dip.test"),
])
def test_the_reply_goes_to_the_address_in_angle_brackets_behind_a_crafted_display_name(header, address):
    from email import message_from_bytes
    from judge.mail.screening.addresses import reply_address
    mail = message_from_bytes(f"From: {header}\r\nSubject: x\r\n\r\nhelp\r\n".encode())
    assert reply_address(mail, "envelope@dip.test") == address


def test_header_injection_through_register_and_set_address_fails(judge):
    """Names and addresses that would add headers or recipients are refused; no mail the judge
    queues has a header it did not write or a recipient that is not one plain address."""
    judge.mail("ann@dip.test", "register ann\x07bcc pw")
    judge.mail("bob@dip.test", "register bob bob-pw\nset address bob@dip.test>Bcc:<victim@evil.test")
    judge.send(b"Reply-To: =?utf-8?q?x=0D=0ABcc=3A_v=40evil.test?= <carl@dip.test>\r\n"
               + compose("carl@dip.test", "register carl carl-pw"), mail_from="carl@dip.test")
    for name in ("ann\x07bcc",):
        with pytest.raises(KeyError):
            judge.service.accounts.get(name)
    assert judge.service.accounts.get("bob").addresses == ("bob@dip.test",)
    for out in judge.outbox().values():
        assert all(check_address(r) == r for r in out.to)
        assert "victim@evil.test" not in out.to and b"\nBcc:" not in out.raw and b"\nbcc:" not in out.raw.lower()
