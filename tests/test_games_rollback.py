"""ROLLBACK puts the powers back as they were when the phase began, and its notice tells each
player what must be decided again, dislodged units included."""
from __future__ import annotations

import sqlite3

from judge.mail.words.notices import render_notice
from judge.mail.words.reports import Reports

from test_games_helpers import process_at_deadline, seven_player_game, service, submit


def powers(tmp_path, game: str) -> dict[str, tuple[str, int]]:
    with sqlite3.connect(tmp_path / "var" / "games" / f"{game}.sqlite") as db:
        return {p: (s, m) for p, s, m in db.execute("SELECT power, status, missed FROM powers")}


def rollback_mail(svc, game: str, recipient: str) -> str:
    *_, notice = [n for n in svc.pending_notices(game) if n.kind == "rollback" and n.recipient == recipient]
    return " ".join(render_notice(Reports(), svc, notice).body.split())


def test_rollback_undoes_civil_disorder_and_abandonment_and_lists_the_dislodged_unit(tmp_path):
    svc, clock = service(tmp_path)
    seven_player_game(svc, settings={"abandon_after": 2})
    # Spring 1901: Austria sends nothing (civil disorder, one phase missed)
    submit(svc, "alpha", "FRANCE", "A MAR - BUR", "A PAR - PIC", "F BRE H")
    submit(svc, "alpha", "GERMANY", "A MUN - RUH", "A BER - MUN", "F KIE H")
    process_at_deadline(svc, clock, "alpha")
    at_fall = powers(tmp_path, "alpha")
    assert at_fall["AUSTRIA"] == ("civil disorder", 1)
    # Fall 1901: Austria misses again (abandoned); Germany dislodges the French army in Burgundy
    submit(svc, "alpha", "FRANCE", "A BUR H", "A PIC H", "F BRE H")
    submit(svc, "alpha", "GERMANY", "A RUH - BUR", "A MUN S A RUH - BUR", "F KIE H")
    process_at_deadline(svc, clock, "alpha")
    assert svc.status("alpha").phase == "F1901R"
    assert powers(tmp_path, "alpha")["AUSTRIA"] == ("abandoned", 2)
    at_retreat = powers(tmp_path, "alpha")
    process_at_deadline(svc, clock, "alpha")     # France sends no retreat: civil disorder, the army disbanded
    assert powers(tmp_path, "alpha")["FRANCE"] == ("civil disorder", 1)

    svc.rollback("alpha", "F1901R")
    assert svc.status("alpha").phase == "F1901R"
    assert powers(tmp_path, "alpha") == at_retreat          # France active again, nothing missed
    mail = rollback_mail(svc, "alpha", "p-france")
    assert "What you must decide again:" in mail
    assert "France's dislodged army in Burgundy retreats to " in mail and "or disbands." in mail
    assert "Gascony" in mail and "Ruhr" not in mail.split("What you must decide again:")[1]

    svc.rollback("alpha", "F1901M")
    assert powers(tmp_path, "alpha") == at_fall              # Austria back in civil disorder, one missed
    mail = rollback_mail(svc, "alpha", "p-france")
    assert "France must order its fleet in Brest, army in Burgundy and army in Picardy." in mail
