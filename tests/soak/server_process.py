"""The real server as a separate process, so a test can read its resident memory and SIGKILL it."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# Keys unique to this test process: a free port can be taken by another suite's server between
# picking it and binding it, and with shared keys the readiness check would accept that server.
_RUN = secrets.token_hex(6)
KEYS = {f"ms_test_soak_{_RUN}_{name}": f"t_soak_{name}" for name in "abc"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    def __init__(self, db: Path, *, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        args = [sys.executable, "-m", "memorysync_server.cli", "serve", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--db", str(self.db), "--log-level", "warning"]
        for key, tenant in KEYS.items():
            args += ["--api-key", f"{key}={tenant}"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        key = next(iter(KEYS))
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"memorysync-server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(
                    self.base_url + "/org/projects", headers={"X-API-Key": key}, timeout=1
                ).is_success:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"memorysync-server did not answer within {timeout}s")

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS line")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as after a crash or an OOM kill."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
