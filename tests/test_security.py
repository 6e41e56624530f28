"""The security suite: each attack on a running `judge serve`, by mail over SMTP, and that it fails.

One test per attack. One judge serves the whole module (tests/securityjudge.py, started once: a
`judge serve` costs seconds), and each test plays at its own `table` on it: its own game under way
with seven players and a master, its own accounts, addresses and computers, so that no test sees
another's mail, nor another's wrong passwords counted against it. Attacks that are not by mail (a
message dispatched again after a crash, mail read out of its arrival order) use the in-process
judge of tests/mailjudge.py.
"""
from __future__ import annotations

import subprocess

import pytest

from judge.games.accounts import check_address
from judge.mail.screening.robot_mail import classify
from judge.mail.screening.tokens import _LETTERS, _TOKEN, ReplyTokens, _new_token
from judge.storage.db import open_db
from judge.mail.screening.password_guard import FREE

from mailjudge import MailJudge, mail
from securityjudge import JUDGE, ServedJudge, compose

pytestmark = pytest.mark.xdist_group("security")     # one worker starts the one judge


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    judge = ServedJudge(tmp_path_factory.mktemp("served"))
    yield judge
    judge.stop()


@pytest.fixture
def table(served):
    """This test's own game, accounts, addresses and computers on the module's judge."""
    return served.table()


def to(outs, address):
    return [o for o in outs if address in o.to]


RELAY = "127.0.0.1"     # the relay in front ([smtp] relays): it may name the client with XFORWARD


# -- guessing passwords ------------------------------------------------------------------------------
def test_register_guessing_then_set_address_is_stopped(table):
    """Issue 12 #7: `REGISTER account guess` + `SET ADDRESS thief@` from a forged From, MAIL FROM
    changed every time. Guesses are counted (per account and source), and the right password, when
    finally tried, is no longer checked: the address never changes."""
    france, thief = table.france, table.at("thief")
    for n in range(16):
        table.mail(france.address, f"register {france.account} guess{n}\nset address {thief}",
                   mail_from=table.at(f"bounce{n}"))
    outs = table.mail(france.address, f"register {france.account} {france.password}\nset address {thief}",
                      mail_from=table.at("bounce99"))
    assert table.service.accounts.get(france.account).addresses == (france.address,)
    assert "too many wrong passwords" in to(outs, france.address)[0].text
    [[counted]] = table.judge.rows("SELECT count(*) FROM guard_failures WHERE subject = ?",
                                   [f"account:{france.account}"])
    assert counted >= FREE["from"]
    assert not any(thief in o.to for o in outs)


@pytest.mark.parametrize("command", [
    "signon F{game} {pw}", "register {account} {pw}", "join {game} {pw}", "observe {game} {pw}",
    "create {other} {pw}", "become master {pw}"])
def test_every_command_that_takes_a_password_is_guarded(table, command):
    """Each command that checks a password goes through the one guard: after the free guesses
    (each from a new envelope sender), even the right password is refused for a while."""
    france = table.france

    def said(password: str) -> str:
        return command.format(game=table.game, other=table.other, account=france.account, pw=password)

    for n in range(FREE["account"]):
        table.mail(france.address, said(f"guess{n}"), mail_from=table.at(f"b{n}"))
    outs = table.mail(france.address, said(france.password), mail_from=table.at("b99"))
    assert "too many wrong passwords" in to(outs, france.address)[0].text
    assert table.service.status(table.game).master == table.gm.account
    assert table.other not in [g.name for g in table.service.list_games()]


def test_rotating_mail_from_from_and_computer_does_not_reset_the_account_count(table):
    """Every guess from a new envelope sender, a new From and a new loopback address: the
    account's own count still stops the guessing."""
    for n in range(FREE["account"]):
        table.mail(table.at(f"m{n}"), f"signon F{table.game} guess{n}\nA Par - Pic", peer=table.peer(10 + n))
    outs = table.mail(table.at("m99"), f"signon F{table.game} {table.france.password}\nA Par - Pic",
                      peer=table.peer(99))
    assert table.orders("FRANCE") == []
    assert "too many wrong passwords" in to(outs, table.at("m99"))[0].text


