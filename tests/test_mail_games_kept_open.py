"""The worker keeps up to KEEP_OPEN_MOST game files open (a backlog across that many games opens and
checkpoints each once, not once a mail), as far as the process's file limit allows: the soft limit is
raised toward the hard one when it is too low (systemd's default soft limit is 1024), and a hard limit
too low for them all keeps fewer, with room for everything else. Run in a child process: the limits
are the process's own."""
import resource
import subprocess
import sys

import pytest

from judge.storage.open_files import FILES_EACH, FILES_SPARE, KEEP_OPEN_MOST

CHILD = """
import resource, sys
from judge.storage.open_files import games_kept_open
soft, hard = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
kept = games_kept_open()
print(kept, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
"""
NEEDED = KEEP_OPEN_MOST * FILES_EACH + FILES_SPARE


@pytest.mark.parametrize("soft, hard, kept, soft_after", [
    (1024, NEEDED + 1000, KEEP_OPEN_MOST, NEEDED),                   # systemd's default: raised
    (NEEDED + 500, NEEDED + 500, KEEP_OPEN_MOST, NEEDED + 500),       # enough already: left alone
    (600, 700, (700 - FILES_SPARE) // FILES_EACH, 700),               # the hard limit bounds it
])
def test_as_many_game_files_as_the_limit_allows(soft, hard, kept, soft_after):
    limit_now = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if limit_now != resource.RLIM_INFINITY and limit_now < hard:
        pytest.skip(f"this machine's hard limit of open files is {limit_now}")
    out = subprocess.run([sys.executable, "-c", CHILD, str(soft), str(hard)], capture_output=True, text=True,
                         check=True).stdout.split()
    assert [int(out[0]), int(out[1])] == [kept, soft_after]
