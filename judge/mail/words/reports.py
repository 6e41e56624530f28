"""Every mail the judge writes is rendered here, from a Jinja template in `templates/`.

A template's first line is `Subject: ...`; the body follows a blank line. Templates are plain
text (UTF-8), rendered with StrictUndefined so that a missing value is an error in the tests,
not a blank in a player's mail.

    reports = Reports()
    mail = reports.render("reply_help.j2", topic=None)      # -> Rendered(subject, body)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from .textlayout import FILTERS


@dataclass(frozen=True)
class Rendered:
    subject: str
    body: str


class Reports:
    def __init__(self, directory: Path | str | None = None) -> None:
        # templates/ of the source tree is the package `judge.templates` once installed (setup.py)
        loader = (jinja2.PackageLoader("judge.templates", ".") if directory is None
                  else jinja2.FileSystemLoader(str(directory)))
        self.env = jinja2.Environment(
            # auto_reload off: a template is read and compiled once per process, not looked at on disk
            # again at every mail (the templates change only with the judge's code)
            loader=loader, undefined=jinja2.StrictUndefined, auto_reload=False,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
        self.env.filters.update(FILTERS)  # wrap, columns, table, listing: see textlayout.py

    def render(self, template: str | jinja2.Template, **context: object) -> Rendered:
        """`template`: its name, or the template itself as the caller already found it."""
        found = self.env.get_template(template)
        text = found.render(**context)
        head, _, body = text.partition("\n\n")
        if not head.startswith("Subject:") or "\n" in head:
            raise ValueError(f"{found.name} does not start with one 'Subject:' line and a blank line")
        return Rendered(head.removeprefix("Subject:").strip(), body.rstrip() + "\n")
