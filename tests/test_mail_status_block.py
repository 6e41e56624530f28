"""The status block (what is still owed, the deadline, the time left) ends every reply to a player
who sent orders in a game: also when no line of the mail could be taken, and when the mail came too
late for the phase it was written for, which the reply names with the phase now and its deadline."""
from __future__ import annotations

from judge.mail.intake.archive import Archive
from mailjudge import MailJudge, mail


def test_a_mail_whose_every_order_fails_still_ends_with_what_is_owed(playing):
    judge = playing
    first = judge.reply_to("italy@dip.test", "signon Ialpha italy-pw")
    secret = str(first.mail["Reply-To"])    # no SIGNON in the mail: the orders alone name the game
    reply = judge.reply_to("italy@dip.test", "A Ven H H\nA Rom Q Q Q", to=secret, subject="Re: orders")
    body = reply.body
    assert "ERROR on line 1: A Ven H H" in body, body
    assert "=== Italy in alpha, Spring 1901 Movement ===" in body, body
    assert "Time left:" in body and "- Army Venice: no order" in body, body


def test_orders_for_a_phase_already_played_name_the_phase_now_and_its_deadline(tmp_path):
    judge = MailJudge(tmp_path)
    judge.seven_players()
    judge.clock.advance(hours=1)
    archive = Archive(judge.config.db_path, clock=lambda: judge.clock().timestamp())
    archive.store(mail("france@dip.test", "signon Falpha france-pw\nA Par - Bur"), mail_from="france@dip.test",
                  rcpt_tos=["judge@dip.test"], via="smtp")
    judge.clock.advance(hours=1)
    played = judge.clock()
    judge.service.process("alpha")          # the spring is played after the mail came, before it is read
    judge.processor.process_next()
    [answer] = [s for s in judge.outbox() if "france@dip.test" in s.to]
    body = " ".join(answer.body.split())
    deadline = judge.service.confirmation("alpha", "FRANCE").deadline
    assert deadline is not None
    assert (f"too late for Spring 1901 Movement (played at {played:%a %d %b %Y %H:%M} UTC), not used;"
            f" now Fall 1901 Movement, deadline {deadline['shown']['UTC']}") in body, body
    assert "=== France in alpha, Fall 1901 Movement ===" in body and "Time left:" in body, body
    judge.close()
    archive.close()
