"""The development key: stored with the database, reused on restart, replaced on --reset-dev-key."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from memorysync_server import cli
from memorysync_server.devkey import dev_key
from memorysync_server.storage import open_storage
from tests.support.console import output_until


def test_dev_key_is_created_once_then_reused_until_reset(tmp_path) -> None:
    store = open_storage(tmp_path / "m.db")
    try:
        first, created = dev_key(store.settings)
        assert created and first.startswith("ms_test_")
        assert dev_key(store.settings) == (first, False)
        fresh, created = dev_key(store.settings, reset=True)
        assert created and fresh != first
        assert dev_key(store.settings) == (fresh, False)
    finally:
        store.close()
    reopened = open_storage(tmp_path / "m.db")
    try:
        assert dev_key(reopened.settings) == (fresh, False)
    finally:
        reopened.close()
    other = open_storage(tmp_path / "other.db")
    try:
        assert dev_key(other.settings)[0] != fresh  # one key per database
    finally:
        other.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _serve(db: str, *extra: str) -> Iterator[tuple[str, str, str]]:
    """Run the console script; yield (base URL, printed key, printed text) once it answers."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYSYNC_SERVER_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "memorysync_server.cli", "serve", "--port", str(port), "--db", db, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        output = output_until(proc, "MEMORYSYNC_API_KEY=")
        key = re.search(r"export MEMORYSYNC_API_KEY=(\S+)", output).group(1)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(base + "/openapi.json")
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, output
                time.sleep(0.05)
        yield base, key, output
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _status(base: str, key: str) -> int:
    return httpx.get(base + "/org/projects", headers={"X-API-Key": key}).status_code


def test_restart_prints_and_accepts_the_same_key_and_reset_replaces_it(tmp_path) -> None:
    db = str(tmp_path / "dev.db")
    with _serve(db) as (base, first, output):
        assert "created a new development key" in output
        assert f"inspector: {base}/" in output and f"API docs:  {base}/docs" in output
        assert _status(base, first) == 200
    with _serve(db) as (base, again, output):
        assert again == first and "reusing the development key" in output
        assert _status(base, first) == 200
    with _serve(db, "--reset-dev-key") as (base, fresh, output):
        assert fresh != first and "created a new development key" in output
        assert _status(base, fresh) == 200
        assert _status(base, first) == 401
    with _serve(db) as (base, kept, _):
        assert kept == fresh


def test_reset_dev_key_with_explicit_keys_is_refused(tmp_path, capsys) -> None:
    db = str(tmp_path / "x.db")
    assert cli.main(["serve", "--db", db, "--api-key", "ms_test_mine", "--reset-dev-key"]) == 2
    assert "--reset-dev-key" in capsys.readouterr().err