def test_one_computer_guessing_many_accounts_is_stopped(table):
    """Per source: three wrong guesses from one computer, each for another account and from other
    addresses, and that computer's next password is not checked, even a right one."""
    italy = table.italy
    for n, power in enumerate(["A", "E", "G"]):
        table.mail(table.at(f"x{n}"), f"signon {power}{table.game} guess", peer=table.peer(20))
    outs = table.mail(table.at("x9"), f"signon I{table.game} {italy.password}\nA Ven H", peer=table.peer(20))
    assert table.orders("ITALY") == []
    assert any("too many wrong passwords" in o.text for o in outs)
    table.mail(italy.address, f"signon I{table.game} {italy.password}\nA Ven H", peer=table.peer(3))  # elsewhere: fine
    assert table.orders("ITALY") == ["A Ven H"]


def test_a_guessing_attack_cannot_lock_the_owner_out(table):
    """Lockout as denial of service: while a guesser writing from other addresses has passwords
    for France refused to everyone else, France's password from her own address still works, and
    so does her secret reply address."""
    france, stranger = table.france, table.at("stranger", "else")
    secret = table.secret_of(france)
    for n in range(FREE["account"] + 3):
        table.mail(table.at(f"m{n}"), f"signon F{table.game} guess{n}", peer=table.peer(n + 1, subnet=1))
    refused = table.mail(stranger, f"signon F{table.game} {france.password}\nA Par - Bur",
                         peer=table.peer(1, subnet=2))
    assert "too many wrong passwords" in to(refused, stranger)[0].text
    table.mail(france.address, f"signon F{table.game} {france.password}\nA Par - Bur")
    assert table.orders("FRANCE") == ["A Par - Bur"]
    table.mail(france.address, "A Par - Pic", to=secret)
    assert table.orders("FRANCE") == ["A Par - Pic"]


def test_the_owner_is_told_of_wrong_guesses(table):
    """A wrong password from an address not the owner's: the owner hears of it at their own address
    (once an hour at most), without the guess."""
    france, guesser = table.france, table.at("m")
    told = to(table.mail(guesser, f"signon F{table.game} hunter2"), france.address)
    assert len(told) == 1 and f"wrong password for your account {france.account}" in told[0].text
    assert guesser in told[0].text and "hunter2" not in told[0].raw.decode("latin-1")
    again = table.mail(table.at("m2"), f"signon F{table.game} hunter3")
    assert to(again, france.address) == []        # not again this hour


def test_guesses_through_a_relay_lock_out_no_bystander(table):
    """Every mail comes from the relay in front (127.0.0.1, naming no client): a guesser's wrong
    passwords for France are not counted against that address, so Italy's right password from a
    stranger's address still works, and France's own from her address too (she is told instead)."""
    france, italy, stranger = table.france, table.italy, table.at("stranger", "else")
    for n in range(FREE["account"] + 3):
        table.mail(table.at(f"m{n}"), f"signon F{table.game} guess{n}", peer=RELAY)
    outs = table.mail(table.at("travelling", "else"), f"signon I{table.game} {italy.password}\nA Ven H", peer=RELAY)
    assert table.orders("ITALY") == ["A Ven H"], [o.text for o in outs]
    outs = table.mail(france.address, f"signon F{table.game} {france.password}\nA Par - Bur", peer=RELAY)
    assert table.orders("FRANCE") == ["A Par - Bur"], [o.text for o in outs]
    refused = table.mail(stranger, f"signon F{table.game} {france.password}\nA Par - Pic", peer=RELAY)
    assert "too many wrong passwords" in to(refused, stranger)[0].text     # the account's count holds


def test_the_client_a_relay_names_is_counted_not_the_relay(table):
    """XFORWARD from the relay names the computer each mail came from: three wrong guesses from one,
    each at another account, and its next password is not checked; another computer behind the same
    relay signs on."""
    italy, guesser, other = table.italy, table.client(5), table.client(7)
    for n, power in enumerate(["A", "E", "G"]):
        table.mail(table.at(f"x{n}"), f"signon {power}{table.game} guess", peer=RELAY, client=guesser)
    outs = table.mail(table.at("x9"), f"signon I{table.game} {italy.password}\nA Ven H", peer=RELAY, client=guesser)
    assert table.orders("ITALY") == [] and any("too many wrong passwords" in o.text for o in outs)
    signer = table.at("x10", "else")
    table.mail(signer, f"signon I{table.game} {italy.password}\nA Ven H", peer=RELAY, client=other)
    assert table.orders("ITALY") == ["A Ven H"]
    [[peer]] = table.judge.rows("SELECT peer FROM inbound WHERE mail_from = ?", [signer])
    assert peer.startswith(f"{other}:40000 via ")


