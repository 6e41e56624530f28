"""A private Postfix instance for one test: its own config, queue and log under a temporary directory,
listening on a free loopback port. Postfix runs as root only; callers skip the test otherwise.

The instance is built from deploy/postfix/ (the files a keeper installs) with the test's paths and
ports put in with `postconf -e`, so the test exercises the shipped configuration.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .net import free_port, wait_for_port, wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "postfix"
MAPS = ("transport", "recipients", "virtual")
OUTSIDE = ("127.0.0.2", 0)       # where the tests' players connect from: not in mynetworks

# The daemons a minimal instance needs (Debian's master.cf, without chroot), then the judge's line.
MASTER = """\
{listen} inet n       -       n       -       -       smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""


def postfix_binary() -> str | None:
    return shutil.which("postfix") or ("/usr/sbin/postfix" if os.path.exists("/usr/sbin/postfix") else None)


def tool(name: str) -> str:
    """postconf, postmap, postqueue: beside the postfix binary (/usr/sbin may not be on PATH)."""
    return str(Path(postfix_binary()).with_name(name))


def why_not() -> str | None:
    """None when a private Postfix can run here, else the reason to skip."""
    if postfix_binary() is None:
        return "postfix is not installed (bin/setup installs it with apt when run as root)"
    if os.geteuid() != 0:
        return "Postfix runs only as root; this test runs as root in CI"
    return None


@dataclass
class Postfix:
    dir: Path
    port: int

    @property
    def etc(self) -> Path:
        return self.dir / "etc"

    def postconf(self, *settings: str) -> None:
        subprocess.run([tool("postconf"), "-c", str(self.etc), "-e", *settings], check=True, capture_output=True,
                       timeout=60)

    def postmap(self) -> None:
        for name in MAPS:
            subprocess.run([tool("postmap"), "-c", str(self.etc), f"hash:{self.etc / 'judge' / name}"], check=True,
                           capture_output=True, timeout=60)

    def command(self, action: str) -> subprocess.CompletedProcess:
        return subprocess.run([postfix_binary(), "-c", str(self.etc), action], capture_output=True, text=True,
                              timeout=120)

    def log(self) -> str:
        path = self.dir / "maillog"
        return path.read_text(errors="replace") if path.exists() else ""

    def queue(self) -> str:
        return subprocess.run([tool("postqueue"), "-c", str(self.etc), "-p"], capture_output=True, text=True,
                              timeout=60).stdout

    def master_pid(self) -> int | None:
        try:
            return int((self.dir / "queue" / "pid" / "master.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        pid = self.master_pid()
        self.command("stop")
        if pid is None:
            return
        try:
            wait_until(lambda: not _alive(pid), limit=30, what="the Postfix master to exit")
        except TimeoutError:
            os.kill(pid, 9)       # our own instance's master, by its pid file


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes; Postfix's master is not our child, so init reaps it.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def start_postfix(*, judge_lmtp: str, outbound_transport: dict[str, str],
                  replace: dict[str, str] | None = None, extra_maps: dict[str, str] | None = None,
                  settings: tuple[str, ...] = ()) -> Postfix:
    """A Postfix from deploy/postfix/, handing the judge's mail to `judge_lmtp` (host:port) and sending
    mail for the domains in `outbound_transport` (domain -> nexthop) there instead of to their MX.
    `extra_maps`: more files for etc/judge/ (name -> text); `settings`: more main.cf lines, where
    "{maps}" stands for that directory."""
    directory = Path(tempfile.mkdtemp(prefix="judge-postfix-"))
    directory.chmod(0o755)
    etc, maps = directory / "etc", directory / "etc" / "judge"
    maps.mkdir(parents=True)
    (directory / "data").mkdir()
    (directory / "queue").mkdir()
    shutil.chown(directory / "data", "postfix")
    port = free_port()
    server = Postfix(directory, port)

    snippet = (DEPLOY / "main.cf").read_text().replace("/etc/postfix/judge/", f"{maps}/")
    (etc / "main.cf").write_text(f"compatibility_level = 3.6\n{snippet}")
    (etc / "master.cf").write_text(MASTER.format(listen=f"127.0.0.1:{port}") + (DEPLOY / "master.cf").read_text())
    for name in MAPS:
        text = (DEPLOY / name).read_text().replace("inet:127.0.0.1:2525", f"inet:{judge_lmtp}")
        for old, new in (replace or {}).items():
            text = text.replace(old, new)
        if name == "transport":
            text += "".join(f"{domain} {nexthop}\n" for domain, nexthop in outbound_transport.items())
        (maps / name).write_text(text)
    for name, text in (extra_maps or {}).items():
        (maps / name).write_text(text)
    server.postconf(f"config_directory = {etc}", f"queue_directory = {directory / 'queue'}",
                    f"data_directory = {directory / 'data'}", "inet_interfaces = 127.0.0.1",
                    "inet_protocols = ipv4", f"maillog_file = {directory / 'maillog'}",
                    f"maillog_file_prefixes = /var, /dev/stdout, {directory.parent}",     # (bin/test: TMPDIR)
                    "alias_maps =", "alias_database =",
                    "smtp_dns_support_level = disabled",
                    # Only the judge (127.0.0.1) may relay; "players" connect from 127.0.0.2, outside.
                    "mynetworks = 127.0.0.1/32", *(s.replace("{maps}", str(maps)) for s in settings))
    server.postmap()
    started = server.command("start")
    if started.returncode != 0:
        log = server.log()
        remove(server)
        raise RuntimeError(f"postfix did not start: {started.stdout}{started.stderr}\n{log}")
    try:
        wait_for_port("127.0.0.1", port)
    except Exception:
        remove(server)
        raise
    return server


def remove(server: Postfix) -> None:
    server.stop()
    shutil.rmtree(server.dir, ignore_errors=True)


def wait_for_log(server: Postfix, text: str, *, limit: float = 60.0) -> str:
    return wait_until(lambda: text in server.log() and server.log(), limit=limit,
                      what=f"{text!r} in the Postfix log")

