"""A database whose disk fills up: writes answer 507 with a clear detail, reads keep working,
nothing acknowledged is lost, and writes succeed again once there is room.

Two ways to fill it: a real, small tmpfs holding the database (needs root to mount; skipped
elsewhere), and SQLite's page limit on the server's own connection (fault injection that runs
anywhere).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memorysync_server import LocalServer

from .server_process import KEYS, ServerProcess

VALUE = {"memory": "x" * 4000}


def _mount(point: Path, size: str, *, remount: bool = False) -> bool:
    options = f"remount,size={size}" if remount else f"size={size}"
    args = ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)]
    if shutil.which("mount") is None:
        return False
    return subprocess.run(args, capture_output=True).returncode == 0


@pytest.fixture(params=["tmpfs", "page-limit"])
def filling_server(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[str, str, str, Callable[[], None]]]:
    """(base_url, key, tenant, make_room) for a server whose storage is small enough to fill."""
    if request.param == "tmpfs":
        point = tmp_path / "small"
        point.mkdir()
        if not _mount(point, "1536k"):
            pytest.skip("cannot mount a tmpfs here (needs root); the page-limit variant covers the behaviour")
        server = ServerProcess(point / "full.db").start()
        key, tenant = next(iter(KEYS.items()))
        try:
            yield server.base_url, key, tenant, lambda: _mount(point, "64m", remount=True)
        finally:
            server.stop()
            subprocess.run(["umount", str(point)], capture_output=True)
    else:
        with LocalServer(tmp_path / "limited.db") as srv:
            db = srv.app.services.store._db  # fault injection: cap the writer connection's pages
            with db.lock:
                pages = db.conn.execute("PRAGMA page_count").fetchone()[0]
                db.conn.execute(f"PRAGMA max_page_count = {pages + 150}")

            def make_room() -> None:
                with db.lock:
                    db.conn.execute("PRAGMA max_page_count = 1073741823")

            yield srv.base_url, srv.api_key, srv.tenant_id, make_room


def test_a_full_disk_answers_507_and_loses_nothing_acknowledged(filling_server: Any) -> None:
    base_url, key, tenant, make_room = filling_server
    http = httpx.Client(base_url=base_url, headers={"X-API-Key": key}, timeout=30)

    def put(n: int) -> httpx.Response:
        body = {
            "tenant_id": tenant,
            "user_id": "u",
            "namespace": ["full"],
            "key": f"k{n}",
            "value": {**VALUE, "n": n},
        }
        return http.post("/v1/state/put", json=body)

    acknowledged, refused = [], None
    for n in range(3000):
        answer = put(n)
        if answer.status_code == 200:
            acknowledged.append(n)
            continue
        refused = (n, answer)
        break
    assert refused is not None, "the storage never filled up"
    n, answer = refused
    assert answer.status_code == 507, answer.text
    assert "Insufficient storage" in answer.json()["detail"] and "retry" in answer.json()["detail"]
    assert len(acknowledged) > 5

    # Other writes are refused the same way, and reads still answer while the disk is full.
    turn = http.post(
        "/v1/memory/add_turn",
        json={"tenant_id": tenant, "user_id": "u", "text": "I'm vegan and I live in Oslo."},
    )
    assert turn.status_code in (201, 507), turn.text
    listed = http.post(
        "/v1/state/list",
        json={"tenant_id": tenant, "user_id": "u", "namespace_prefix": ["full"], "limit": 5000},
    )
    assert listed.status_code == 200
    assert sorted(int(item["key"][1:]) for item in listed.json()["items"]) == acknowledged

    make_room()
    assert put(n).status_code == 200  # the refused write, retried once there is room
    for m in [*acknowledged, n]:
        item = http.post(
            "/v1/state/get", json={"tenant_id": tenant, "user_id": "u", "namespace": ["full"], "key": f"k{m}"}
        ).json()["item"]
        assert item is not None and item["value"]["n"] == m
    http.close()