def test_a_forger_of_the_owners_address_does_not_lock_the_owner_out(table):
    """Guesses in mail forged from France's own address, from one computer: that computer is held
    back; France writing from her own address, from hers, is not (her password is taken)."""
    france, forger, hers = table.france, table.client(66), table.client(8)
    for n in range(FREE["from"] + 2):
        table.mail(france.address, f"signon F{table.game} guess{n}", peer=RELAY, client=forger)
    held = table.mail(france.address, f"signon F{table.game} {france.password}\nA Par - Pic", peer=RELAY,
                      client=forger)
    assert table.orders("FRANCE") == [] and "too many wrong passwords" in to(held, france.address)[0].text
    table.mail(france.address, f"signon F{table.game} {france.password}\nA Par - Bur", peer=RELAY, client=hers)
    assert table.orders("FRANCE") == ["A Par - Bur"]


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


def test_xforward_from_a_computer_that_is_no_relay_is_refused(served):
    """Only the relays in [smtp] relays may name another computer: anyone else is refused, and
    XFORWARD is not even offered to them. (No mail is sent: no table is needed, and 127.0.0.2 is no
    table's computer.)"""
    import smtplib
    with smtplib.SMTP("127.0.0.1", served.port, source_address=("127.0.0.2", 0)) as smtp:
        smtp.ehlo("evil.test")
        assert not smtp.has_extn("xforward")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7")[0] == 550
    with smtplib.SMTP("127.0.0.1", served.port, source_address=(RELAY, 0)) as smtp:
        smtp.ehlo("relay.dip.test")
        assert smtp.has_extn("xforward")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7 COLOUR=red")[0] == 501
        smtp.mail("a@dip.test")
        assert smtp.docmd("XFORWARD", "ADDR=198.51.100.7")[0] == 503


# -- secret reply addresses --------------------------------------------------------------------------
def test_a_foreign_signon_is_answered_to_the_owner_only(table):
    """The right password from a thief's address: the answer, and with it France's secret reply
    address, goes to France's own address only, saying plainly someone else may have sent it."""
    france, thief = table.france, table.at("thief")
    outs = table.mail(thief, f"signon F{table.game} {france.password}\nA Par - Bur")
    assert to(outs, thief) == []
    [own] = to(outs, france.address)
    assert own.to == [france.address] and "Someone else may have sent it" in own.text
    assert all(o.to == [france.address] for o in outs if "judge+" in str(o.mail["Reply-To"] or ""))


def test_a_reply_to_set_by_a_forger_never_gets_the_secret_address(table):
    """From: france@, Reply-To: thief@ with France's password: answered to France only."""
    france, thief = table.france, table.at("thief")
    outs = table.mail(france.address, f"signon F{table.game} {france.password}", headers={"Reply-To": thief})
    assert to(outs, thief) == [] and to(outs, france.address)


def test_a_token_only_in_cc_does_not_sign_on(table):
    """The secret address in Cc (or To) but not among the envelope recipients proves nothing."""
    secret = table.secret_of(table.france)
    table.mail(table.france.address, "A Par - Pic", to="judge@dip.test", rcpt=["judge@dip.test"],
               headers={"Cc": secret, "Delivered-To": secret})
    assert table.orders("FRANCE") == []


def test_an_allys_reply_all_to_the_token_does_not_sign_on(table):
    """Germany answers all to a mail France sent to her secret address: delivered to the token, but
    from Germany's address, so it is not France's."""
    secret = table.secret_of(table.france)
    outs = table.mail(table.germany.address, "A Par - Pic", to=secret)
    assert table.orders("FRANCE") == []
    [reply] = to(outs, table.germany.address)
    assert "not read as theirs" in reply.text and secret not in reply.raw.decode("latin-1")


