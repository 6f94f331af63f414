"""Several server processes over one PostgreSQL database: each answers as if it were the only one.

Real ``memorysync-server serve`` processes (not threads), real PostgreSQL, real HTTP.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .conftest import new_postgres_database

KEY, TENANT = "ms_test_workers00000000", "t_team"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Proc:
    def __init__(self, db: str, *extra: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [
            sys.executable,
            "-m",
            "memorysync_server.cli",
            "serve",
            "--db",
            db,
            "--port",
            str(self.port),
        ]
        command += ["--api-key", f"{KEY}={TENANT}", "--log-level", "warning", *extra]
        self.proc = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if (
                    httpx.get(self.url + "/org/projects", headers={"X-API-Key": KEY}, timeout=2).status_code
                    == 200
                ):
                    break
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server did not start: {self.proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            time.sleep(0.1)
        self.http = httpx.Client(base_url=self.url, headers={"X-API-Key": KEY}, timeout=30)

    def post(self, path: str, body: dict[str, Any], method: str = "POST", **headers: str) -> Any:
        r = self.http.request(method, path, json=body, headers=headers)
        assert r.status_code in (200, 201), (path, r.status_code, r.text)
        return r.json()

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def team_db(postgres_cluster: Any) -> Iterator[str]:
    name, url = new_postgres_database(postgres_cluster)
    yield url
    postgres_cluster.drop_database(name)


@pytest.fixture
def two(team_db: str) -> Iterator[tuple[Proc, Proc]]:
    a = Proc(team_db)
    try:
        b = Proc(team_db)
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def _recall(proc: Proc, user: str, prompt: str) -> list[str]:
    body = {"tenant_id": TENANT, "user_id": user, "prompt": prompt, "k": 20}
    return [m["text"] for m in proc.post("/v1/memory/query", body)["memories"]]


def test_each_process_reads_what_the_other_just_wrote(two: tuple[Proc, Proc]) -> None:
    a, b = two
    assert _recall(a, "u", "instrument") == [] == _recall(b, "u", "instrument")  # both cache "nothing"
    for i, (writer, reader) in enumerate([(a, b), (b, a)] * 5):
        text = f"User owns instrument number {i}"
        writer.post("/memory/add", {"text": text}, **{"X-End-User-ID": "u"})
        assert text in _recall(reader, "u", f"instrument number {i}")
    # A delete through one process is seen by the other's cached search at once.
    listed = b.http.get(f"/v1/memory/{TENANT}/u/list").json()["memories"]
    gone = [m["memory_id"] for m in listed[:3]]
    a.post("/memory/forget", {"memory_ids": gone}, "DELETE", **{"X-End-User-ID": "u"})
    left = {m["memory_id"] for m in b.http.get(f"/v1/memory/{TENANT}/u/list").json()["memories"]}
    assert not left & set(gone) and len(left) == 7
    assert len(_recall(b, "u", "instrument number")) == 7


def test_concurrent_idempotent_writes_through_both_processes_store_once(two: tuple[Proc, Proc]) -> None:
    a, b = two
    turn = {
        "role": "user",
        "content": "I moved to Bergen last spring",
        "seq": 1,
        "idempotency_key": "t-1",
        "occurred_at": "2026-03-10T12:00:00Z",
    }
    append = {"tenant_id": TENANT, "user_id": "u", "session_id": "s", "turns": [turn]}
    add = {"text": "User's sister is called Ingrid", "client_ref": "ref-1"}

    def hit(i: int) -> None:
        proc = (a, b)[i % 2]
        proc.post("/v1/history/append", append)
        proc.post("/memory/add", add, **{"X-End-User-ID": "u"})
        proc.post("/v1/memory/add_turn", {"tenant_id": TENANT, "user_id": "u", "text": "I play the oboe"})

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(hit, range(32)))
    history = a.post("/v1/history/list", {"tenant_id": TENANT, "user_id": "u", "session_id": "s"})
    assert history["total"] == 1
    texts = [m["text"] for m in b.http.get(f"/v1/memory/{TENANT}/u/list").json()["memories"]]
    # Each fact exactly once, though 32 requests through two processes carried each of them.
    assert sorted(texts) == [
        "User moved to Bergen in spring 2025",
        "User plays the oboe",
        "User's sister is called Ingrid",
    ]


def test_a_killed_process_loses_nothing_it_acknowledged(two: tuple[Proc, Proc]) -> None:
    a, b = two
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def write(worker: int) -> None:
        with httpx.Client(base_url=a.url, headers={"X-API-Key": KEY}, timeout=10) as http:
            n = 0
            while not stop.is_set():
                key = f"w{worker}-{n}"
                body = {
                    "tenant_id": TENANT,
                    "user_id": "u",
                    "session_id": "kill",
                    "turns": [{"role": "user", "content": f"I keep note {key}", "idempotency_key": key}],
                }
                try:
                    r = http.post("/v1/history/append", json=body)
                except httpx.TransportError:
                    return
                if r.status_code == 200:
                    with lock:
                        acknowledged.append(key)
                n += 1

    writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for w in writers:
        w.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    a.kill()
    stop.set()
    for w in writers:
        w.join()
    assert len(acknowledged) >= 40
    body = {"tenant_id": TENANT, "user_id": "u", "session_id": "kill"}
    items = b.post("/v1/history/list", body)["items"]
    keys = [item["content"].removeprefix("I keep note ") for item in items]
    assert set(acknowledged) <= set(keys)
    assert len(keys) == len(set(keys))


def test_serve_with_workers_answers_from_every_process(team_db: str) -> None:
    server = Proc(team_db, "--workers", "2")
    try:
        server.post("/memory/add", {"text": "User is allergic to peanuts"}, **{"X-End-User-ID": "u"})
        for _ in range(10):  # each request may land on either worker
            assert _recall(server, "u", "peanuts") == ["User is allergic to peanuts"]
    finally:
        server.stop()


def _serve_without_key(db: str) -> tuple[subprocess.Popen[str], str, str]:
    """``serve --workers 2`` with no --api-key: (process, its banner, the development key it printed)."""
    port = _free_port()
    command = [sys.executable, "-m", "memorysync_server.cli", "serve", "--db", db, "--port", str(port)]
    command += ["--workers", "2", "--log-level", "warning"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    banner = ""
    while "export MEMORYSYNC_API_KEY=" not in banner:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line, f"serve exited: {proc.stderr.read()[-2000:]}"  # type: ignore[union-attr]
        banner += line
    key = banner.split("export MEMORYSYNC_API_KEY=")[1].split()[0]
    deadline = time.monotonic() + 30
    while True:
        try:
            answer = httpx.get(f"http://127.0.0.1:{port}/org/projects", headers={"X-API-Key": key}, timeout=2)
            if answer.status_code == 200:
                return proc, banner, key
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline and proc.poll() is None, "the workers did not answer"
        time.sleep(0.1)


def test_workers_without_a_key_serve_the_development_key_kept_in_the_database(team_db: str) -> None:
    # The parent of --workers never builds an app; it still creates the key once and the workers accept it.
    first, banner, key = _serve_without_key(team_db)
    os.killpg(first.pid, signal.SIGTERM)
    first.wait(10)
    assert "created a new development key" in banner
    again, banner, same = _serve_without_key(team_db)
    os.killpg(again.pid, signal.SIGTERM)
    again.wait(10)
    assert "reusing the development key" in banner and same == key
