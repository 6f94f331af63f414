"""Storage engines side by side: SQLite vs PostgreSQL, and PostgreSQL with 1, 2 and 4 processes.

``measure()`` returns (engine rows, process rows); ``markdown()`` renders them (``make bench``
imports both). Engine rows: recall p50/p95 over loopback HTTP for one user holding ``size``
memories (the server bench's corpus and cached vectors, seeded in bulk through the storage), and sequential add_turn/s. Process rows: requests
per second from 8 concurrent clients (half add_turn, half recall, 8 users) against
``memorysync-server serve --workers N`` on one PostgreSQL database. PostgreSQL is a throwaway
server from the machine's binaries (fsync off, like a tmpfs: it measures the server, not the disk).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the throwaway PostgreSQL is test tooling, kept with the tests
    sys.path.insert(0, str(ROOT))

from memorysync_server import LocalServer  # noqa: E402
from tests.support.pg_throwaway import ThrowawayPostgres  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_server  # noqa: E402

KEY, TENANT, USER = "ms_bench_engines00000000", "t_bench", "bench-user"
RECALLS = 200
TURNS = 200
CLIENTS = 8
LOAD_SECONDS = 8.0
TOPICS = ["vegan food", "window seats", "jazz", "a dog named Rex", "Oslo", "coffee", "running", "the cello"]


def _pct(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return round(statistics.median(ordered), 2), round(
        ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2
    )


def _seed(server: LocalServer, size: int) -> list[str]:
    """The server bench's corpus (its kept turns included) with its cached vectors, stored
    through the storage layer: no engine embeds the corpus again. Returns its texts."""
    texts = bench_server.corpus(size)
    vectors = bench_server.VectorCache(server.app.services.pipeline.embedder).vectors(texts)
    bench_server.seed(server.app.services.store, TENANT, USER, texts, vectors)
    return texts


def _engine_row(engine: str, db: str | Path, size: int) -> dict[str, Any]:
    rng = random.Random(size)
    with LocalServer(db, keys={KEY: TENANT}) as server:
        started = time.perf_counter()
        texts = _seed(server, size)
        seeded = time.perf_counter() - started
        prompts = bench_server._prompts(rng, texts, RECALLS)
        with httpx.Client(base_url=server.base_url, headers={"X-API-Key": KEY}, timeout=60) as http:
            body = {"tenant_id": TENANT, "user_id": USER}
            for topic in TOPICS:  # warm: the user's vectors are loaded once
                http.post(
                    "/v1/memory/recall", json={**body, "prompt": f"what about {topic}?"}
                ).raise_for_status()
            samples = []
            for prompt in prompts:
                t = time.perf_counter()
                http.post("/v1/memory/recall", json={**body, "prompt": prompt}).raise_for_status()
                samples.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            for i in range(TURNS):
                text = f"I tried restaurant number {i} in {TOPICS[i % len(TOPICS)]} town yesterday"
                http.post("/v1/memory/add_turn", json={**body, "text": text}).raise_for_status()
            turns_per_s = TURNS / (time.perf_counter() - t)
    p50, p95 = _pct(samples)
    return {
        "engine": engine,
        "size": size,
        "recall_p50_ms": p50,
        "recall_p95_ms": p95,
        "add_turn_per_s": round(turns_per_s, 1),
        "seed_s": round(seeded, 1),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _throughput(db: str, workers: int) -> dict[str, Any]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "memorysync_server.cli", "serve", "--db", db, "--port", str(port)]
    command += ["--api-key", f"{KEY}={TENANT}", "--workers", str(workers), "--log-level", "warning"]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/org/projects", headers={"X-API-Key": KEY}, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"serve --workers {workers} did not start")
            time.sleep(0.2)
        done = [0] * CLIENTS
        errors = [0] * CLIENTS
        stop = threading.Event()

        def client(n: int) -> None:
            user = f"user-{n}"
            with httpx.Client(base_url=url, headers={"X-API-Key": KEY}, timeout=60) as http:
                i = 0
                while not stop.is_set():
                    body: dict[str, Any] = {"tenant_id": TENANT, "user_id": user}
                    if i % 2:
                        path = "/v1/memory/recall"
                        body["prompt"] = f"what do I think about {TOPICS[i % len(TOPICS)]}?"
                    else:
                        path = "/v1/memory/add_turn"
                        body["text"] = f"I enjoyed {TOPICS[i % len(TOPICS)]} on day {i} with friend {n}"
                    r = http.post(path, json=body)
                    if r.status_code < 300:
                        done[n] += 1
                    else:
                        errors[n] += 1
                    i += 1

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        time.sleep(1.0)  # warm-up: connections, caches
        before, started = sum(done), time.perf_counter()
        time.sleep(LOAD_SECONDS)
        count, elapsed = sum(done) - before, time.perf_counter() - started
        stop.set()
        for t in threads:
            t.join()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    return {"processes": workers, "requests_per_s": round(count / elapsed, 1), "errors": sum(errors)}


def measure(sizes: tuple[int, ...] = (10_000, 100_000)) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    engines: list[dict[str, Any]] = []
    processes: list[dict[str, Any]] = []
    with ThrowawayPostgres() as pg, tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            engines.append(_engine_row("SQLite", Path(tmp) / f"s{size}.db", size))
            print(engines[-1], flush=True)
            engines.append(_engine_row("PostgreSQL", pg.create_database(f"e{size}"), size))
            print(engines[-1], flush=True)
            pg.drop_database(f"e{size}")
        for workers in (1, 2, 4):
            processes.append(_throughput(pg.create_database(f"w{workers}"), workers))
            print(processes[-1], flush=True)
    return engines, processes


def markdown(engines: list[dict[str, Any]], processes: list[dict[str, Any]]) -> str:
    lines = [
        "| engine | memories | recall p50 ms | recall p95 ms | add_turn/s (sequential) | bulk seed s |",
        "|---|---|---|---|---|---|",
    ]
    for r in engines:
        lines.append(
            f"| {r['engine']} | {r['size']:,} | {r['recall_p50_ms']} | {r['recall_p95_ms']} "
            f"| {r['add_turn_per_s']} | {r['seed_s']} |"
        )
    lines += [
        "",
        f"PostgreSQL, `serve --workers N`, {CLIENTS} clients (half add_turn, half recall), {os.cpu_count()} cores:",
        "",
        "| processes | requests/s | errors |",
        "|---|---|---|",
    ]
    lines += [f"| {r['processes']} | {r['requests_per_s']} | {r['errors']} |" for r in processes]
    return "\n".join(lines)


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or (10_000, 100_000)
    print(markdown(*measure(sizes)))
