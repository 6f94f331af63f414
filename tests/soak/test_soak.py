"""Soak and fault runs against the server as a separate process (loopback only, bounded in time).

`make soak` runs them long (SOAK_SECONDS, default there 75) and prints the figures; `make test`
runs a short version. What they hold the server to:
- mixed traffic from many concurrent clients over three tenants: no unexpected status, and resident
  memory flat once warmed up (the data set is kept bounded, so growth would be a leak);
- SIGKILL in the middle of concurrent writes, then a restart on the same file: every write the
  server acknowledged is there exactly once.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from .server_process import KEYS, ServerProcess

SOAK_SECONDS = float(os.environ.get("SOAK_SECONDS", "8"))
CLIENTS = int(os.environ.get("SOAK_CLIENTS", "16"))
SENTENCES = [
    "I'm vegan and I love Ethiopian food.",
    "I live in Bergen with my partner Sam.",
    "I work as a nurse at the city hospital.",
    "My daughter Mia plays the cello.",
    "I'm allergic to penicillin.",
    "I prefer aisle seats on long flights.",
    "I run a marathon every spring.",
    "I drink my coffee black.",
    "My dog Pixel is a golden retriever.",
    "I'm saving for a house in Oslo.",
    "I hate loud restaurants.",
    "I usually go to bed around midnight.",
]
PROMPTS = ["what should I cook tonight", "plan my next trip", "any health notes?", "what is 17 times 23"]


def report(line: str) -> None:
    # Figures go to stdout past pytest's capture so `make soak` shows them.
    print(line, flush=True)


@dataclass
class Tally:
    statuses: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, op: str, status: int, expected: set[int], seconds: float, body: str) -> None:
        with self.lock:
            self.statuses[f"{op} {status}"] += 1
            self.latencies[op].append(seconds)
            if status not in expected and len(self.unexpected) < 20:
                self.unexpected.append(f"{op}: {status} {body[:200]}")
            elif status not in expected:
                self.unexpected.append("...")


class Client:
    """One simulated integration: its own key, a few users, a bounded working set."""

    def __init__(self, base_url: str, key: str, tenant: str, number: int, tally: Tally) -> None:
        self.http = httpx.Client(base_url=base_url, headers={"X-API-Key": key}, timeout=30)
        self.tenant = tenant
        self.key = key
        self.number = number
        self.tally = tally
        self.rand = random.Random(number)
        self.saved: list[tuple[str, int]] = []
        self.n = 0

    def user(self) -> str:
        return f"user-{self.number % 4}-{self.rand.randrange(3)}"

    def call(self, op: str, method: str, path: str, expected: set[int], **kw: Any) -> httpx.Response:
        started = time.perf_counter()
        response = self.http.request(method, path, **kw)
        self.tally.record(op, response.status_code, expected, time.perf_counter() - started, response.text)
        return response

    def v1(self, op: str, path: str, expected: set[int] | None = None, **body: Any) -> httpx.Response:
        payload = {"tenant_id": self.tenant, "user_id": self.user(), **body}
        return self.call(op, "POST", path, expected or {200}, json=payload)

    def step(self) -> None:
        self.n += 1
        choice = self.rand.random()
        sentence = self.rand.choice(SENTENCES)
        if choice < 0.18:
            self.v1("add_turn", "/v1/memory/add_turn", {201}, text=sentence, speaker=f"human@soak#{self.n}")
        elif choice < 0.36:
            self.v1("recall", "/v1/memory/recall", prompt=self.rand.choice(PROMPTS), k=5)
        elif choice < 0.46:
            self.v1("query", "/v1/memory/query", prompt=self.rand.choice(PROMPTS), k=5)
        elif choice < 0.52:
            user = self.user()
            self.call("list", "GET", f"/v1/memory/{self.tenant}/{user}/list", {200}, params={"limit": 20})
        elif choice < 0.60:
            user = self.user()
            answer = self.call(
                "add",
                "POST",
                "/memory/add",
                {200},
                json={"text": sentence, "client_ref": f"c{self.number}-{self.n}"},
                headers={"X-End-User-ID": user},
            )
            if answer.status_code == 200 and "id" in answer.json():
                self.saved.append((user, answer.json()["id"]))
            # Keep the data set bounded: memory growth then means a leak, not more data.
            while len(self.saved) > 10:
                old_user, old_id = self.saved.pop(0)
                self.call(
                    "forget",
                    "DELETE",
                    "/memory/forget",
                    {200},
                    json={"memory_ids": [old_id]},
                    headers={"X-End-User-ID": old_user},
                )
        elif choice < 0.68:
            turns = [{"role": "user", "content": sentence, "seq": self.n}]
            self.v1("append", "/v1/history/append", session_id=f"s{self.n % 5}", turns=turns, extract=False)
        elif choice < 0.72:
            self.v1("history", "/v1/history/list", session_id=f"s{self.n % 5}", limit=50)
        elif choice < 0.82:
            key = f"k{self.rand.randrange(25)}"
            self.v1(
                "put", "/v1/state/put", namespace=["soak"], key=key, value={"memory": sentence, "n": self.n}
            )
        elif choice < 0.86:
            self.v1("get", "/v1/state/get", namespace=["soak"], key=f"k{self.rand.randrange(25)}")
        elif choice < 0.90:
            self.v1("search", "/v1/state/search", query=self.rand.choice(PROMPTS), namespace_prefix=["soak"])
        elif choice < 0.92:
            self.v1("delete", "/v1/state/delete", namespace=["soak"], keys=[f"k{self.rand.randrange(25)}"])
        else:
            self.bad_request()

    def bad_request(self) -> None:
        """Requests that must be refused, each with its own status."""
        kind = self.rand.randrange(5)
        if kind == 0:
            self.call(
                "bad:tenant", "POST", "/v1/memory/recall", {403},
                json={"tenant_id": "t_someone_else", "user_id": "u", "prompt": "hi"},
            )  # fmt: skip
        elif kind == 1:
            self.v1("bad:empty", "/v1/memory/add_turn", {422}, text="   ")
        elif kind == 2:
            self.call(
                "bad:media",
                "POST",
                "/v1/memory/add_turn",
                {415},
                content=b"{}",
                headers={"Content-Type": "text/plain"},
            )
        elif kind == 3:
            other = next(k for k in KEYS if k != self.key)
            self.call(
                "bad:dup",
                "GET",
                "/org/projects",
                {400},
                headers=[("X-API-Key", self.key), ("X-API-Key", other)],
            )
        else:
            self.call("bad:path", "GET", f"/v1/memory/{self.tenant}/%C3/list", {400})


def _run_clients(server: ServerProcess, seconds: float, clients: int, on_tick: Callable[[], None]) -> Tally:
    tally = Tally()
    stop = threading.Event()
    pairs = list(KEYS.items())

    def work(number: int) -> None:
        key, tenant = pairs[number % len(pairs)]
        client = Client(server.base_url, key, tenant, number, tally)
        try:
            while not stop.is_set():
                client.step()
        except httpx.HTTPError as error:
            with tally.lock:
                tally.unexpected.append(f"transport error: {error!r}")
        finally:
            client.http.close()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        on_tick()
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return tally


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def test_mixed_traffic_answers_as_expected_and_memory_stays_flat(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "soak.db").start()
    samples: list[tuple[float, float]] = []
    started = time.monotonic()
    try:
        tally = _run_clients(
            server,
            SOAK_SECONDS,
            CLIENTS,
            lambda: samples.append((time.monotonic() - started, server.rss_mb())),
        )
        samples.append((time.monotonic() - started, server.rss_mb()))
    finally:
        server.stop()
    total = sum(tally.statuses.values())
    elapsed = samples[-1][0]
    warm = [rss for t, rss in samples if t >= 0.4 * elapsed]
    after_warmup, final = warm[0], statistics.median(warm[-3:])
    growth = final - after_warmup
    all_latencies = [x for values in tally.latencies.values() for x in values]
    report(
        f"\nsoak: {elapsed:.0f} s, {CLIENTS} clients over {len(KEYS)} tenants, {total} requests "
        f"({total / elapsed:.0f}/s), p50 {1000 * _percentile(all_latencies, 0.5):.1f} ms, "
        f"p95 {1000 * _percentile(all_latencies, 0.95):.1f} ms, unexpected statuses {len(tally.unexpected)}"
    )
    report(
        f"soak: server RSS start {samples[0][1]:.1f} MB, after warm-up {after_warmup:.1f} MB, "
        f"end {final:.1f} MB (growth {growth:+.1f} MB), max {max(r for _, r in samples):.1f} MB"
    )
    report("soak: statuses " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.statuses.items())))
    assert not tally.unexpected, tally.unexpected
    assert total > 10 * SOAK_SECONDS, "too few requests completed for a meaningful run"
    # Flat: the data set is bounded (forgets follow adds, state keys and sentences repeat), so
    # memory that keeps growing after warm-up is a leak. Allow allocator noise.
    assert growth <= max(16.0, 0.15 * after_warmup), samples


def test_sigkill_mid_writes_loses_no_acknowledged_write(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    server = ServerProcess(db).start()
    key, tenant = next(iter(KEYS.items()))
    acked_memories: list[tuple[str, int, str]] = []
    acked_turns: list[tuple[str, str]] = []
    acked_state: list[tuple[str, dict[str, Any]]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(w: int) -> None:
        http = httpx.Client(base_url=server.base_url, headers={"X-API-Key": key}, timeout=10)
        n = 0
        try:
            while not stop.is_set():
                n += 1
                ref = f"w{w}-{n}"
                kind = n % 3
                if kind == 0:
                    answer = http.post(
                        "/memory/add",
                        json={"text": f"I keep a notebook numbered {w}{n:05d}.", "client_ref": ref},
                        headers={"X-End-User-ID": f"writer-{w}"},
                    )
                    if answer.status_code == 200 and "id" in answer.json():
                        with lock:
                            acked_memories.append((f"writer-{w}", answer.json()["id"], ref))
                elif kind == 1:
                    turn = {"role": "user", "content": f"turn {ref}", "seq": n, "idempotency_key": ref}
                    answer = http.post(
                        "/v1/history/append",
                        json={
                            "tenant_id": tenant,
                            "user_id": f"writer-{w}",
                            "session_id": "s",
                            "turns": [turn],
                            "extract": False,
                        },
                    )
                    if answer.status_code == 200:
                        with lock:
                            acked_turns.append((f"writer-{w}", ref))
                else:
                    value = {"n": n, "ref": ref}
                    answer = http.post(
                        "/v1/state/put",
                        json={
                            "tenant_id": tenant,
                            "user_id": f"writer-{w}",
                            "namespace": ["kill"],
                            "key": ref,
                            "value": value,
                        },
                    )
                    if answer.status_code == 200:
                        with lock:
                            acked_state.append((f"writer-{w}", value))
        except httpx.HTTPError:
            return  # the server died under us: what wasn't acknowledged is unknown, as for any client
        finally:
            http.close()

    threads = [threading.Thread(target=writer, args=(w,), daemon=True) for w in range(4)]
    for thread in threads:
        thread.start()
    # Kill once enough writes were acknowledged to make the check meaningful (a loaded machine
    # acknowledges fewer per second), and never before a quarter of the soak time.
    started = time.monotonic()
    while time.monotonic() - started < 60 and (
        time.monotonic() - started < max(2.0, SOAK_SECONDS / 4)
        or len(acked_memories) + len(acked_turns) + len(acked_state) < 60
    ):
        time.sleep(0.05)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    acked = len(acked_memories) + len(acked_turns) + len(acked_state)
    assert acked > 20, "too few writes before the kill for a meaningful check"

    restarted = ServerProcess(db).start()
    try:
        http = httpx.Client(base_url=restarted.base_url, headers={"X-API-Key": key}, timeout=30)
        missing: list[str] = []
        for user in sorted({u for u, _, _ in acked_memories}):
            listed = http.get(f"/v1/memory/{tenant}/{user}/list").json()["memories"]
            counts = Counter(m["memory_id"] for m in listed)
            for _, memory_id, ref in (m for m in acked_memories if m[0] == user):
                if counts[f"m_{memory_id}"] != 1:
                    missing.append(f"memory {memory_id} ({ref}) x{counts[f'm_{memory_id}']}")
        for user in sorted({u for u, _ in acked_turns}):
            items = http.post(
                "/v1/history/list", json={"tenant_id": tenant, "user_id": user, "session_id": "s"}
            ).json()["items"]
            contents = Counter(item["content"] for item in items)
            for _, ref in (t for t in acked_turns if t[0] == user):
                if contents[f"turn {ref}"] != 1:
                    missing.append(f"turn {ref} x{contents[f'turn {ref}']}")
        for user, value in acked_state:
            item = http.post(
                "/v1/state/get",
                json={"tenant_id": tenant, "user_id": user, "namespace": ["kill"], "key": value["ref"]},
            ).json()["item"]
            if item is None or item["value"] != value:
                missing.append(f"state {value['ref']}")
        # A client that retries an acknowledged write after the crash gets the first answer back.
        if acked_memories:
            user, memory_id, ref = acked_memories[-1]
            again = http.post(
                "/memory/add", json={"text": "anything", "client_ref": ref}, headers={"X-End-User-ID": user}
            ).json()
            assert again.get("reason") == "already_ingested" and again["memory_ids"] == [memory_id]
        http.close()
    finally:
        restarted.stop()
    report(
        f"\nsigkill: {acked} acknowledged writes ({len(acked_memories)} memories, {len(acked_turns)} turns, "
        f"{len(acked_state)} state values) before the kill; after restart {acked - len(missing)} present "
        f"exactly once, {len(missing)} missing or duplicated"
    )
    assert not missing, missing


@pytest.fixture(autouse=True)
def _no_stray_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The server processes read MEMORYSYNC_SERVER_* from the environment; the test names its own keys.
    for name in list(os.environ):
        if name.startswith("MEMORYSYNC_SERVER_"):
            monkeypatch.delenv(name)
