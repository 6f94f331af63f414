"""Benchmarks for memorysync_server: recall and query latency at growing sizes, add_turn throughput.

``measure()`` returns one dict per size (``make bench`` imports it); ``python
bench/bench_server.py`` prints a markdown table. Latencies are wall-clock times of real HTTP
calls over loopback to a LocalServer (client + server on the same machine), for ONE user who
has ``size`` memories. Memories are seeded in bulk through the store (``storage.facts.add``)
with embeddings from the server's own embedder, not through 100k HTTP calls. The first query
per size (which loads the user's vectors into memory) is reported separately as ``cold_ms``;
``recall_after_write_p50_ms`` is a recall right after an add_turn for the same user (the
adapters' loop), which exercises the in-place cache update.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from memorysync_server import LocalServer
from memorysync_server.storage import NewFact

USER = "bench-user"
_TOPICS = [
    "vegan food",
    "window seat on flights",
    "jazz music",
    "a dog named Rex",
    "Oslo in winter",
    "strong coffee",
    "early morning runs",
    "the cello",
    "Spanish lessons",
    "hiking trips",
]


def _vocabulary(rng: random.Random, n: int = 4000) -> list[str]:
    letters = "abcdefghijklmnoprstuvwy"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(n)]


def _fact(rng: random.Random, words: list[str], i: int) -> str:
    a, b, c = rng.sample(words, 3)
    topic = _TOPICS[i % len(_TOPICS)]
    return f"User likes {a} {b} and mentioned {c} while talking about {topic}"


def _seed(server: LocalServer, size: int, rng: random.Random) -> float:
    words = _vocabulary(rng)
    services = server.app.services
    started = time.perf_counter()
    batch = 5000
    for start in range(0, size, batch):
        texts = [_fact(rng, words, i) for i in range(start, min(size, start + batch))]
        vectors = services.pipeline.embedder.embed(texts)
        rows = [
            NewFact(t, "bench", {"write_origin": "bench"}, v) for t, v in zip(texts, vectors, strict=True)
        ]
        services.store.facts.add(server.tenant_id, USER, rows)
    return time.perf_counter() - started


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(ordered[-1], 2),
    }


def _timed(http: httpx.Client, path: str, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    response = http.post(path, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    return elapsed


def _measure_size(size: int, queries: int, turns: int, workdir: Path) -> dict[str, Any]:
    rng = random.Random(size)
    with LocalServer(workdir / f"bench-{size}.db") as server:
        seed_s = _seed(server, size, rng)
        http = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=60)
        body = {"tenant_id": server.tenant_id, "user_id": USER}
        prompts = [f"Tell me about {rng.choice(_TOPICS)} and {rng.choice(_TOPICS)}" for _ in range(queries)]
        cold = _timed(http, "/v1/memory/recall", {**body, "prompt": prompts[0]})
        recall = [_timed(http, "/v1/memory/recall", {**body, "prompt": p, "k": 10}) for p in prompts]
        query = [_timed(http, "/v1/memory/query", {**body, "prompt": p, "k": 10}) for p in prompts]
        # The adapters' loop: a turn is stored, then the next prompt is recalled.
        after_write = []
        for i in range(min(50, queries)):
            turn = {**body, "text": f"I went to event{i} with friend{i}"}
            assert http.post("/v1/memory/add_turn", json=turn).status_code == 201
            after_write.append(_timed(http, "/v1/memory/recall", {**body, "prompt": prompts[i], "k": 10}))
        started = time.perf_counter()
        for i in range(turns):
            response = http.post(
                "/v1/memory/add_turn",
                json={
                    "tenant_id": server.tenant_id,
                    "user_id": f"writer-{size}",
                    "text": f"I visited place{i} in {2000 + i % 25}",
                },
            )
            assert response.status_code == 201, response.text
        add_turn_per_s = turns / (time.perf_counter() - started)
        http.close()
    r, q, w = _percentiles(recall), _percentiles(query), _percentiles(after_write)
    return {
        "size": size,
        "seed_s": round(seed_s, 1),
        "cold_ms": round(cold, 1),
        "recall_p50_ms": r["p50"],
        "recall_p95_ms": r["p95"],
        "recall_max_ms": r["max"],
        "query_p50_ms": q["p50"],
        "query_p95_ms": q["p95"],
        "query_max_ms": q["max"],
        "recall_after_write_p50_ms": w["p50"],
        "add_turn_per_s": round(add_turn_per_s, 1),
    }


def measure(
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000), *, queries: int = 200, turns: int = 300
) -> list[dict[str, Any]]:
    """One row per size: recall/query p50/p95/max (ms) for one user with ``size`` memories, and
    add_turn throughput (sequential HTTP calls per second, extraction included)."""
    with tempfile.TemporaryDirectory(prefix="memorysync-bench-") as tmp:
        return [_measure_size(size, queries, turns, Path(tmp)) for size in sizes]


def markdown(rows: list[dict[str, Any]]) -> str:
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or (1_000, 10_000, 100_000)
    print(markdown(measure(sizes)))
