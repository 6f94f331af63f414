"""Run the real server under uvicorn on a background thread (tests, demos, notebooks)."""

from __future__ import annotations

import inspect
import socket
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import uvicorn

from .app import create_app
from .defaults import DEFAULT_TENANT
from .http.auth import KeyRing, new_key
from .http.faults import Faults
from .http.quota import Quota, QuotaMeter
from .storage import is_postgres


def _key_pairs(keys: Mapping[str, str] | Iterable[str] | None) -> list[tuple[str, str]]:
    if keys is None:
        return [(new_key("test"), DEFAULT_TENANT)]
    if isinstance(keys, Mapping):
        return list(keys.items())
    pairs = []
    for spec in keys:
        key, _, tenant = spec.partition("=")
        pairs.append((key, tenant or DEFAULT_TENANT))
    return pairs


class LocalServer:
    """The real server under uvicorn on a background thread, for tests, demos and notebooks.

    ``.start()`` / ``.stop()``, or ``with LocalServer(path) as server:``. Once started,
    ``.base_url`` is where it listens, ``.api_key`` a live key of tenant ``.tenant_id``,
    ``.eval_key`` an evaluation key (tenant ``default``, 403 on ``/org/projects``); ``.faults``
    injects delays and error statuses (`Faults`); ``.restart()`` stops and starts again on the
    same port over the same database.

    Example:
        ```python
        with LocalServer("memorysync.db", search="lexical") as server:
            print(server.base_url, server.api_key)
        ```

    Args:
        db_path: A SQLite file (created when missing), or a ``postgresql://`` URL.
        keys: ``{key: tenant}`` or ``["key=tenant", ...]`` to accept; None makes one test key
            of tenant ``t_local``.
        host: The address to listen on.
        port: The port to listen on; 0 (the default) takes a free one.
        **options: Passed to `create_app`: ``clock``, ``extractor``, ``embedder``, ``spec_path``,
            ``max_body_bytes``, ``body_timeout``, ``metrics``, ``search`` (``hybrid`` by default,
            ``lexical`` for the hashed search that needs no model), ``encoder``, ``recall_chars``.

    Raises:
        TypeError: An option `create_app` does not take.
        ValueError: ``keys`` names no key.
    """

    def __init__(
        self,
        db_path: str | Path,
        *,
        keys: Mapping[str, str] | Iterable[str] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        **options: Any,
    ) -> None:
        self.db_path: str | Path = str(db_path) if is_postgres(db_path) else Path(db_path)
        self.host = host
        self.port = port
        unknown = set(options) - set(inspect.signature(create_app).parameters) - {"db"}
        if unknown or {"keys", "faults", "meter"} & set(options):
            raise TypeError(
                f"LocalServer got unexpected option(s) {sorted(unknown or set(options) & {'keys', 'faults', 'meter'})}; "
                "it accepts clock=, extractor=, embedder=, spec_path=, max_body_bytes=, search=, encoder= "
                "(keys go in keys=/add_key)."
            )
        self.options = options
        self.keys = KeyRing()
        pairs = _key_pairs(keys)
        if not pairs:
            raise ValueError("keys= must name at least one key, or be None for a generated one.")
        for key, tenant in pairs:
            self.keys.add(key, tenant)
        self.api_key, self.tenant_id = pairs[0]
        self.eval_key = new_key("eval")
        self.keys.add(self.eval_key, evaluation=True)
        self.faults = Faults()
        # Quota use outlives a restart, like the hosted service's billing period.
        self.meter = QuotaMeter()
        self.app: Any = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def add_key(
        self, key: str, tenant: str | None = None, *, evaluation: bool = False, quota: Quota | None = None
    ) -> str:
        """Accept another key, also while the server runs.

        Args:
            key: The API key.
            tenant: The tenant it acts in (default: this server's ``tenant_id``).
            evaluation: An evaluation key (tenant ``default``, strict quotas).
            quota: Its plan limits (None: unlimited).

        Returns:
            ``key``.
        """
        self.keys.add(key, tenant or self.tenant_id, evaluation=evaluation, quota=quota)
        return key

    @property
    def base_url(self) -> str:
        """``http://host:port`` of the running server (RuntimeError when it is not running)."""
        if self._server is None:
            raise RuntimeError("LocalServer is not running: call .start() (or use it as a context manager).")
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        """Whether the server's thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 15.0, *, bind_retry: float = 0.0) -> LocalServer:
        """Build the app and serve it; returns once the server accepts connections.

        Args:
            timeout: Seconds to wait for it to start.
            bind_retry: Seconds to keep trying a port still held by a server just stopped.

        Returns:
            This server.

        Raises:
            RuntimeError: It did not start in time, or the port is taken.
        """
        if self.running:
            return self
        self.app = create_app(
            self.db_path, keys=self.keys, faults=self.faults, meter=self.meter, **self.options
        )
        sock = self._bind(bind_retry)
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            timeout_keep_alive=5,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="memorysync-server", daemon=True
        )
        thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                sock.close()
                self.app.services.close()
                raise RuntimeError(
                    f"memorysync-server did not start on {self.host}:{self.port} within {timeout}s."
                )
            time.sleep(0.01)
        self._server, self._thread = server, thread
        self._sock = sock
        return self

    def _bind(self, retry: float) -> socket.socket:
        # proto=IPPROTO_TCP matters: asyncio only sets TCP_NODELAY on accepted sockets whose proto
        # says TCP; without it every answer waits ~40 ms for the client's delayed ACK (Nagle).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        deadline = time.monotonic() + retry
        while True:
            try:
                sock.bind((self.host, self.port))
                break
            except OSError as error:
                # The same port right after a stop can take a moment to be released.
                if self.port == 0 or time.monotonic() > deadline:
                    sock.close()
                    raise RuntimeError(
                        f"Cannot listen on {self.host}:{self.port} ({error}). Another process holds the "
                        "port: stop it, or create the LocalServer with port=0 for a free one."
                    ) from error
                time.sleep(0.05)
        sock.listen(128)
        sock.set_inheritable(True)
        self.port = sock.getsockname()[1]
        return sock

    def stop(self) -> None:
        """Stop serving (injected faults end at once) and release the database."""
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        self.faults.clear()  # injected delays end now instead of holding the shutdown
        server.should_exit = True
        thread.join(timeout=10)
        if thread.is_alive():
            server.force_exit = True
            thread.join(timeout=5)
        self._sock.close()
        self.app.services.close()
        self._server = self._thread = None

    def restart(self) -> LocalServer:
        """Stop, then start again on the same port with the same database file."""
        self.stop()
        return self.start(bind_retry=5.0)

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = self.base_url if self._server else "stopped"
        where = str(self.db_path).split("@")[-1]
        return f"LocalServer({where!r}, {state})"