def test_a_token_for_one_game_does_not_sign_on_to_another(table):
    """France plays in alpha and beta: her alpha reply address neither signs on to beta, nor
    changes what is the whole account's (password, address)."""
    svc, france, beta = table.service, table.france, table.other
    svc.create_game(beta, master=table.gm.account)
    for power, player in table.players.items():
        svc.join(beta, player.account, [power.upper()])
    secret = table.secret_of(france)
    outs = table.mail(france.address, f"signon F{beta}\nA Par - Bur\nset password mine\nset address {table.at('x')}",
                      to=secret)
    assert table.orders("FRANCE", beta) == []
    assert svc.accounts.get(france.account).addresses == (france.address,)
    assert svc.accounts.check_password(france.account, france.password)
    assert "password is needed" in to(outs, france.address)[0].text


@pytest.mark.parametrize("rotation", ["set password", "set address", "set newreply", "eject", "replace"])
def test_an_old_secret_address_stops_working(table, rotation):
    """A secret reply address is replaced on SET PASSWORD, SET ADDRESS, SET NEWREPLY (on request),
    and for the ousted player on EJECT and REPLACE: mail to the old one is not France's any more."""
    france, gm = table.france, table.gm
    secret = table.secret_of(france)
    frm = france.address
    signon = f"signon F{table.game} {france.password}"
    if rotation == "set password":
        table.mail(frm, f"{signon}\nset password better-pw")
    elif rotation == "set address":
        frm = table.at("france2", "dip")
        table.mail(france.address, f"{signon}\nset address {frm}")
    elif rotation == "set newreply":
        table.mail(frm, "A Par H", to=secret)
        table.mail(frm, "set newreply", to=secret)
    else:
        table.mail(gm.address, f"signon M{table.game} {gm.password}\n" + (
            "eject France" if rotation == "eject" else f"replace France {table.spare.address}"))
    before = table.orders("FRANCE")
    outs = table.mail(frm, "A Par - Pic", to=secret)
    assert table.orders("FRANCE") == before and "A Par - Pic" not in before
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
def test_a_replay_with_a_header_added_is_not_applied(table):
    """The same mail again with one header added: not applied, so its old orders do not replace
    the newer ones."""
    france = table.france
    signon = f"signon F{table.game} {france.password}"
    first = compose(france.address, f"{signon}\nA Par - Bur")
    table.send(first, mail_from=france.address)
    table.mail(france.address, f"{signon}\nA Par - Pic")
    outs = table.send(b"X-Resent: yes\r\n" + first, mail_from=france.address)
    assert table.orders("FRANCE") == ["A Par - Pic"]
    assert "was not read again" in to(outs, france.address)[0].text


def test_a_replay_without_message_id_is_not_applied(table):
    """A mail without a Message-ID, sent again with a header added; and a mail that had one, sent
    again with it removed: neither is applied again."""
    germany, italy = table.germany, table.italy
    bare = compose(germany.address, f"signon G{table.game} {germany.password}\nA Ber - Kie", message_id=False)
    table.send(bare, mail_from=germany.address)
    table.mail(germany.address, f"signon G{table.game} {germany.password}\nA Ber - Mun")
    table.send(b"X-Loop: 1\r\n" + bare, mail_from=germany.address)
    assert table.orders("GERMANY") == ["A Ber - Mun"]
    had = compose(italy.address, f"signon I{table.game} {italy.password}\nA Ven - Tyr")
    table.send(had, mail_from=italy.address)
    table.mail(italy.address, f"signon I{table.game} {italy.password}\nA Ven H")
    stripped = b"\r\n".join(line for line in had.split(b"\r\n") if not line.lower().startswith(b"message-id:"))
    table.send(stripped, mail_from=italy.address)
    assert table.orders("ITALY") == ["A Ven H"]


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
def test_no_password_stays_in_the_archive_or_a_backup(table, tmp_path):
    """After the mail is handled its raw copy holds no password (nor does its exact redelivery),
    in the judge file on disk or in a backup of it. (The passwords are this table's own: no other
    test's mail holds them.)"""
    turkey, russia, judge = table.turkey, table.russia, table.judge
    new = f"Zebra-{table.n}-Quartz"
    turkeys = [turkey.password.encode(), new.encode()]
    raw = compose(turkey.address, f"signon T{table.game} {turkey.password}\nset password {new}\nF Ank - Bla",
                  headers={"Subject": f"signon T{table.game} {turkey.password}"})
    table.send(raw, mail_from=turkey.address)
    table.send(raw, mail_from=turkey.address)            # redelivered, byte for byte
    table.mail(russia.address, f"<p>signon R{table.game} {russia.password}</p>", html=True)
    stored = [bytes(r[0]) for r in judge.rows("SELECT raw FROM inbound")]
    assert stored and not any(pw in r for r in stored for pw in [*turkeys, russia.password.encode()])
    assert table.orders("TURKEY") == ["F Ank - Bla"]
    judge.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    for path in judge.db.parent.glob("judge.sqlite*"):
        data = path.read_bytes()
        assert not any(pw in data for pw in turkeys), path
    subprocess.run([str(JUDGE), "backup", str(tmp_path / "bk")], cwd=judge.dir, check=True, capture_output=True)
    for path in (tmp_path / "bk").rglob("*"):
        if path.is_file():
            assert not any(pw in path.read_bytes() for pw in turkeys), path


