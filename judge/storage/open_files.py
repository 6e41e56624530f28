"""How many game files the judge's processing worker keeps open, within the process's limit of open files
(judge.mail.serve_hooks builds the games service with it)."""
from __future__ import annotations

import resource

# Game files the processing worker keeps open. Closing one checkpoints its log (three fsyncs) and the
# next mail to it opens it again: a backlog across more games than are kept paid that for every mail
# (bench/backlog.py: 300 games, each mail to the next game). Three file descriptors each (the file,
# its log, its shared memory), so as many as the process's limit allows with room to spare.
KEEP_OPEN_MOST = 512
FILES_EACH = 3
FILES_SPARE = 256     # SMTP clients, judge.sqlite's connections, the spool, the outbox


def games_kept_open(most: int = KEEP_OPEN_MOST) -> int:
    """How many game files the worker may keep open: `most`, if the process's file limit allows it (the
    soft limit raised toward the hard one as far as needed: systemd's soft default is 1024), else fewer."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most * FILES_EACH + FILES_SPARE
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):     # not allowed here: fewer files kept
            pass
    if soft == resource.RLIM_INFINITY:
        return most
    return max(8, min(most, (soft - FILES_SPARE) // FILES_EACH))
