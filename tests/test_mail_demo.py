"""`judge demo` against a real `judge serve` process on embedded defaults: the newcomer's first look."""
import os
import re
import signal
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

JUDGE = Path(sys.executable).with_name("judge")


def play_demo(judge: Path, cwd: Path, env: dict | None = None) -> str:
    """Start `judge serve` on embedded defaults in `cwd`, play `judge demo` against it, check what a
    newcomer sees, and return the demo's output."""
    env = {k: v for k, v in (env or os.environ).items() if not k.startswith("JUDGE_")}
    env["JUDGE_SMTP_PORT"] = "0"
    serve = subprocess.Popen([str(judge), "serve"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        banner = []
        while not banner or not banner[-1].startswith("Stop with"):
            line = serve.stdout.readline()
            assert line, f"judge serve exited: {serve.wait()} {serve.stderr.read()}"
            banner.append(line)
        port = re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", "".join(banner)).group(1)
        demo = subprocess.run([str(judge), "demo", "--smtp-port", port], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=600)
        assert demo.returncode == 0, demo.stderr
    finally:
        serve.send_signal(signal.SIGTERM)
        _, err = serve.communicate(timeout=60)
    assert "Traceback" not in err, err
    out = demo.stdout
    assert "signed on as France" in out and "Army Paris -> Burgundy" in out
    assert "W1901A: played, now S1902M" in out      # the last orders in, the phase is played at once
    for title in ("has started", "Spring 1901 Movement results", "Fall 1901 Movement results",
                  "Winter 1901 Adjustment results"):
        assert title in out, title
    files = re.findall(r"(var/outbox/\S+\.eml)", out)
    assert len(files) >= 4
    results = message_from_bytes((cwd / files[-1]).read_bytes(), policy=policy.default)
    assert "Winter 1901" in results["Subject"] and results["Reply-To"].startswith("judge+")
    assert "Every mail the judge wrote is a file in" in out
    return out


def test_judge_demo_plays_a_year_through_judge_serve_and_shows_the_reports(tmp_path):
    play_demo(JUDGE, tmp_path)
