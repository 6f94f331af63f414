"""Benchmarks for agno_memorysync: ``upsert_memories`` batched vs one memory at a time.

``upsert_memories`` reads a batch's records with one list per user (or one get per memory, side
by side, at most 8 in flight), skips the write of a memory that did not change, and sends the rest
in ``/v1/state/put_many`` calls of up to 100; one-at-a-time is a loop of ``upsert_user_memory``. Both
run against a real LocalServer over loopback, once as is and once with every state request held
20 ms by the server (the round trip of a hosted server), where the batching matters.

``measure()`` returns one dict per row (``make bench`` imports it); ``python bench/bench_agno.py``
prints the markdown table. Each row is the median of ``RUNS`` runs, with their min and max.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


# A server in a process of its own, as one runs it: prints where it listens, stops when stdin closes.
_SERVE = """
import json, sys
from memorysync_server.launcher import LocalServer
server = LocalServer(sys.argv[1]).start()
print(json.dumps([server.base_url, server.api_key, server.tenant_id]), flush=True)
sys.stdin.read()
server.stop()
"""


@contextmanager
def _server(where: str, db: Path) -> Iterator[tuple[str, str, str]]:
    """(base_url, api_key, tenant_id) of a LocalServer in this process (``"in-process"``) or in
    one of its own (``"own process"``)."""
    if where == "in-process":
        with LocalServer(db) as server:
            yield server.base_url, server.api_key, server.tenant_id
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "generated")])}
    proc = subprocess.Popen(
        [sys.executable, "-c", _SERVE, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        url, key, tenant = json.loads(proc.stdout.readline())
        yield url, key, tenant
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=60)


def agno_test_shape(runs: int = AGNO_TEST_RUNS, where: str = "in-process") -> dict[str, Any]:
    """agno's own ``test_upsert_memories_performance``, run against MemorySyncDb: 30 memories of
    one user by ``upsert_user_memory``, deleted, then the same 30 by ``upsert_memories``; its bar
    is bulk at least 2x faster. Each run on a fresh user; the ratio of every run, in one process.
    ``where`` the server runs: in this process (client and server share one interpreter lock) or
    in one of its own (as a deployed server runs)."""
    from datetime import datetime

    ratios = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        _server(where, Path(tmp) / "agno_test.db") as (url, key, tenant),
    ):
        db = MemorySyncDb(api_key=key, base_url=url, tenant_id=tenant)
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
        "where": where,
        "runs": runs,
        "median": round(statistics.median(ratios), 2),
        "min": round(min(ratios), 2),
        "max": round(max(ratios), 2),
        "at_least_2x": sum(r >= 2 for r in ratios),
    }


def agno_test_markdown(*results: dict[str, Any]) -> str:
    return "\n\n".join(
        f"agno's own test shape ({AGNO_TEST_MEMORIES} memories, loop then bulk, {r['runs']} runs, server "
        f"{r['where']}): bulk is {r['median']}x the loop (median; min {r['min']}x, max {r['max']}x); "
        f"{r['at_least_2x']} of {r['runs']} runs reach agno's 2x bar."
        for r in results
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
    print(agno_test_markdown(agno_test_shape(), agno_test_shape(where="own process")))
