"""Fairness: one tenant's large writes do not stall another tenant's reads.

Writes embed and encode before they open the storage's unit of work, and reads do not queue
behind a writer, so tenant B's recalls keep completing while tenant A's 1 MiB state writes are
in flight. (Latency figures are in bench/bench_fairness.py; this checks the promise only.)
"""

from __future__ import annotations

import threading
import time

import httpx

from memorysync_server.launcher import LocalServer

KEYS = {"ms_test_a": "t_a", "ms_test_b": "t_b"}


def big_value(size: int = 1 << 20) -> dict[str, list[str]]:
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    notes, total, i = [], 0, 0
    while total < size:
        note = " ".join(f"{words[(i + j) % 10]}{(i * 7 + j) % 97}" for j in range(20))
        notes.append(note)
        total += len(note) + 4
        i += 1
    return {"notes": notes}


def test_recalls_complete_while_another_tenant_writes_large_values(tmp_path) -> None:
    with LocalServer(tmp_path / "fair.db", keys=KEYS) as srv:
        b = httpx.Client(
            base_url=srv.base_url, headers={"X-API-Key": "ms_test_b", "X-End-User-ID": "u"}, timeout=60
        )
        assert b.post("/memory/add", json={"text": "User plays the cello"}).status_code == 200
        value = big_value()
        first_write_done: list[float] = []
        errors: list[BaseException] = []

        def write(n: int) -> None:
            try:
                with httpx.Client(
                    base_url=srv.base_url, headers={"X-API-Key": "ms_test_a"}, timeout=120
                ) as a:
                    body = {
                        "tenant_id": "t_a",
                        "user_id": "u",
                        "namespace": ["big"],
                        "key": f"k{n}",
                        "value": value,
                    }
                    r = a.post("/v1/state/put", json=body)
                    assert r.status_code == 200, r.text
                    first_write_done.append(time.monotonic())
            except BaseException as error:  # surfaced below
                errors.append(error)

        writers = [threading.Thread(target=write, args=(n,)) for n in range(3)]
        for w in writers:
            w.start()
        recalls_before_first_write = 0
        body = {"tenant_id": "t_b", "user_id": "u", "prompt": "what instrument do I play?"}
        while not first_write_done and any(w.is_alive() for w in writers):
            r = b.post("/v1/memory/recall", json=body)
            assert r.status_code == 200 and r.json()["memories"][0]["text"] == "User plays the cello"
            if not first_write_done:
                recalls_before_first_write += 1
        for w in writers:
            w.join()
        b.close()
        assert not errors
        # Each write embeds ~1 MiB of text (hundreds of ms); a recall is a few ms. A store that
        # embedded under its lock let B through at most once before the first write finished.
        assert recalls_before_first_write >= 3
