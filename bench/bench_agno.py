"""Benchmarks for agno_memorysync: ``upsert_memories`` batched vs one memory at a time.

openapi.yaml has no batch state route, so a batch of N memories still costs N reads and (at most)
N writes. ``upsert_memories`` runs them side by side (at most 8 requests in flight) and skips the
write of a memory that did not change; one-at-a-time is a loop of ``upsert_user_memory``. Both
run against a real LocalServer over loopback, once as is and once with every state request held
20 ms by the server (the round trip of a hosted server), where the batching matters.

``measure()`` returns one dict per row (``make bench`` imports it); ``python bench/bench_agno.py``
prints the markdown table. Each row is the median of ``RUNS`` runs, with their min and max.
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agno.db.schemas.memory import UserMemory  # noqa: E402

from agno_memorysync import MemorySyncDb  # noqa: E402
from memorysync_server.launcher import LocalServer  # noqa: E402

N = 100
RUNS = 3
WAN_DELAY = 0.02


class CountingTransport(httpx.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return await super().handle_async_request(request)


def _memories(user: str, text: str) -> list[UserMemory]:
    return [UserMemory(memory=f"User {text} number {i}", memory_id=f"m{i}", user_id=user) for i in range(N)]


def _one_at_a_time(db: MemorySyncDb, memories: list[UserMemory]) -> None:
    for memory in memories:
        db.upsert_user_memory(memory)


def _batched(db: MemorySyncDb, memories: list[UserMemory]) -> None:
    db.upsert_memories(memories)


def _time(server: LocalServer, how: Any, case: str, run: int, delay: float) -> tuple[float, float]:
    """Seconds for N memories and requests per memory, for one fresh user."""
    transport = CountingTransport()
    db = MemorySyncDb(
        api_key=server.api_key,
        base_url=server.base_url,
        tenant_id=server.tenant_id,
        transport=transport,
        write_timeout=60,
    )
    user = f"{how.__name__}-{case}-{delay}-{run}"
    if case == "unchanged":
        _batched(db, _memories(user, "likes tea"))  # stored before the clock starts
    transport.requests = 0
    if delay:
        server.faults.set(delay=delay, route="/v1/state/")
    started = time.perf_counter()
    how(db, _memories(user, "likes tea"))
    elapsed = time.perf_counter() - started
    server.faults.clear()
    requests = transport.requests / N
    db.close()
    return elapsed, requests


def measure() -> list[dict[str, Any]]:
    logging.getLogger("agno_memorysync").setLevel(logging.ERROR)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "bench.db") as server:
        for delay in (0.0, WAN_DELAY):
            for case in ("new", "unchanged"):
                medians = {}
                for how in (_one_at_a_time, _batched):
                    samples = [_time(server, how, case, run, delay) for run in range(RUNS)]
                    times = [s[0] for s in samples]
                    medians[how.__name__] = statistics.median(times)
                    rows.append(
                        {
                            "suite": "agno",
                            "latency": f"+{delay * 1000:g} ms" if delay else "loopback",
                            "case": case,
                            "how": "upsert_memories" if how is _batched else "upsert_user_memory loop",
                            "memories": N,
                            "runs": RUNS,
                            "ms_per_memory": round(medians[how.__name__] / N * 1000, 3),
                            "min_ms": round(min(times) / N * 1000, 3),
                            "max_ms": round(max(times) / N * 1000, 3),
                            "requests_per_memory": round(statistics.median(s[1] for s in samples), 2),
                            "speedup": "",
                        }
                    )
                rows[-1]["speedup"] = f"{medians['_one_at_a_time'] / medians['_batched']:.1f}x"
    return rows


AGNO_TEST_MEMORIES = 30
AGNO_TEST_RUNS = 10


def agno_test_shape(runs: int = AGNO_TEST_RUNS) -> dict[str, Any]:
    """agno's own ``test_upsert_memories_performance``, run against MemorySyncDb: 30 memories of
    one user by ``upsert_user_memory``, deleted, then the same 30 by ``upsert_memories``; its bar
    is bulk at least 2x faster. Each run on a fresh user; the ratio of every run, in one process."""
    from datetime import datetime

    ratios = []
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "agno_test.db") as server:
        db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
        for run in range(runs + 1):  # run 0 warms the server (its first extraction loads the lexicon)
            user = f"perf_user_{run}"
            memories = [
                UserMemory(
                    memory_id=f"perf_memory_{i}",
                    memory=f"Performance test memory {i} with detailed information",
                    topics=["performance", "test"],
                    user_id=user,
                    agent_id=f"perf_agent_{i}",
                    updated_at=datetime.now(),
                )
                for i in range(AGNO_TEST_MEMORIES)
            ]
            started = time.perf_counter()
            for memory in memories:
                db.upsert_user_memory(memory)
            one_by_one = time.perf_counter() - started
            db.delete_user_memories([m.memory_id for m in memories if m.memory_id], user_id=user)
            started = time.perf_counter()
            db.upsert_memories(memories)
            bulk = time.perf_counter() - started
            if run:
                ratios.append(one_by_one / bulk)
        db.close()
    return {
        "runs": runs,
        "median": round(statistics.median(ratios), 2),
        "min": round(min(ratios), 2),
        "max": round(max(ratios), 2),
        "at_least_2x": sum(r >= 2 for r in ratios),
    }


def agno_test_markdown(result: dict[str, Any]) -> str:
    return (
        f"agno's own test shape ({AGNO_TEST_MEMORIES} memories, loop then bulk, {result['runs']} runs): "
        f"bulk is {result['median']}x the loop (median; min {result['min']}x, max {result['max']}x); "
        f"{result['at_least_2x']} of {result['runs']} runs reach agno's 2x bar."
    )


def to_markdown(rows: list[dict[str, Any]]) -> str:
    head = [
        "server latency",
        "memories",
        "how",
        "n",
        "runs",
        "ms per memory (median)",
        "min",
        "max",
        "requests per memory",
        "batched vs loop",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [
            r["latency"],
            r["case"],
            r["how"],
            r["memories"],
            r["runs"],
            r["ms_per_memory"],
            r["min_ms"],
            r["max_ms"],
            r["requests_per_memory"],
            r["speedup"],
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_markdown(measure()))
    print()
    print(agno_test_markdown(agno_test_shape()))
