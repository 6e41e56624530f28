"""The players' guide in docs/help.md is what HELP answers by mail, topic by topic: made here from the
same template (templates/reply_help.j2) and held equal to the file by tests/test_docs.py, so the two
never drift. `python -m judge.mail.commands.help_pages > docs/help.md` writes it anew."""
from __future__ import annotations

from ..words.reports import Reports
from .game_settings import HELP_SETTINGS

TOPICS = ("orders", "commands", "press", "master", "settings", "deadlines", "digest")


def help_document(reports: Reports | None = None) -> str:
    reports = reports or Reports()
    parts = ["# What HELP says", "",
             "Each section is the judge's answer to `HELP` or `HELP <topic>` by mail, as sent.", ""]
    for topic in (None, *TOPICS):
        answer = reports.render("reply_help.j2", topic=topic, settings=HELP_SETTINGS)
        parts += [f"## HELP{' ' + topic.upper() if topic else ''}", "", "```", answer.body.rstrip("\n"), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    print(help_document(), end="")
