"""judge.storage.syncer: a commit's log synced on a thread of its own, waited for before it is told."""
from __future__ import annotations

import threading

import pytest

from judge.storage import syncer as syncer_module
from judge.storage.syncer import Syncer, SyncFailed


def test_wait_returns_once_each_file_handed_was_synced(tmp_path, monkeypatch):
    done: list[tuple[str, str]] = []
    release = threading.Event()
    fsync = syncer_module.fsync_path

    def slow(path):
        release.wait(5)
        fsync(path)
        done.append((path.name, threading.current_thread().name))
    monkeypatch.setattr(syncer_module, "fsync_path", slow)
    game = tmp_path / "alpha.sqlite"
    (tmp_path / "alpha.sqlite-wal").write_bytes(b"log")
    with Syncer() as syncer:
        syncer.hand(game)
        waiting = threading.Thread(target=syncer.wait, args=([game],))
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive()                  # not before the sync
        release.set()
        waiting.join(5)
        assert not waiting.is_alive()
        assert ("alpha.sqlite-wal", "log-syncer") in done
        syncer.wait([tmp_path / "never-handed.sqlite"])      # nothing to wait for


def test_a_log_gone_was_synced_by_sqlite_and_a_failed_sync_is_raised(tmp_path):
    closed = tmp_path / "closed.sqlite"          # no -wal: its last connection checkpointed it
    lost = tmp_path / "no-such-directory" / "lost.sqlite"
    with Syncer() as syncer:
        syncer.hand(closed)
        syncer.hand(lost)
        syncer.wait([closed])
        with pytest.raises(SyncFailed, match="lost.sqlite"):
            syncer.wait([lost])
