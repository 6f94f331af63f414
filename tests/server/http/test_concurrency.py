"""Concurrent edits of the same memories, over real sockets, on both engines: no 5xx, no lost
update, and a final state that some serial order of the answered requests explains.

Every request of a round starts together (a barrier), but no assertion depends on who wins: each
checks what every serial order of the answered requests would leave (every key of every answered
PATCH present, importance the sum of the answered signals, each memory forgotten exactly once).
The last test runs the same edits through two server processes over one PostgreSQL database.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest

from memorysync_server.launcher import LocalServer

from ..test_workers import KEY, TENANT, Proc

USER = "u_concurrent"
# Signals that cannot reach the clamps from 0.5 in any order (max 0.98, min 0.16): the final
# importance is then the plain sum whatever the order, so a lost signal always shows.
SIGNALS = ["positive"] * 4 + ["negative"] * 3 + ["retrieved"] * 4 + ["ignored"] * 2
STEP = {"positive": 0.1, "negative": -0.1, "retrieved": 0.02, "ignored": -0.02}


class Client:
    """The /memory/* plane of one server (or of one of several processes) for one end user."""

    def __init__(self, base_url: str, key: str) -> None:
        self.http = httpx.Client(
            base_url=base_url, headers={"X-API-Key": key, "X-End-User-ID": USER}, timeout=60
        )

    def send(self, method: str, path: str, body: Any = None) -> httpx.Response:
        response = self.http.request(method, path, json=body)
        assert response.status_code < 500, (method, path, response.status_code, response.text)
        return response

    def add(self, text: str) -> int:
        response = self.send("POST", "/memory/add", {"text": text, "deduplicate": False})
        assert response.status_code == 200, response.text
        return int(response.json()["id"])

    def get(self, memory_id: int) -> httpx.Response:
        return self.send("GET", f"/memory/{memory_id}")


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call on its own thread, all released at once; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait(timeout=60)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture
def clients(db: str | Path) -> Iterator[list[Client]]:
    """Two clients of one server over ``db`` (lexical search: no model to load)."""
    srv = LocalServer(db, search="lexical")
    srv.start()
    made = [Client(srv.base_url, srv.api_key) for _ in range(2)]
    try:
        yield made
    finally:
        for client in made:
            client.http.close()
        srv.stop()


def _patches_keep_every_key(clients: list[Client], n: int = 12) -> None:
    memory_id = clients[0].add("User owns bicycle number 3")
    answers = together(
        [
            lambda i=i: clients[i % len(clients)].send(
                "PATCH", f"/memory/{memory_id}", {"metadata": {f"k{i}": i}}
            )
            for i in range(n)
        ]
    )
    assert [a.status_code for a in answers] == [200] * n
    stored = clients[0].get(memory_id).json()["metadata"]
    assert {f"k{i}": i for i in range(n)}.items() <= stored.items()
    # Serial: each answer saw the keys of the edits before it, so the answers nest.
    seen = sorted((set(a.json()["metadata"]) for a in answers), key=len)
    assert all(earlier < later for earlier, later in pairwise(seen))
    history = clients[0].send("GET", f"/memory/{memory_id}/history").json()
    assert [r["revision"] for r in history["revisions"]] == list(range(n + 1))


def _signals_add_up(clients: list[Client]) -> None:
    memory_id = clients[0].add("Blue kite flying over hill 7")
    order = random.Random(7).sample(SIGNALS, len(SIGNALS))
    answers = together(
        [
            lambda i=i, s=s: clients[i % len(clients)].send(
                "POST", f"/memory/{memory_id}/feedback", {"signal": s}
            )
            for i, s in enumerate(order)
        ]
    )
    assert [a.status_code for a in answers] == [200] * len(order)
    bodies = sorted((a.json() for a in answers), key=lambda b: b["summary"]["total_signals"])
    # Each answer counted the signals before it and itself: 1..N, once each.
    assert [b["summary"]["total_signals"] for b in bodies] == list(range(1, len(order) + 1))
    # ...and started from the importance the one before it left.
    chain = [0.5] + [b["importance_after"] for b in bodies]
    assert [b["importance_before"] for b in bodies] == chain[:-1]
    expected = 0.5 + sum(STEP[s] for s in order)
    assert clients[0].get(memory_id).json()["importance"] == pytest.approx(expected, abs=1e-6)
    assert chain[-1] == pytest.approx(expected, abs=1e-6)


def test_concurrent_patches_keep_every_key(clients: list[Client]) -> None:
    _patches_keep_every_key(clients)


def test_concurrent_feedback_adds_every_signal(clients: list[Client]) -> None:
    _signals_add_up(clients)


def test_feedback_and_edits_racing_forget_answer_404_not_500(clients: list[Client]) -> None:
    ids = [clients[0].add(f"User keeps locker number {i}") for i in range(4)]
    calls: list[Callable[[], httpx.Response]] = []
    for memory_id in ids:
        calls += [
            lambda m=memory_id: clients[0].send("POST", f"/memory/{m}/feedback", {"signal": "negative"}),
            lambda m=memory_id: clients[1].send("PATCH", f"/memory/{m}", {"tags": ["x"]}),
            lambda m=memory_id: clients[1].send("DELETE", "/memory/forget", {"memory_ids": [f"m_{m}"]}),
        ]
    answers = together(calls)
    forgotten: list[int] = []
    for answer in answers:
        assert answer.status_code in (200, 404), answer.text
        if answer.request.method == "DELETE":
            assert answer.status_code == 200
            forgotten += answer.json()
        elif answer.status_code == 404:
            assert "not visible" in answer.json()["detail"]
    assert sorted(forgotten) == ids  # each memory forgotten by its one forget
    assert [clients[0].get(m).status_code for m in ids] == [404] * len(ids)


def test_batch_updates_in_opposite_orders_all_land(clients: list[Client]) -> None:
    ids = [clients[0].add(f"User waters plant number {i}") for i in range(4)]
    n = 8

    def batch(i: int) -> httpx.Response:
        order = ids if i % 2 else ids[::-1]
        items = [{"memory_id": m, "metadata": {f"b{i}": i}} for m in order]
        return clients[i % 2].send("POST", "/memory/batch-update", {"items": items})

    answers = together([lambda i=i: batch(i) for i in range(n)])
    for answer in answers:
        assert answer.status_code == 207, answer.text
        assert answer.json()["updated"] == len(ids)
    for memory_id in ids:
        stored = clients[0].get(memory_id).json()["metadata"]
        assert {f"b{i}": i for i in range(n)}.items() <= stored.items()


def test_overlapping_forgets_delete_each_memory_once(clients: list[Client]) -> None:
    ids = [clients[0].add(f"User parks in bay number {i}") for i in range(10)]
    windows = [ids[i : i + 4] for i in range(0, 7)]
    shuffle = random.Random(3)
    calls = [
        lambda w=w, c=clients[i % 2]: c.send(
            "DELETE", "/memory/forget", {"memory_ids": [f"m_{m}" for m in shuffle.sample(w, len(w))]}
        )
        for i, w in enumerate(windows)
    ]
    answers = together(calls)
    assert [a.status_code for a in answers] == [200] * len(calls)
    deleted = [m for a in answers for m in a.json()]
    assert sorted(deleted) == ids  # disjoint answers that cover every id
    assert clients[0].send("GET", "/memory/export").json()["memories"] == []


def test_bulk_adds_of_the_same_texts_store_each_once(clients: list[Client]) -> None:
    texts = [f"User collects stamp series {chr(65 + i)}" for i in range(5)]
    shuffle = random.Random(5)
    orders = [shuffle.sample(texts, len(texts)) for _ in range(6)]
    calls = [
        lambda o=o, c=clients[i % 2]: c.send(
            "POST",
            "/memory/bulk-add",
            {"items": [{"text": t, "end_user_id": USER} for t in o], "deduplicate": False},
        )
        for i, o in enumerate(orders)
    ]
    answers = together(calls)
    assert [a.status_code for a in answers] == [207] * len(calls)
    stored = {m["text"]: m["id"] for m in clients[0].send("GET", "/memory/export").json()["memories"]}
    assert sorted(stored) == sorted(texts)  # each text once
    created: dict[str, int] = dict.fromkeys(texts, 0)
    for order, answer in zip(orders, answers, strict=True):
        for result in answer.json()["results"]:
            text = order[result["index"]]
            assert result["memory_ids"] == [stored[text]], result
            created[text] += result["status"] == "created"
    assert created == dict.fromkeys(texts, 1)


@pytest.fixture
def two_processes(postgres_cluster: Any) -> Iterator[list[Client]]:
    """Two ``memorysync-server serve`` processes over one fresh PostgreSQL database."""
    from ..conftest import new_postgres_database

    name, url = new_postgres_database(postgres_cluster)
    procs: list[Proc] = []
    try:
        procs = [Proc(url, "--search", "lexical") for _ in range(2)]
        made = [Client(proc.url, KEY) for proc in procs]
        yield made
        for client in made:
            client.http.close()
    finally:
        for proc in procs:
            proc.stop()
        postgres_cluster.drop_database(name)


def test_two_processes_on_one_postgres_lose_nothing(two_processes: list[Client]) -> None:
    assert TENANT  # the processes' key acts in this tenant
    _patches_keep_every_key(two_processes)
    _signals_add_up(two_processes)
