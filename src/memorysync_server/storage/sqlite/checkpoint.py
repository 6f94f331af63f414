"""Copies SQLite's write-ahead log into the database file on a thread of its own.

Left to SQLite, the commit that takes the log past 1,000 pages copies them into the file and
syncs it to disk before it returns, holding the one writer's lock meanwhile: one write in ~100
waited 10-120 ms for it (more for a large file, whose pages lie further apart), and every write
queued behind it. Here the writer only counts its commits; a thread with its own connection runs
a PASSIVE checkpoint (it never blocks a writer or a reader) after CHECKPOINT_COMMITS of them, or
CHECKPOINT_AFTER seconds after the last unchecked one. The log starts over from its beginning
only when a write begins with all of it copied: writes that never pause grow it to SAFETY_PAGES
(16 MB), where SQLite's own checkpoint copies the few pages this thread had not and starts it
over, one commit in ~400 instead of one in ~100.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable

log = logging.getLogger("memorysync_server")

# ~10 pages a commit for one turn: about SQLite's own threshold of 1,000 pages.
CHECKPOINT_COMMITS = 100
CHECKPOINT_AFTER = 0.5
SAFETY_PAGES = 4_000


class Checkpointer:
    """``committed()`` after each commit; ``close()`` before the writer's connection closes."""

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        *,
        commits: int = CHECKPOINT_COMMITS,
        after: float = CHECKPOINT_AFTER,
    ) -> None:
        self._connect = connect
        self.commits = commits
        self.after = after
        self.checkpoints = 0  # how many ran (tests read it)
        self._cond = threading.Condition()
        self._unchecked = 0
        self._last = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None

    def committed(self) -> None:
        with self._cond:
            self._unchecked += 1
            self._last = time.monotonic()
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._run, name="memorysync-checkpoint", daemon=True)
                self._thread.start()
            if self._unchecked >= self.commits:
                self._cond.notify()

    def _due(self) -> bool:
        """Wait (lock held) until a checkpoint is due; False once closed."""
        while not self._closed:
            if self._unchecked >= self.commits:
                return True
            if self._unchecked:
                remaining = self._last + self.after - time.monotonic()
                if remaining <= 0:
                    return True
                self._cond.wait(remaining)
            else:
                self._cond.wait()
        return False

    def _run(self) -> None:
        conn = self._connect()
        try:
            while True:
                with self._cond:
                    if not self._due():
                        return
                    self._unchecked = 0
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error as error:  # a full disk, say: SQLite's own checkpoint remains
                    log.warning("could not copy the write-ahead log into the database: %s", error)
        finally:
            conn.close()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            thread = self._thread
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
