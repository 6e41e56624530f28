"""The password guard behind Postfix as deployed, with the mail handed to the judge by SMTP (`lmtp =
false`, the `judgesmtp` service of deploy/postfix/master.cf): every mail reaches the judge from
127.0.0.1, and one guesser must not lock out anyone else. Postfix names each mail's computer with
XFORWARD; the players connect to Postfix from 127.0.0.2 and 127.0.0.3. Root only, as
tests/test_deploy_postfix.py."""
from __future__ import annotations

import smtplib
import sqlite3
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.games.service import GameService
from judge.mail.screening.password_guard import FREE

from mailjudge import POWERS
from servers.judge_process import JudgeServe, judge_env
from servers.net import free_port, wait_until
from servers.postfix import remove, start_postfix, why_not
from servers.sink import Sink

pytestmark = [pytest.mark.skipif(why_not() is not None, reason=why_not() or ""),
              pytest.mark.xdist_group("deploy_postfix")]

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "examples" / "judge.toml"
GUESSER, ELSEWHERE = "127.0.0.2", "127.0.0.3"


class Behind:
    def __init__(self, data: Path, postfix, judge: JudgeServe):
        self.data, self.postfix, self.judge = data, postfix, judge
        self.sent = 0

    def send(self, sender: str, body: str, *, computer: str) -> str:
        """A mail from `computer` to judge@ through Postfix, handled by the judge; its stored peer."""
        self.sent += 1
        message_id = f"guard-{self.sent}@example.net"
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "judge@example.org", "x", f"<{message_id}>"
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.postfix.port, timeout=60, source_address=(computer, 0)) as smtp:
            smtp.send_message(msg)

        def handled():
            with sqlite3.connect(self.data / "judge.sqlite") as conn:
                row = conn.execute("SELECT state, peer FROM inbound WHERE message_id = ?", [message_id]).fetchone()
            return row is not None and row[0] not in ("new", "claimed") and row
        return wait_until(handled, what=f"the judge to handle {message_id}:\n{self.postfix.log()[-3000:]}")[1]

    def orders(self, power: str) -> list[str]:
        return [o["written"] for o in GameService(self.data).confirmation("alpha", power).orders]


@pytest.fixture
def behind(tmp_path):
    data = tmp_path / "var"
    service = GameService(data)
    service.create_account("gm", "gm@example.net", "gm-secret")
    service.create_game("alpha", master="gm")
    for p in POWERS:
        service.create_account(p.lower(), f"{p.lower()}@example.net", f"{p.lower()}-pw")
        service.join("alpha", p.lower(), [p])
    judge_port = free_port()
    with Sink() as sink:
        postfix = start_postfix(judge_lmtp=f"127.0.0.1:{judge_port}",
                                replace={f"judge:inet:127.0.0.1:{judge_port}": f"judgesmtp:[127.0.0.1]:{judge_port}"},
                                outbound_transport={"example.net": f"smtp:[127.0.0.1]:{sink.port}"})
        try:
            with JudgeServe(["--config", str(EXAMPLE), "--data", str(data), "--smtp-port", str(judge_port),
                             "--relay", f"127.0.0.1:{postfix.port}"], env=judge_env(JUDGE_SMTP_LMTP="0")) as judge:
                assert f"SMTP      127.0.0.1:{judge_port}" in judge.banner
                yield Behind(data, postfix, judge)
        finally:
            remove(postfix)


def test_a_guesser_behind_postfix_locks_out_no_one_else(behind):
    for n in range(FREE["account"] + 3):
        peer = behind.send(f"m{n}@example.net", f"signon Falpha guess{n}", computer=GUESSER)
    # Another player's right password from a stranger's address on another computer: taken.
    behind.send("travelling@example.net", "signon Ialpha italy-pw\nA Ven H", computer=ELSEWHERE)
    assert behind.orders("ITALY") == ["A Ven H"]
    # The guessed account's owner from her own address, even from the guesser's computer (one NAT): taken.
    behind.send("france@example.net", "signon Falpha france-pw\nA Par - Bur", computer=GUESSER)
    assert behind.orders("FRANCE") == ["A Par - Bur"]
    assert peer.startswith(f"{GUESSER}:") and " via 127.0.0.1:" in peer     # Postfix's XFORWARD, believed
    # The guessing computer itself is held back, whoever it claims to be.
    behind.send("x@example.net", "signon Galpha germany-pw\nA Mun H", computer=GUESSER)
    assert behind.orders("GERMANY") == []
