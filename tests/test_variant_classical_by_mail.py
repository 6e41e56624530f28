"""Classical by mail (issue 29): its years count down from 273 BC, named by era in every reply, result
and report (no year -272 anywhere), and a power builds in a centre it took while it holds a home
centre (REMOTE_BUILDS). One game through the mail pipeline in-process (tests/mailjudge.py)."""
from __future__ import annotations

import re

from judge.engine import load_variant
from judge.games.model import Settings
from judge.mail.outbound.courier import Courier

from mailjudge import MailJudge

CLASSICAL = load_variant("classical")


def _words(text: str) -> str:
    return " ".join(text.split())


def test_a_classical_game_by_mail_names_its_years_by_era_and_builds_where_it_took_a_centre(tmp_path):
    j = MailJudge(tmp_path)
    j.dispatch.courier = Courier(j.service, j.config)       # the notices go out with the replies
    try:
        j.service.create_account("gm", "gm@dip.test", "gm-secret")
        j.service.create_game("rome", variant="classical", master="gm", settings=Settings(pictures=False))
        for p in CLASSICAL.powers:
            j.service.create_account(p.id.lower(), f"{p.id.lower()}@dip.test", f"{p.id.lower()}-pw")
            j.service.join("rome", p.id.lower(), [p.id])
        assert j.service.status("rome").phase == "B273M"
        sent = []

        def mail(frm: str, text: str) -> str:
            out = j.send(frm, text)
            sent.extend(out)
            [reply] = [s for s in out if frm in s.to and s.mail["In-Reply-To"]]
            return _words(reply.body)

        answer = mail("rome@dip.test", "SIGNON Rrome rome-pw\nA Rom - Etr")
        assert "ERROR" not in answer and "273 BC Movement" in answer, answer
        answer = mail("gm@dip.test", "SIGNON Mrome gm-secret\nPROCESS")
        assert "B273M: processed" in answer, answer
        assert j.service.status("rome").phase == "B272M"
        mail("rome@dip.test", "SIGNON Rrome rome-pw\nA Etr - Cis")
        mail("gm@dip.test", "SIGNON Mrome gm-secret\nPROCESS")
        assert j.service.status("rome").phase == "B272A"
        assert "CIS" in j.service.status("rome").position["centres"]["ROME"]

        answer = mail("rome@dip.test", "SIGNON Rrome rome-pw\nBuild A Cis")   # Cisalpina: no home, but taken
        assert "ERROR" not in answer and "272 BC Adjustment" in answer, answer
        answer = mail("syria@dip.test", "SIGNON Ssyria syria-pw\nBuild A Dam")
        mail("gm@dip.test", "SIGNON Mrome gm-secret\nPROCESS")
        assert "A CIS" in j.service.status("rome").position["units"]["ROME"]
        assert j.service.status("rome").phase == "B271M"

        answer = mail("rome@dip.test", "HISTORY rome B273M B272A")      # the era's phase codes read
        assert "B273M to B272A" in answer and "ERROR" not in answer, answer
        for p in CLASSICAL.powers:
            mail(f"{p.id.lower()}@dip.test", f"SIGNON {p.letter}rome {p.id.lower()}-pw\nSET DRAW")
        assert j.service.status("rome").status == "finished"
        [end] = [s for s in sent if "rome@dip.test" in s.to and "is over" in s.subject]
        text = _words(end.body)
        assert "The game ended in 271 BC Movement." in text, text
        assert "Power Start 273 BC 272 BC 271 BC" in text and "Rome rome 4" in text, text   # the centre table
        everything = "\n".join(s.subject + "\n" + s.body for s in sent)
        assert not re.search(r"-27[0-3]\b|\b27[0-3] B\.C\.", everything)      # never the year kept, nor DPjudge's
        assert "273 BC" in everything and "271 BC Movement" in everything
    finally:
        j.close()