def test_a_served_judge_hashes_passwords_at_the_shipped_cost(table):
    """In-process the tests hash cheaply (tests/conftest.py); a real `judge serve` must not: a password
    set by mail is stored as scrypt at the cost the judge ships (n = 2**14, r = 8, p = 1)."""
    turkey = table.turkey
    table.mail(turkey.address, f"signon T{table.game} {turkey.password}\nset password Zebra-Quartz-71")
    [[stored]] = table.judge.rows("SELECT password FROM accounts WHERE name = ?", [turkey.account])
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


def test_header_injection_through_register_and_set_address_fails(table):
    """Names and addresses that would add headers or recipients are refused; no mail the judge
    queues has a header it did not write or a recipient that is not one plain address."""
    n, victim = table.n, table.at("victim")
    bob, carl = table.at("bob", "dip"), table.at("carl", "dip")
    table.mail(table.at("ann", "dip"), f"register ann{n}\x07bcc pw")
    table.mail(bob, f"register bob{n} bob-pw\nset address {bob}>Bcc:<{victim}")
    table.send(f"Reply-To: =?utf-8?q?x=0D=0ABcc=3A_v=40evil.test?= <{carl}>\r\n".encode()
               + compose(carl, f"register carl{n} carl-pw"), mail_from=carl)
    with pytest.raises(KeyError):
        table.service.accounts.get(f"ann{n}\x07bcc")
    assert table.service.accounts.get(f"bob{n}").addresses == (bob,)
    queued = table.queued()
    assert queued
    for out in queued:
        assert all(check_address(r) == r for r in out.to)
        assert victim not in out.to and b"\nBcc:" not in out.raw and b"\nbcc:" not in out.raw.lower()


def test_a_new_reply_token_is_twenty_letters_or_digits_each_as_likely_as_any():
    """The secret in a reply address: 20 of the 36 letters and digits, each place taking every one of
    them (a draw from too small a range would leave the last places always 'a')."""
    tokens = [_new_token() for _ in range(3000)]
    assert all(_TOKEN.fullmatch(token) for token in tokens) and len(set(tokens)) == len(tokens)
    for place in range(20):
        assert {token[place] for token in tokens} == set(_LETTERS)


def test_a_reply_token_is_made_once_and_kept_for_its_player_and_game(tmp_path):
    """The token made on first use is the one read back then and ever after, and one game's is not
    another's."""
    tokens = ReplyTokens(open_db(tmp_path / "judge.sqlite"), "judge@dip.test")
    first = tokens.token_for("ann", "alpha")
    assert _TOKEN.fullmatch(first) and tokens.token_for("ann", "alpha") == first
    assert tokens.address_for("ann", "alpha") == f"judge+alpha.{first}@dip.test"
    assert tokens.token_for("ann", "beta") not in (first, tokens.token_for("bob", "alpha"))
