"""A throwaway PostgreSQL server from the machine's own binaries, for tests and benchmarks.

Test tooling, not part of the installed package: as root it installs Debian's postgresql.

``with ThrowawayPostgres() as pg: pg.create_database("x")`` -> a ``postgresql://`` URL. The
cluster lives in a temporary folder and listens on a unix socket only (no port to collide on).
As root, the server runs as the ``postgres`` user (``runuser``), as PostgreSQL requires; when no
binaries are found and we are root, Debian's ``postgresql`` package is installed first.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

_PORT = 5432  # names the socket file inside our own folder; nothing listens on TCP


def find_bindir() -> Path | None:
    found = os.environ.get("MEMORYSYNC_PG_BINDIR")
    if found:
        return Path(found)
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if versions:
        return Path(versions[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def install_postgres() -> Path:
    """Debian's PostgreSQL, installed when missing (root only); the folder of its binaries."""
    bindir = find_bindir()
    if bindir is not None:
        return bindir
    if os.geteuid() != 0:
        raise RuntimeError(
            "PostgreSQL binaries not found. Install them (apt-get install postgresql) or set "
            "MEMORYSYNC_PG_BINDIR to the folder holding initdb and pg_ctl."
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for _ in range(30):  # another apt may hold the lock for a while
        update = subprocess.run(["apt-get", "update"], env=env, capture_output=True, text=True)
        install = subprocess.run(
            ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
            env=env,
            capture_output=True,
            text=True,
        )
        if install.returncode == 0:
            break
        if "lock" not in (install.stderr + update.stderr).lower():
            raise RuntimeError(f"apt-get install postgresql failed:\n{install.stderr[-2000:]}")
        time.sleep(10)
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError("apt-get installed postgresql, yet initdb is not under /usr/lib/postgresql/*/bin")
    return bindir


class ThrowawayPostgres:
    def __init__(self) -> None:
        self.bindir = install_postgres()
        self._root = os.geteuid() == 0
        self.dir = Path(tempfile.mkdtemp(prefix="memorysync-pg-"))
        self.data = self.dir / "data"
        self.socket_dir = self.dir
        self.log = self.dir / "server.log"
        self.user = "postgres"
        self._started = False

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.dir)
        if done.returncode != 0:
            log = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()}\n{log}")
        return done

    def start(self) -> ThrowawayPostgres:
        if self._root:
            shutil.chown(self.dir, "postgres", "postgres")
        else:
            self.user = os.environ.get("USER") or "postgres"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync")
        options = (
            f"-p {_PORT} -k {self.socket_dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
            " -c full_page_writes=off -c max_connections=300 -c shared_buffers=64MB"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        self._started = True
        return self

    def url(self, database: str = "postgres") -> str:
        return (
            f"postgresql://{self.user}@/{database}?host={quote(str(self.socket_dir), safe='')}&port={_PORT}"
        )

    def create_database(self, name: str, *, template: str | None = None) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return self.url(name)

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self._started:
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            finally:
                self._started = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
