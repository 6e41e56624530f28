"""`judge serve` as a real subprocess: started with a config file, its banner read for the port, stopped by SIGTERM."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

JUDGE = Path(sys.executable).with_name("judge")


def judge_env(**extra: str) -> dict[str, str]:
    """The test's environment without any JUDGE_* setting of the machine, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env.update(extra)
    return env


def run_judge(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(JUDGE), *args], capture_output=True, text=True, timeout=timeout,
                          env=env or judge_env(), cwd=cwd)


class JudgeServe:
    """with JudgeServe(["--config", path]) as judge: judge.port ...  (stopped and reaped on exit)"""

    def __init__(self, args: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None):
        self.args, self.env, self.cwd = args, env or judge_env(), cwd
        self.process: subprocess.Popen | None = None
        self.banner = ""
        self.port = 0
        self.output = ""
        self.errors = ""

    def __enter__(self) -> "JudgeServe":
        self.process = subprocess.Popen([str(JUDGE), "serve", *self.args], cwd=self.cwd, env=self.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        try:
            while not lines or not lines[-1].startswith("Stop with"):
                line = self.process.stdout.readline()
                if not line:
                    raise RuntimeError(f"judge serve exited ({self.process.wait()}): {self.process.stderr.read()}")
                lines.append(line.rstrip("\n"))
        except BaseException:
            self.stop()
            raise
        self.banner = "\n".join(lines)
        self.port = int(re.search(r"(?:SMTP|LMTP)\s+[\d.]+:(\d+)", self.banner).group(1))
        return self

    def stop(self) -> int:
        process = self.process
        if process is None:
            return 0
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
        self.output += out or ""
        self.errors += err or ""
        return process.returncode

    def __exit__(self, *exc) -> None:
        self.stop()
