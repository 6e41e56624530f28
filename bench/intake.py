"""SMTP intake over loopback: messages acknowledged per second with durable storage, and ack latency.

Runs the judge's intake handler (raw bytes committed to a WAL SQLite file with synchronous=FULL
before the 250; messages that arrive during a commit share the next one: group commit) and, in the
same run for comparison, an aiosmtpd handler that stores nothing. Each is measured over 1, 4 and
16 client connections. Prints msgs/s, p50/p99 acknowledgement latency (MAIL FROM to the 250 after
DATA, as smtplib.sendmail sees it) and the durable/none ratio. Issue 15's goal: at least 0.8 at
4 and 16 connections.

    .venv/bin/python bench/intake.py [--messages 1600] [--size 1100]
"""
from __future__ import annotations

import argparse
import asyncio
import smtplib
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

from judge.mail.intake import IntakeHandler, RateLimiter, protocol_factory

CONNECTIONS = (1, 4, 16)


class NothingHandler:
    """Acknowledges without storing: the ceiling set by Python's SMTP handling alone."""
    lmtp = False

    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


class Server:
    def __init__(self, handler, size_limit: int):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        factory = protocol_factory(handler, size_limit=size_limit)
        self.server = asyncio.run_coroutine_threadsafe(
            self.loop.create_server(factory, host="127.0.0.1", port=0), self.loop).result()
        self.port = self.server.sockets[0].getsockname()[1]

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()


def message(n: int, size: int) -> bytes:
    head = (f"From: Player <p{n % 7}@example.org>\r\nTo: judge@localhost\r\nSubject: orders {n}\r\n"
            f"Message-ID: <bench-{n}-{time.time_ns()}@example.org>\r\n\r\n").encode()
    line = b"A Par-Bur, F Bre-Mao, A Mar-Spa; F Lon-Nth, F Edi-Nwg, A Lvp-Yor.\r\n"
    body = line * max(1, (size - len(head)) // len(line))
    return head + body


def run(port: int, total: int, connections: int, size: int) -> tuple[float, list[float]]:
    """Send `total` messages over `connections` concurrent connections; return wall seconds and latencies."""
    latencies: list[list[float]] = [[] for _ in range(connections)]
    barrier = threading.Barrier(connections + 1)

    def client(index: int) -> None:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.ehlo()
            payloads = [message(index * total + n, size) for n in range(total // connections)]
            barrier.wait()
            for n, raw in enumerate(payloads):
                start = time.perf_counter()
                smtp.sendmail(f"p{n % 7}.{index}@example.org", ["judge@localhost"], raw)
                latencies[index].append(time.perf_counter() - start)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - start, [x for per in latencies for x in per]


_seen = [0]


def new_commits(path: Path) -> tuple[int, int]:
    """Messages stored since the last call, and the commits that stored them (one received_at each)."""
    with sqlite3.connect(path) as conn:
        count, commits, last = conn.execute("SELECT count(*), count(DISTINCT received_at), max(id) FROM inbound"
                                            " WHERE id > ?", [_seen[0]]).fetchone()
    _seen[0] = last or _seen[0]
    return count, max(commits, 1)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1600, help="messages per measurement")
    parser.add_argument("--size", type=int, default=1100, help="approximate bytes per message")
    args = parser.parse_args()

    results, commits = {}, {}
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        durable = IntakeHandler(Path(tmp) / "judge.sqlite", rate=RateLimiter(10**9, 1.0))
        for name, handler in (("nothing stored", NothingHandler()), ("durable archive", durable)):
            server = Server(handler, size_limit=1_048_576)
            run(server.port, 100, 1, args.size)                      # warm-up
            if handler is durable:
                new_commits(Path(tmp) / "judge.sqlite")              # (not counted)
            for connections in CONNECTIONS:
                seconds, lat = run(server.port, args.messages, connections, args.size)
                results[(name, connections)] = (len(lat) / seconds, lat)
                if handler is durable:
                    commits[connections] = new_commits(Path(tmp) / "judge.sqlite")
            server.close()
        stored = durable._archive.counts()
        durable.close()

    print(f"SMTP intake over loopback, ~{args.size} B messages, {args.messages} per run "
          f"(archive: WAL, synchronous=FULL)")
    print(f"{'handler':<16} {'conns':>5} {'msgs/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for (name, connections), (rate, lat) in results.items():
        print(f"{name:<16} {connections:>5} {rate:>9.0f} {percentile(lat, 50) * 1000:>8.2f} "
              f"{percentile(lat, 99) * 1000:>8.2f}")
    for connections in CONNECTIONS:
        ratio = results[("durable archive", connections)][0] / results[("nothing stored", connections)][0]
        goal = "" if connections == 1 else f"   (goal 0.8: {'met' if ratio >= 0.8 else 'NOT met'})"
        stored_, made = commits[connections]
        print(f"durable / nothing, {connections} connection(s): {ratio:.2f}{goal}; "
              f"{stored_ / made:.1f} messages a commit ({made} commits)")
    every = [x for c in CONNECTIONS for x in results[("durable archive", c)][1]]
    print(f"stored rows: {stored}; median latency over all durable runs: {statistics.median(every) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
