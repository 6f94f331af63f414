"""Facts stored before their vector, embedded in batches after the write has answered.

A sentence vector costs ~3 ms of one core for one text and ~1.5 ms per text in a batch of 16, so a
write that embedded its facts inline spent most of its time there. Instead a write stores its
facts with an empty vector (``PENDING``) and answers; :class:`Backfill` gives them the search's
vectors in batches on a background thread. A search first embeds its own user's pending facts
(or waits for the batch holding them), so a recall right after a write finds what it wrote.

Pending facts are rows like any other: a fact acknowledged before a crash is still there after
it, and is embedded after the restart (``FactStore.unembedded``) or on its user's next search
(facts whose vector is not the embedder's width are re-embedded then: ``Backfill.refresh``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ..domain import FactsChange, StorageFull, read_with
from ..language.words import searched_text
from ..model import Embedder
from ..storage import Storage

__all__ = ["PENDING", "Backfill"]

log = logging.getLogger("memorysync_server")

PENDING = np.zeros(0, dtype=np.float32)
# Batches past ~16 texts save little per text (1.57 ms at 16, 1.46 at 128) and hold a core longer,
# which a request arriving meanwhile would wait for on a busy machine.
BATCH = 16
# After the first pending fact arrives, the worker waits this long for more, so facts written
# together are embedded together. A search for the user doesn't wait for it: it embeds them itself,
# in one batch with its prompt.
LINGER = 0.02
# A worker with nothing to do for this long ends; the next pending fact starts another.
IDLE = 5.0
# Past this many facts waiting, writes embed their own facts again: the backlog, which a search
# of its user may have to embed before it answers, stays under ~0.4 s of embedding.
BACKLOG = 256
RETRY_AFTER = 1.0
RESCAN_ROWS = 1_000_000
FLUSH_CHUNK = 256
WAIT_LIMIT = 30.0

Key = tuple[str, str]


class Backfill:
    """Embeds pending facts: in batches on a background thread, and a user's own at search time."""

    def __init__(
        self,
        store: Storage,
        embedder: Embedder,
        *,
        batch: int = BATCH,
        linger: float = LINGER,
        backlog: int = BACKLOG,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.batch = batch
        self.linger = linger
        self.backlog = backlog
        self._cond = threading.Condition()
        self._pending: OrderedDict[Key, set[int]] = OrderedDict()  # not yet taken by anyone
        self._claimed: dict[Key, set[int]] = {}  # being embedded now
        self._thread: threading.Thread | None = None
        self._closed = False
        self._retry_at = 0.0
        self._scanned = False
        self.embedded = 0  # facts this process gave vectors to (tests and benchmarks read it)
        store.on_facts_changed(self._changed)
        with self._cond:
            self._start()  # the first worker looks for facts an earlier run left pending

    # ---- what is pending ----------------------------------------------------------------------
    def _changed(self, change: FactsChange) -> None:
        key = (change.tenant, change.user_id)
        added = change.added_vectors
        with self._cond:
            if change.added_ids and added is not None and np.ndim(added) == 2 and np.shape(added)[1] == 0:
                self._pending.setdefault(key, set()).update(change.added_ids)
                self._start()
                self._cond.notify_all()
                return
            done = set(change.added_ids or ()) | set(change.removed_ids or ())
            waiting = self._pending.get(key)
            if done and waiting is not None:
                waiting -= done
                if not waiting:
                    del self._pending[key]

    def pending(self, tenant: str, user_id: str) -> bool:
        """Whether this process holds facts of the user that have no vector yet."""
        key = (tenant, user_id)
        with self._cond:
            return bool(self._pending.get(key) or self._claimed.get(key))

    def behind(self) -> bool:
        """Whether so many facts wait for a vector that a write should embed its own."""
        return self.count() >= self.backlog

    def count(self) -> int:
        """Facts without a vector yet that this process knows of."""
        with self._cond:
            return self._waiting() + sum(map(len, self._claimed.values()))

    def _take(self, key: Key, limit: int) -> list[int]:
        """Claim up to ``limit`` of the user's pending ids, oldest first (lock held)."""
        waiting = self._pending.get(key)
        if not waiting:
            return []
        ids = sorted(waiting)[:limit]
        waiting.difference_update(ids)
        if not waiting:
            del self._pending[key]
        self._claimed.setdefault(key, set()).update(ids)
        return ids

    def _release(self, key: Key, ids: list[int], *, retry: bool) -> None:
        with self._cond:
            claimed = self._claimed.get(key)
            if claimed is not None:
                claimed.difference_update(ids)
                if not claimed:
                    del self._claimed[key]
            if retry:
                self._pending.setdefault(key, set()).update(ids)
                self._retry_at = time.monotonic() + RETRY_AFTER
            self._cond.notify_all()

    # ---- embedding ---------------------------------------------------------------------------
    def _embed(self, key: Key, ids: list[int], also: Sequence[str] = ()) -> np.ndarray | None:
        """Vectors for the claimed ``ids`` (deleted facts drop out), written in one unit of work,
        and for the texts ``also``, embedded in the same batch and returned (None without any)."""
        tenant, user_id = key
        retry = False
        try:
            facts = self.store.facts.get(tenant, user_id, ids) if ids else []
            if not facts and not also:
                return None
            vectors = self.embedder.embed(
                [*(searched_text(fact.text, read_with(fact.metadata)) for fact in facts), *also]
            )
            if facts:
                try:
                    self.store.facts.replace_vectors(
                        tenant, user_id, [(fact.id, vectors[i]) for i, fact in enumerate(facts)]
                    )
                    self.embedded += len(facts)
                except StorageFull:
                    retry = True
                    log.warning(
                        "no room to store the vectors of %d new facts: they are searched once there is",
                        len(facts),
                    )
            return vectors[len(facts) :] if also else None
        finally:
            self._release(key, ids, retry=retry)

    def flush(self, tenant: str, user_id: str, also: Sequence[str] = ()) -> np.ndarray | None:
        """Embed the user's pending facts now (in one batch with the texts ``also``, whose vectors
        are returned), then wait for those the worker is embedding. Call it outside any unit of
        work: the worker may need the writer to finish. With no room left on disk the facts stay
        pending (and unsearchable) until a write succeeds again."""
        key = (tenant, user_id)
        deadline = time.monotonic() + WAIT_LIMIT
        with self._cond:
            budget = len(self._pending.get(key, ()))  # not the facts written while this runs
        extra = None
        while budget > 0 or (also and extra is None):
            with self._cond:
                ids = self._take(key, min(budget, FLUSH_CHUNK)) if budget > 0 else []
            budget = budget - len(ids) if ids else 0
            vectors = self._embed(key, ids, () if extra is not None else also)
            if extra is None and also:
                extra = vectors
        with self._cond:
            while self._claimed.get(key) and not self._closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
        return extra

    def refresh(self, tenant: str, user_id: str, ids: Sequence[int]) -> None:
        """Give the user's facts ``ids``, stored with a vector of another width (another embedder's:
        an older release, another search mode; or none yet), this embedder's vectors now, as
        ``flush`` does for new facts: a search reads them, and only the backfill writes vectors."""
        key = (tenant, user_id)
        with self._cond:
            claimed = self._claimed.get(key, set())
            fresh = [fact_id for fact_id in ids if fact_id not in claimed]
            if fresh:
                self._pending.setdefault(key, set()).update(fresh)
        if fresh:
            log.info("re-embedding %d facts of one user for this search's embedder", len(fresh))
        self.flush(tenant, user_id)

    # ---- the worker --------------------------------------------------------------------------
    def _start(self) -> None:
        """Start a worker unless one runs (lock held)."""
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="memorysync-backfill", daemon=True)
            self._thread.start()

    def _rescan(self) -> None:
        try:
            found = self.store.facts.unembedded(RESCAN_ROWS)
        except Exception as error:  # a closed or unreachable store: searches re-embed on their own
            log.warning("could not look for facts left without a vector: %s", error)
            return
        if found:
            log.info("embedding %d facts stored without a vector by an earlier run", len(found))
        with self._cond:
            for tenant, user_id, fact_id in found:
                self._pending.setdefault((tenant, user_id), set()).add(fact_id)

    def _next(self) -> tuple[Key, list[int]] | None:
        """The next batch to embed, waiting for one; None when the worker should end."""
        with self._cond:
            idle_until = time.monotonic() + IDLE
            while not self._closed:
                now = time.monotonic()
                if self._pending and now >= self._retry_at:
                    break
                wake = self._retry_at if self._pending else idle_until
                if not self._pending and now >= idle_until:
                    break
                self._cond.wait(max(wake - now, 0.001))
            if self._closed or not self._pending:
                self._thread = None
                return None
            # Facts written together are embedded together: wait a moment for more.
            settle = time.monotonic() + self.linger
            while not self._closed and self._waiting() < self.batch and time.monotonic() < settle:
                self._cond.wait(settle - time.monotonic())
            for key in list(self._pending):
                ids = self._take(key, self.batch)
                if ids:
                    if key in self._pending:
                        self._pending.move_to_end(key)  # users take turns
                    return key, ids
            self._thread = None
            return None

    def _waiting(self) -> int:
        return sum(map(len, self._pending.values()))

    def _run(self) -> None:
        if not self._scanned:
            self._scanned = True
            self._rescan()
        while True:
            job = self._next()
            if job is None:
                return
            key, ids = job
            try:
                self._embed(key, ids)
            except Exception as error:
                if self._closed:
                    return
                # The facts stay pending in the database: their user's next search embeds them.
                log.warning("could not embed %d new facts now (%s); their next search will", len(ids), error)

    def close(self) -> None:
        """Stop the worker (after the batch it is writing); pending facts stay pending."""
        with self._cond:
            self._closed = True
            thread = self._thread
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
