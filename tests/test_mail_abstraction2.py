"""A whole Abstraction II game by mail: created and joined by mail, A/F orders written by hand, and
played to the end of December 1918 by the master's PROCESS, through the real dispatcher."""
from judge.mail.outbound.courier import Courier

from mailjudge import POWERS, MailJudge


def test_an_abstraction_ii_game_by_mail_from_july_1914_to_the_end(tmp_path):
    j = MailJudge(tmp_path)
    j.dispatch.courier = Courier(j.service, j.config)
    created = j.reply_to("gm@dip.test", "REGISTER gm gm-pw\nCREATE a2 gm-pw abstraction2")
    assert "created a2" in created.body
    for p in POWERS:
        j.send(f"{p.lower()}@dip.test", f"REGISTER {p.lower()} {p.lower()}-pw\nJOIN a2 {p.lower()}-pw {p}")
    starts = [s for s in j.outbox() if s.subject == "a2 has started: you play Germany"]
    assert len(starts) == 1 and "reconstructed" in starts[0].body.lower()

    def answer(frm: str, body: str) -> str:
        """The judge's reply to this mail (the notices it sets off go out with it)."""
        [reply] = [s for s in j.send(frm, body) if s.to == [frm] and s.subject.startswith("Re:")]
        return reply.body

    def orders(letter: str, power: str, *lines: str) -> str:
        return answer(f"{power}@dip.test", "\n".join([f"SIGNON {letter}a2 {power}-pw", *lines]))

    played = []

    def process(phase: str) -> None:
        done = answer("gm@dip.test", f"SIGNON Ma2 gm-pw\nPROCESS {phase}")
        assert f"a2 {phase}: processed" in done or f"a2 {phase}: finished" in done, done
        played.append(phase)

    assert "Fleet Kiel -> Baltic Sea" in orders("G", "germany", "F Kie - Bal")
    process("JUL1914M")
    embark = orders("G", "germany", "A Ber embarks F Bal")
    assert "Army Berlin embarks on Fleet Baltic Sea" in embark, embark
    process("AUG1914M")
    assert "A/F BAL" in j.service.status("a2").position["units"]["GERMANY"]
    land = orders("G", "germany", "A/F Bal disembarks A Swe")
    assert "Sweden" in land and "ERROR" not in land
    process("SEP1914M")
    units = j.service.status("a2").position["units"]["GERMANY"]
    assert "A SWE" in units and "F BAL" in units
    results = [s for s in j.outbox() if s.to == ["germany@dip.test"] and "September 1914 Movement results" in s.subject]
    assert results and results[-1].mail.get_content_type() == "multipart/mixed"   # with the board picture
    # The picture was seen; the other sixty phases' pictures would only spend the test's time.
    assert "PICTURES of a2: off" in " ".join(answer("gm@dip.test", "SIGNON Ma2 gm-pw\nSET PICTURES OFF").split())

    before_end = j.last_outbox_row()
    for _ in range(200):                       # the master plays every phase left, by mail
        status = j.service.status("a2")
        if status.status == "finished":
            break
        process(status.phase)
    status = j.service.status("a2")
    # The calendar ends the game with December 1918 and its adjustments (rule 2): Germany's build for Sweden
    # is still due, as the master's early PROCESS counts no miss and Germany is never abandoned. Nobody has
    # 23 centres, so the most units win (rule 7): Russia, the only power that began with five, as all held.
    assert status.status == "finished"
    assert played[-1] == "DEC1918A" and status.phase == "JAN1919M"
    result = status.result
    assert (result["how"], result["measure"], result["winners"]) == ("last phase", "units", ["RUSSIA"])
    assert result["counts"]["RUSSIA"] == 5 and all(n == 4 for p, n in result["counts"].items() if p != "RUSSIA")
    ends = [s.subject for s in j.outbox(after=before_end) if s.to == ["germany@dip.test"] and " is over" in s.subject]
    assert ends == ["a2 is over: Russia wins"]
    j.close()
