"""judge/mail/commands/dispatch.py: a stored mail in, commands and orders done, one confirmation out."""
import pytest

from judge.mail.intake.archive import Archive
from judge.mail.screening.robot_mail import classify
from judge.mail.screening.password_guard import FREE

from mailjudge import mail


@pytest.fixture
def judge(judge):
    judge.seven_players()
    return judge


def test_signon_and_orders_get_a_full_confirmation(judge):
    reply = judge.reply_to("france@dip.test", "SIGNON Falpha france-pw\nA Par-Bur\nF Bre - Mid\nA Mar Sp\n"
                                              "Hello\n\n-- \nFrançoise, sent from a phone")
    body = reply.body
    assert "Army Paris -> Burgundy" in body and "Fleet Brest -> Mid-Atlantic Ocean" in body
    assert "ERROR on line 4: A Mar Sp" in body and "did you mean: Spain" in body
    assert "Not read as orders or commands (greetings and the like): Hello" in body and "Françoise" not in body
    assert "France is not in yet" in body and "- Army Marseilles: no order (it holds unless you order it)" in body
    assert "(UTC)" in body and "(Asia/Tokyo)" in body and "Time left: 2 days\r\n" in body
    assert "You are not waiting" in body
    assert "france-pw" not in str(reply.mail) and "SIGNON Falpha ********" in body.replace("signon", "SIGNON")
    m = reply.mail
    assert m["Auto-Submitted"] == "auto-replied" and m["In-Reply-To"] and m["References"]
    assert m["Reply-To"].startswith("judge+") and m["Reply-To"].endswith("@dip.test")
    orders = judge.service.confirmation("alpha", "FRANCE").orders
    assert [o["written"] for o in orders] == ["A Par-Bur", "F Bre - Mid"]


def test_a_wrong_password_takes_no_orders_and_is_never_echoed(judge):
    reply = judge.reply_to("france@dip.test", "signon Falpha guess-me\nA Par-Pic\nset wait")
    assert "the password is not right" in reply.body and "did not succeed" in reply.body
    assert "SIGNON Falpha password" in reply.body   # how to fix it
    assert "guess-me" not in str(reply.mail)
    assert judge.service.confirmation("alpha", "FRANCE").orders == ()
    assert "set wait needs a game" in reply.body.lower()


def test_a_spoofed_sender_without_the_password_gets_nothing_done(judge):
    sent = judge.send("france@dip.test", "A Par - Pic\nF Bre - Eng", headers={"Sender": "mallory@evil.test"})
    assert [s.to for s in sent] == [["france@dip.test"]]
    assert "orders need a game: sign on first" in sent[0].body
    assert judge.service.confirmation("alpha", "FRANCE").orders == ()


def test_signon_from_an_unregistered_address_answers_the_owner_only_and_alerts_the_master(judge):
    sent = judge.send("cafe@elsewhere.test", "signon Ealpha england-pw\nF Lon - Nth")
    by_to = {tuple(s.to): s for s in sent}
    assert set(by_to) == {("england@dip.test",), ("gm@dip.test",)}
    alert = by_to[("gm@dip.test",)]
    assert "cafe@elsewhere.test" in alert.body and "england-pw" not in str(alert.mail)
    assert "Fleet London -> North Sea" in by_to[("england@dip.test",)].body
    assert "Someone else may have sent it" in by_to[("england@dip.test",)].text


def test_the_secret_reply_address_takes_orders_without_a_password(judge):
    first = judge.reply_to("italy@dip.test", "signon Ialpha italy-pw")
    secret = str(first.mail["Reply-To"])
    html = ("<html><body><div>A Ven - Tri<br>F Nap - Ion</div><div>-- <br>Ivo</div>"
            "<blockquote>signon Ialpha italy-pw<br>A Rom - Apu</blockquote></body></html>")
    reply = judge.reply_to("italy@dip.test", html, to=secret, html=True, subject="Re: orders")
    assert "Army Venice -> Trieste" in reply.body and "Fleet Naples -> Ionian Sea" in reply.body
    assert "Rome" not in reply.body.split("===")[0]
    standing = judge.service.confirmation("alpha", "ITALY").orders
    assert [o["written"] for o in standing] == ["A Ven - Tri", "F Nap - Ion"]
    # a made-up token is nobody's
    wrong = judge.reply_to("italy@dip.test", "A Ven H", to="judge+aaaaaaaaaaaaaaaaaaaa@dip.test")
    assert "sign on first" in wrong.body


