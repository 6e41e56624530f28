"""Issue 23, item 12: orders that arrive just after a deadline, written before their sender could
have seen the results, are answered "too late for Spring 1901, not used" and never filed for the
next phase. Through the real dispatcher (tests/mailjudge.py), the archive and the games on one
manual clock; the deadline is played as the daemon's tick plays it (GameService.run_due)."""
from datetime import timedelta

from judge.games.clock import parse_time
from judge.games.model import Settings
from judge.games.submissions import RESULTS_READ_SECONDS
from judge.mail.intake.archive import Archive
from judge.mail.outbound.courier import Courier

from mailjudge import POWERS, MailJudge, mail


def seven_players(judge: MailJudge) -> None:
    service = judge.service
    service.create_account("gm", "gm@dip.test", "gm-secret")
    service.create_game("alpha", master="gm", settings=Settings(grace_hours=0, pictures=False))
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@dip.test", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])


class Judge:
    """A mail judge whose archive takes mail in at the games' manual clock."""

    def __init__(self, tmp_path):
        self.mj = MailJudge(tmp_path)
        self.mj.dispatch.courier = Courier(self.mj.service, self.mj.config)   # results go out after each mail
        seven_players(self.mj)
        self.archive = Archive(self.mj.config.db_path, clock=lambda: self.mj.clock().timestamp())

    def play_at_the_deadline(self) -> None:
        deadline = parse_time(self.mj.service.status("alpha").deadline["utc"])
        self.mj.clock.set(deadline)
        self.mj.service.run_due(deadline)

    def orders(self, power: str, body: str) -> str:
        """The power's mail, taken in now and handled; the text of the judge's answer."""
        before = self.mj.last_outbox_row()
        frm = f"{power.lower()}@dip.test"
        self.archive.store(mail(frm, f"signon {power[0]}alpha {power.lower()}-pw\n{body}"), mail_from=frm,
                           rcpt_tos=["judge@dip.test"], via="smtp")
        self.mj.processor.process_next()
        [answer] = [s for s in self.mj.outbox(after=before) if frm in s.to and s.mail["In-Reply-To"]]
        return answer.text

    def close(self) -> None:
        self.mj.close()
        self.archive.close()


def test_spring_orders_one_second_after_the_deadline_are_too_late_and_not_filed_for_fall(tmp_path):
    judge = Judge(tmp_path)
    judge.play_at_the_deadline()
    assert judge.mj.service.status("alpha").phase == "F1901M"
    judge.mj.clock.advance(seconds=1)
    text = judge.orders("FRANCE", "A Par - Bur\nF Bre - Mao")
    assert ("A Par - Bur too late for Spring 1901 Movement (played at Wed 04 Mar 2026 12:00 UTC), not used;"
            " now Fall 1901 Movement, deadline") in text
    assert "France in alpha, Fall 1901 Movement" in text
    assert judge.mj.service.confirmation("alpha", "FRANCE").orders == ()
    judge.close()


def test_orders_after_the_results_went_out_are_for_the_new_phase(tmp_path):
    judge = Judge(tmp_path)
    judge.play_at_the_deadline()
    judge.mj.clock.advance(seconds=1)
    judge.orders("ENGLAND", "F Lon - Nth")       # its answer comes with everyone's results (the courier)
    judge.mj.clock.advance(seconds=1 + RESULTS_READ_SECONDS)   # France's results are out: these are for Fall
    text = judge.orders("FRANCE", "A Par - Pic")
    assert "too late" not in text
    assert [o["written"] for o in judge.mj.service.confirmation("alpha", "FRANCE").orders] == ["A Par - Pic"]
    judge.close()


def test_orders_before_the_deadline_are_played_exactly(tmp_path):
    judge = Judge(tmp_path)
    deadline = parse_time(judge.mj.service.status("alpha").deadline["utc"])
    judge.mj.clock.set(deadline - timedelta(seconds=1))
    assert "too late" not in judge.orders("FRANCE", "A Par - Bur")
    judge.play_at_the_deadline()
    [spring] = [p for p in judge.mj.service.history("alpha") if p.phase == "S1901M"]
    assert [o["order"] for r in spring.results for o in r["outcomes"] if o["power"] == "FRANCE"
            and o["order"].startswith("A PAR")] == ["A PAR - BUR"]
    judge.close()
