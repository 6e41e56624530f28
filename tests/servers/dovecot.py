"""A real dovecot IMAP server for one test, from tests/servers/dovecot.conf.in, on a free loopback port."""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from string import Template

from .net import free_port, wait_for_port

TEMPLATE = Path(__file__).with_name("dovecot.conf.in")
PASSWORD = "secret"


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.path.exists(p)), None)


@dataclass
class Dovecot:
    dir: Path
    conf: Path
    port: int
    process: subprocess.Popen
    password: str = PASSWORD
    host: str = "127.0.0.1"

    def doveadm(self, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(["doveadm", "-c", str(self.conf), *args], input=input, capture_output=True,
                              check=True, timeout=30)

    def kick(self, user: str) -> None:
        """Drop every IMAP session of this user, as a server restart or a network cut would."""
        self.doveadm("kick", user)

    def log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_dovecot() -> Dovecot:
    binary = dovecot_binary()
    if binary is None:
        raise FileNotFoundError("dovecot is not installed (bin/setup installs it with apt when run as root)")
    # Not pytest's 0700 tmp: as root, dovecot's unprivileged users must reach this directory.
    directory = Path(tempfile.mkdtemp(prefix="judge-dovecot-"))
    directory.chmod(0o755)
    (directory / "mail").mkdir()
    port = free_port()
    if os.geteuid() == 0:
        user_settings = ""
        chroot = ""
        mail_uid, mail_gid = "nobody", "nogroup"
        shutil.chown(directory / "mail", "nobody", "nogroup")
    else:
        user = pwd.getpwuid(os.getuid()).pw_name
        group = grp.getgrgid(os.getgid()).gr_name
        user_settings = "\n".join([
            f"default_internal_user = {user}", f"default_internal_group = {group}",
            f"default_login_user = {user}", f"first_valid_uid = {os.getuid()}"])
        chroot = "  chroot ="
        mail_uid, mail_gid = str(os.getuid()), str(os.getgid())
    conf = directory / "dovecot.conf"
    conf.write_text(Template(TEMPLATE.read_text()).substitute(
        dir=directory, user_settings=user_settings, chroot=chroot, mail_uid=mail_uid, mail_gid=mail_gid,
        password=PASSWORD, port=port))
    process = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server = Dovecot(directory, conf, port, process)
    try:
        wait_for_port("127.0.0.1", port, process=process)
    except Exception as e:
        server.stop()
        output = process.stdout.read().decode(errors="replace") if process.stdout else ""
        raise RuntimeError(f"dovecot did not start: {output}\n{server.log()}") from e
    return server


def remove(server: Dovecot) -> None:
    server.stop()
    shutil.rmtree(server.dir, ignore_errors=True)
