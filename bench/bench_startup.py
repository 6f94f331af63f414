"""Start-up: seconds from ``memorysync-server serve`` to its first answered request, and to ``/ready``.

Each row starts the real console command as its own process and polls over loopback every 10 ms:
``first answer`` is the first authenticated ``GET /org/projects`` answered 200 (the model may
still be loading then), ``ready`` the first ``GET /ready`` answered 200 (model loaded, database
reachable), ``first recall`` a recall issued at the first answer (it waits for the model).
SQLite on a fresh file and on the same file again; PostgreSQL (a throwaway server) with
``--workers 2``. The machine's load average is printed with the figures: on shared cores they
move with it.

    python bench/bench_startup.py [RUNS]
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

import httpx

KEY, TENANT = "ms_test_startup", "t_startup"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def load_average() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + f" (1/5/15 min, {os.cpu_count()} cores)"
    except OSError:
        return "unknown"


def start_once(db: str, workers: int = 1) -> dict[str, float]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "memorysync_server.cli", "serve", "--db", db, "--port", str(port)]
    command += ["--api-key", f"{KEY}={TENANT}", "--workers", str(workers), "--log-level", "warning"]
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    out: dict[str, float] = {}
    try:
        with httpx.Client(base_url=url, headers={"X-API-Key": KEY}, timeout=120) as http:
            while "first_answer_s" not in out:
                try:
                    if http.get("/org/projects").status_code == 200:
                        out["first_answer_s"] = time.perf_counter() - started
                except httpx.TransportError:
                    if proc.poll() is not None:
                        raise RuntimeError(f"serve exited: {proc.stderr.read().decode()[-2000:]}") from None
                    time.sleep(0.01)
            body = {"tenant_id": TENANT, "user_id": "u", "prompt": "What do I like?"}
            if http.post("/v1/memory/recall", json=body).status_code == 200:
                out["first_recall_s"] = time.perf_counter() - started
            while http.get("/ready").status_code != 200:
                time.sleep(0.01)
            out["ready_s"] = time.perf_counter() - started
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
    return out


def measure(runs: int = 3, *, postgres: bool = True) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memorysync-startup-") as tmp:
        cases: list[tuple[str, list[str], int]] = []
        fresh = [str(Path(tmp) / f"fresh-{i}.db") for i in range(runs)]
        cases.append(("SQLite, fresh database (cold)", fresh, 1))
        cases.append(("SQLite, existing database (restart)", [fresh[0]] * runs, 1))
        pg = None
        if postgres:
            # The throwaway PostgreSQL is test tooling, kept with the tests.
            root = str(Path(__file__).resolve().parents[1])
            if root not in sys.path:
                sys.path.insert(0, root)
            from tests.support.pg_throwaway import ThrowawayPostgres

            pg = ThrowawayPostgres().start()
            urls = [pg.create_database(f"startup_{i}") for i in range(runs)]
            cases.append(("PostgreSQL, fresh database, --workers 2 (cold)", urls, 2))
            cases.append(("PostgreSQL, existing database, --workers 2 (restart)", [urls[0]] * runs, 2))
        try:
            for label, dbs, workers in cases:
                results = [start_once(db, workers) for db in dbs]
                row: dict[str, Any] = {"start": label, "runs": runs, "load": load_average()}
                for key in ("first_answer_s", "first_recall_s", "ready_s"):
                    values = [r[key] for r in results if key in r]
                    row[key] = (
                        f"{median(values):.2f} ({min(values):.2f}-{max(values):.2f})" if values else "-"
                    )
                rows.append(row)
                print(row, flush=True)
        finally:
            if pg is not None:
                pg.stop()
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    keys = ["start", "runs", "first_answer_s", "first_recall_s", "ready_s", "load"]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(row[k]) for k in keys) + " |" for row in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    print(f"load before: {load_average()}")
    table = markdown(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    print(table)
    print(f"load after: {load_average()}")
