"""What the server has done and holds, as plain numbers for its operators (``GET /metrics`` reads
them; no metrics library here, so the services stay free of how figures are exported)."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field


class Tally:
    """Running counts, safe to add to from every request thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def add(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] += amount

    def get(self, name: str) -> int:
        with self._lock:
            return self._counts[name]


@dataclass(frozen=True)
class Figures:
    """One reading of this process's figures.

    ``recalls`` counts gated recalls (what an agent pastes into its prompt), ``empty_recalls``
    those that found nothing relevant; ``extraction_failures`` texts the extractor failed on
    (kept verbatim); ``write_queue`` facts written whose vectors are still to be computed;
    ``caches`` the entries of each in-memory cache; ``search`` the mode and ``encoder`` the
    model's graph and threads (``hashing`` for modes with no model, ``loading`` until it is loaded).
    """

    recalls: int
    empty_recalls: int
    extraction_failures: int
    write_queue: int
    search: str
    encoder: str
    encoder_threads: int = 0
    caches: dict[str, int] = field(default_factory=dict)
