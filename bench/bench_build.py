"""Building memories never holds another agent's recall: ``make bench`` rows.

A warm capability (its connection open, its tenant known) recalls over and over on this thread
while another thread builds N new ones, all at once (a burst) or one per request (a service that
builds one per request and recalls on it at once). Rows, all from the same run against a real
LocalServer over loopback:

* the warm agent's recall alone, and while N are built: the difference of the worst cases is
  what building costs everyone else;
* each new one's first recall, right after it was built: it must answer within its budget.

Both AG2 lines are measured: the classic ``MemorySyncCapability`` and the 1.x
``MemorySyncMiddleware`` share one session type, so their rows should agree. The server runs in
this process (its request handling shares the GIL), so the figures are upper bounds for a
remote server.
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ag2_memorysync import MemorySyncCapability  # noqa: E402
from memorysync_server.launcher import LocalServer  # noqa: E402

PROMPT = "What snack should I bring to the party tonight?"
BUILT = 8


def _row(name: str, samples: list[float], **extra: Any) -> dict[str, Any]:
    ordered = sorted(samples)
    return {
        "suite": "build",
        "name": name,
        "n": len(samples),
        "median": round(statistics.median(samples) * 1e3, 2),
        "p90": round(ordered[round(0.9 * (len(ordered) - 1))] * 1e3, 2),
        "max": round(max(samples) * 1e3, 2),
        "unit": "ms",
        **extra,
    }


def _recalls_while(warm: Any, work: threading.Thread, at_least: float = 0.5) -> list[float]:
    """The warm agent's recall, back to back, for as long as ``work`` runs and at least
    ``at_least`` seconds (the new ones warm up in the background after they were built)."""
    samples = []
    until = time.perf_counter() + at_least
    work.start()
    while work.is_alive() or time.perf_counter() < until:
        start = time.perf_counter()
        warm.session.recaller.recall(PROMPT)
        samples.append(time.perf_counter() - start)
    work.join()
    return samples


def measure_line(server: LocalServer, cls: type, label: str) -> list[dict[str, Any]]:
    kwargs = {"api_key": server.api_key, "base_url": server.base_url}
    warm = cls(user_id=f"warm-{label}", session_id="build", **kwargs)
    warm.save("I am allergic to peanuts.")
    warm.flush(5)
    for _ in range(5):
        warm.session.recaller.recall(PROMPT)
    alone = [0.0] * 40
    for i in range(len(alone)):
        start = time.perf_counter()
        warm.session.recaller.recall(PROMPT)
        alone[i] = time.perf_counter() - start

    built: list[Any] = []
    first_recalls: list[float] = []

    def burst() -> None:
        built.extend(cls(user_id=f"new-{label}-{i}", session_id="build", **kwargs) for i in range(BUILT))

    def per_request() -> None:
        for i in range(BUILT):
            memory = cls(user_id=f"req-{label}-{i}", session_id="build", **kwargs)
            start = time.perf_counter()
            memory.session.recaller.recall(PROMPT)
            first_recalls.append(time.perf_counter() - start)
            built.append(memory)

    during_burst = _recalls_while(warm, threading.Thread(target=burst))
    during_requests = _recalls_while(warm, threading.Thread(target=per_request))
    budget = warm.recall_timeout
    rows = [
        _row(f"{label}: warm agent's recall, alone", alone),
        _row(f"{label}: warm agent's recall while {BUILT} are built at once", during_burst),
        _row(f"{label}: warm agent's recall while {BUILT} are built, one per request", during_requests),
    ]
    for mode in (1, 2):
        rows.append(
            {
                "suite": "build",
                "name": f"{label}: {rows[mode]['name'].split(' while ')[1]}: added to the recall",
                "unit": "ms",
                "median": round(rows[mode]["median"] - rows[0]["median"], 2),
                "p90": round(rows[mode]["p90"] - rows[0]["p90"], 2),
                "note": "while building minus alone (median, p90): what building costs another agent",
            }
        )
    rows += [
        _row(
            f"{label}: a new one's first recall, right after it was built",
            first_recalls,
            note=f"within budget {budget}s: {max(first_recalls) <= budget}",
        ),
    ]
    for memory in [warm, *built]:
        memory.close(timeout=2)
    return rows


def measure() -> list[dict[str, Any]]:
    logging.getLogger("ag2_memorysync").setLevel(logging.ERROR)
    lines: list[tuple[type, str]] = [(MemorySyncCapability, "capability")]
    try:
        from ag2_memorysync import MemorySyncMiddleware

        lines.append((MemorySyncMiddleware, "1.x middleware"))
    except ImportError:  # ag2 1.x not installed: the classic line alone
        pass
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "bench.db") as server:
        for cls, label in lines:
            rows += measure_line(server, cls, label)
    return rows


def to_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| measurement | n | median | p90 | max | unit | note |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r.get('n', '')} | {r.get('median', '')} | {r.get('p90', '')} | "
            f"{r.get('max', '')} | {r['unit']} | {r.get('note', '')} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_markdown(measure()))
