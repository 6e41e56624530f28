"""Loopback helpers: a free port, waiting for a listener, waiting for a condition."""
from __future__ import annotations

import socket
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(host: str, port: int, *, process=None, limit: float = 30.0) -> None:
    """Block until something listens (a bound, not a timing assertion: slow machines just wait longer)."""
    deadline = time.monotonic() + limit
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError as e:
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on {host}:{port}") from e
            time.sleep(0.02)


def wait_until(condition, *, limit: float = 60.0, step: float = 0.02, what: str = "condition"):
    """Poll until condition() is truthy and return its value; the limit only stops a hung test."""
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        time.sleep(step)
