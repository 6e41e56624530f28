"""deploy/systemd: `systemd-analyze verify` and its offline security score pass on the units, and the
command lines they run are ones `judge` accepts."""
from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from judge.cli import build_parser

from servers.judge_process import JUDGE

UNITS = Path(__file__).resolve().parent.parent / "deploy" / "systemd"
INSTALLED = "/opt/judge/bin/judge"       # where deploy/README.md installs the judge

needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed (apt-get install systemd)")


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string((UNITS / name).read_text())
    return parser


def here(tmp_path: Path) -> Path:
    """The units with the judge this test runs in place of /opt/judge: verify checks that it exists."""
    for path in UNITS.iterdir():
        (tmp_path / path.name).write_text(path.read_text().replace(INSTALLED, str(JUDGE)))
    return tmp_path


@needs_systemd
def test_systemd_analyze_verify_passes_on_every_unit(tmp_path):
    files = sorted(p.name for p in here(tmp_path).iterdir())
    assert {"judge.service", "judge-backup.service", "judge-backup.timer", "judge-doctor.service",
            "judge-doctor.timer"} <= set(files)
    done = subprocess.run(["systemd-analyze", "verify", *files], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@needs_systemd
def test_the_judge_unit_is_hardened(tmp_path):
    here(tmp_path)
    # --threshold counts tenths: 20 is an exposure of 2.0 ("OK" ends at 2.0; the unit scores 1.4).
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=20", "judge.service"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "Overall exposure level for judge.service" in done.stdout


def test_the_judge_unit_restarts_runs_as_its_own_user_and_writes_only_its_data():
    service = unit("judge.service")["Service"]
    assert service["Restart"] == "on-failure"
    assert service["User"] == service["Group"] == "judge"
    assert service["ProtectSystem"] == "strict" and service["NoNewPrivileges"] == "yes"
    assert service["ReadWritePaths"] == "/var/lib/" + service["StateDirectory"]
    assert service["StandardOutput"] == service["StandardError"] == "journal"
    assert service["CapabilityBoundingSet"] == ""


@pytest.mark.parametrize("name", ["judge.service", "judge-backup.service", "judge-doctor.service"])
def test_the_units_run_command_lines_the_judge_accepts(name):
    command = unit(name)["Service"]["ExecStart"]
    if command.startswith("/bin/sh -c"):
        command = shlex.split(command)[2].replace("exec ", "", 1).replace("%%", "%")
    words = shlex.split(command)
    assert words[0] == INSTALLED
    args = build_parser().parse_args([w if "$(" not in w else "/var/backups/judge/now" for w in words[1:]])
    assert args.command == {"judge.service": "serve", "judge-backup.service": "backup",
                            "judge-doctor.service": "doctor"}[name]
    assert args.config == "/etc/judge/judge.toml"
