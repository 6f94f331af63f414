"""Shared fixtures: a real local MemorySync server per test, its env vars, and a dead URL."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator

# No test writes into src/: bytecode goes to one cache folder outside the tree, from this process
# and from any server or script a test starts (they inherit the variable; a subprocess given an
# env of its own must copy it). Cached, not switched off: compiling every module again on each
# run made collecting the suite several times slower.
_PYCACHE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".pycache")
os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
sys.pycache_prefix = _PYCACHE
# On, even in a shell with PYTHONDONTWRITEBYTECODE=1: the prefix already keeps bytecode out of the
# tree, and with the cache off every run compiled agno, hypothesis, the server ... again (and, the
# prefix hiding site-packages' own .pyc, all of them): 18 s of a 40 s collection on a 2-core box.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# A PostgreSQL server keeps its encoder choice in the user's cache folder (SQLite ones beside the
# file): the suite's go in a folder of its own, removed at exit, not in the user's ~/.cache.
_CACHE_HOME = tempfile.mkdtemp(prefix="memorysync-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
atexit.register(shutil.rmtree, _CACHE_HOME, ignore_errors=True)

import pytest  # noqa: E402

from memorysync_server.launcher import LocalServer  # noqa: E402


@pytest.fixture
def server(tmp_path) -> Iterator[LocalServer]:
    """A started LocalServer over ``tmp_path / "memorysync.db"`` (stopped after the test)."""
    srv = LocalServer(tmp_path / "memorysync.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def server_env(server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> LocalServer:
    """``server`` with MEMORYSYNC_API_KEY and MEMORYSYNC_BASE_URL pointing at it."""
    monkeypatch.setenv("MEMORYSYNC_API_KEY", server.api_key)
    monkeypatch.setenv("MEMORYSYNC_BASE_URL", server.base_url)
    return server


@pytest.fixture
def dead_url() -> str:
    """An http URL on 127.0.0.1 where nothing listens (connection refused)."""
    # Bind, read the port, close: the kernel will not hand it out again immediately.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