def test_quoted_replies_are_not_read_again(judge):
    body = ("signon Galpha germany-pw\nA Ber - Kie\n\nOn Mon, 2 Mar 2026, Judge wrote:\n> A Mun - Ruh\n"
            "> ERROR on line 3\n")
    reply = judge.reply_to("germany@dip.test", body)
    assert "ERROR" not in reply.body.split("===")[0]
    assert [o["written"] for o in judge.service.confirmation("alpha", "GERMANY").orders] == ["A Ber - Kie"]


def test_dispatching_a_message_twice_does_nothing_twice(judge):
    judge.reply_to("gm@dip.test", "signon Malpha gm-secret\nextend 24")
    deadline = judge.service.status("alpha").deadline["utc"]
    stored = judge.processor.archive.store(
        mail("austria@dip.test", "signon Aalpha austria-pw\nA Vie - Gal\npress to england\nhi\nendpress"),
        mail_from="austria@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    gm = judge.processor.archive.store(mail("gm@dip.test", "signon Malpha gm-secret\nextend 24"),
                                       mail_from="gm@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    verdicts = [classify(m.raw, m.mail_from) for m in (stored, gm)]
    for _ in range(2):
        judge.dispatch(stored, verdicts[0], judge.processor.context)
        judge.dispatch(gm, verdicts[1], judge.processor.context)
    assert len(judge.service.history("alpha")) == 1
    assert judge.service.status("alpha").deadline["utc"] > deadline
    extended_once = judge.service.status("alpha").deadline["utc"]
    judge.dispatch(gm, verdicts[1], judge.processor.context)
    assert judge.service.status("alpha").deadline["utc"] == extended_once
    replies = [s for s in judge.outbox() if "austria@dip.test" in s.to]
    assert len(replies) == 1
    press = [n for n in judge.service.pending_notices("alpha") if n.kind == "press"]
    assert sorted(n.recipient for n in press) == ["england", "gm"]     # once, and the master's copy


def test_mail_the_loop_rules_forbid_is_neither_read_nor_answered(judge):
    sent = judge.send("france@dip.test", "signon Falpha france-pw\nA Par - Bur",
                      headers={"Auto-Submitted": "auto-replied"})
    assert sent == []
    assert judge.service.confirmation("alpha", "FRANCE").orders == ()
    assert "not answered" in Archive(judge.config.db_path).state_of(judge.last.id)[1]


def test_an_empty_mail_gets_instructions(judge):
    reply = judge.reply_to("nobody@else.test", "\n\n")
    # a stranger learns how to get an account and a game; a player how to sign on
    assert "nothing to do" in reply.body and "REGISTER name password" in reply.body and "JOIN game" in reply.body
    reply = judge.reply_to("france@dip.test", "Hi judge, how are you?")
    assert "nothing to do" in reply.body and "SIGNON Fgame password" in reply.body and "REGISTER" not in reply.body


def test_an_address_that_bounced_works_again_when_its_owner_writes(judge):
    judge.send("france@dip.test", "list")
    archive = Archive(judge.config.db_path)
    archive.record_bounce("france@dip.test", "mailbox full", judge.last.id)
    assert archive.is_failing("france@dip.test")
    judge.reply_to("france@dip.test", "list")
    assert not archive.is_failing("france@dip.test")
    archive.close()


def test_mail_taken_by_imap_finds_the_reply_address_in_its_headers(judge):
    first = judge.reply_to("turkey@dip.test", "signon Talpha turkey-pw")
    secret = str(first.mail["Reply-To"])
    # the mailbox's server writes where it delivered the mail at the top, above any header a sender wrote
    raw = b"Delivered-To: " + secret.encode() + b"\r\n" + mail("turkey@dip.test", "F Ank - Bla", to=secret,
                                                                subject="Re: orders")
    judge.processor.archive.store(raw, mail_from=None, rcpt_tos=(), via="imap", peer="imap.test UID 7")
    judge.processor.process_next()
    assert [o["written"] for o in judge.service.confirmation("alpha", "TURKEY").orders] == ["F Ank - Bla"]


def test_the_secret_address_only_ever_goes_to_a_registered_address_or_a_proven_player(judge):
    stranger = judge.reply_to("nobody@else.test", "list")
    assert "Reply-To" not in stranger.mail
    forged = judge.send("france@dip.test", "list", headers={"Reply-To": "mallory@evil.test"})
    [to_mallory] = [s for s in forged if s.to == ["mallory@evil.test"]]
    assert "Reply-To" not in to_mallory.mail            # mallory's own address: not registered, nothing proven
    own = judge.reply_to("france@dip.test", "list")
    assert str(own.mail["Reply-To"]).startswith("judge+")  # to France's registered address: France's secret


def test_a_crash_after_the_deed_but_before_its_answer_was_kept_does_not_do_it_twice(judge):
    gm = judge.processor.archive.store(mail("gm@dip.test", "signon Malpha gm-secret\nextend 6\nprocess\npause"),
                                       mail_from="gm@dip.test", rcpt_tos=["judge@dip.test"], via="smtp")
    verdict = classify(gm.raw, gm.mail_from)
    judge.dispatch(gm, verdict, judge.processor.context)
    after = judge.service.status("alpha")
    with judge.processor.context.db.conn:      # the answers were never recorded: as if it crashed there
        judge.processor.context.db.conn.execute("DELETE FROM dispatch_steps")
    judge.dispatch(gm, verdict, judge.processor.context)
    again = judge.service.status("alpha")
    assert again.phase == after.phase == "F1901M" and again.status == "paused"
    assert again.deadline == after.deadline
    assert len([h for h in judge.service.history("alpha") if h.processed_at]) == 1


def test_guessing_a_password_is_soon_refused_and_the_master_told(judge):
    for n in range(FREE["account"]):      # each guess from a new address: the account's own count stops them
        sent = judge.send(f"mallory{n}@evil.test", f"signon Falpha guess{n}\nA Par-Pic")
    assert any(s.to == ["gm@dip.test"] and "wrong passwords for france" in s.body for s in sent)
    refused = judge.reply_to("mallory9@evil.test", "signon Falpha france-pw\nA Par-Pic")
    assert "too many wrong passwords" in refused.body and "reply address" in refused.body
    assert judge.service.confirmation("alpha", "FRANCE").orders == ()
    judge.clock.advance(minutes=16)
    ok = judge.reply_to("france@dip.test", "signon Falpha france-pw\nA Par-Pic")
    assert "Army Paris -> Picardy" in ok.body


def test_attachments_are_named_as_not_read(judge):
    from email.message import EmailMessage
    from email import policy
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = "france@dip.test", "judge@dip.test", "orders", "<att-1@p.test>"
    m.set_content("SIGNON Falpha france-pw\nA Par - Bur\n")
    m.add_attachment(b"A Mar - Spa\n", maintype="text", subtype="plain", filename="orders.txt")
    judge.processor.archive.store(m.as_bytes(policy=policy.SMTP), mail_from="france@dip.test",
                                  rcpt_tos=["judge@dip.test"], via="smtp")
    judge.processor.process_next()
    [reply] = [s for s in judge.outbox() if s.to == ["france@dip.test"]]
    assert "Attachments are not read: orders.txt" in reply.body and "Army Paris -> Burgundy" in reply.body
    assert [o["written"] for o in judge.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Bur"]


def test_a_bounce_tells_the_master_of_each_game_the_player_is_in(judge):
    from test_mail_loops import DSN
    dsn = DSN.replace(b"austria@example.net", b"austria@dip.test")
    judge.processor.archive.store(dsn, mail_from="", rcpt_tos=["judge@dip.test"], via="smtp")
    bounce = judge.processor.process_next()
    state, outcome = judge.processor.archive.state_of(bounce.id)
    assert state == "processed" and "masters told: alpha (AUSTRIA)" in outcome
    sent = judge.outbox()
    to_master = [s for s in sent if s.to == ["gm@dip.test"]]
    assert len(to_master) == 1 and "mail to the player of Austria bounced" in to_master[0].subject
    assert "austria@dip.test" in to_master[0].body and "550 5.1.1" in to_master[0].body
    assert any(s.to == ["keeper@dip.test"] for s in sent)          # the judge keeper hears of it too
    assert not any("austria@dip.test" in s.to for s in sent)       # and no answer goes to a bounce
