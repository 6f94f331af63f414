"""Checks ``memorysync-server serve`` runs before it prints, creates or keys anything.

Each returns None when all is well, or one or two lines saying what is wrong and what to do
instead, so a mistake on the command line ends in a sentence and exit status 2, not a traceback
(and never leaves a new database file or a development key behind).
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

from .defaults import DEFAULT_PORT

SQLITE_MAGIC = b"SQLite format 3\x00"
POSTGRES_TIMEOUT_S = 5.0


def sqlite_path_problem(db: str | Path) -> str | None:
    """Why SQLite could not open or create ``db``, or None."""
    path = Path(db).expanduser()
    if path.is_dir():
        return f"--db {db} is a folder; give a file inside it, e.g. --db {path / 'memorysync.db'}."
    folder = path.parent
    if not folder.is_dir():
        return (
            f"--db {db}: the folder {folder} does not exist.\n"
            f"  Create it first (mkdir -p {folder}) or choose another path, e.g. --db ./memorysync.db."
        )
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            return f"--db {db}: this user cannot read and write the file; fix its permissions or choose another path."
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
        if head and head != SQLITE_MAGIC:
            return (
                f"--db {db} exists but is not a SQLite database.\n"
                "  Choose another path; the server creates a new database file where none exists."
            )
    # SQLite writes its journal (-wal, -shm) next to the file, so the folder must take new files.
    # Asked by doing it: permission bits say nothing for root or on a read-only mount.
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".memorysync-probe-"):
            pass
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        return (
            f"--db {db}: cannot create files in {folder} ({reason}).\n"
            "  Choose a folder you can write to, e.g. --db ./memorysync.db."
        )
    return None


def postgres_problem(url: str, timeout: float = POSTGRES_TIMEOUT_S) -> str | None:
    """Why ``url`` cannot be used (unreachable, refused, bad password or database), or None;
    answers within ``timeout`` seconds even when the host never replies."""
    try:
        import psycopg
    except ImportError as error:
        return f"--db {without_password(url)} needs {error.name!r}: pip install 'memorysync-kit[postgres]'."
    outcome: list[str | None] = []

    def attempt() -> None:
        try:
            with psycopg.connect(url, connect_timeout=max(2, int(timeout))) as conn:
                conn.execute("SELECT 1")
            outcome.append(None)
        except psycopg.Error as error:
            outcome.append(_first_reason(str(error)))

    thread = threading.Thread(target=attempt, name="memorysync-preflight-pg", daemon=True)
    thread.start()
    thread.join(timeout)
    if not outcome:
        reason = f"no answer within {timeout:g} s"
    elif outcome[0] is None:
        return None
    else:
        reason = outcome[0]
    return (
        f"--db {without_password(url)}: cannot use this PostgreSQL database: {reason}.\n"
        "  Check host, port, database name, user and password (postgresql://user:password@host:port/database)."
    )


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port``, or None. Binds the way uvicorn does
    (SO_REUSEADDR, so a port in TIME_WAIT counts as free) and lets go at once."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except socket.gaierror as error:
        return f"--host {host}: not an address of this machine ({error.strerror}); use e.g. --host 127.0.0.1."
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return (
                f"port {port} on {host} is already in use (another memorysync-server?).\n"
                f"  Stop that process, or choose another port: --port {port + 1 if port < 65535 else DEFAULT_PORT} "
                "(--port 0: any free one)."
            )
        if error.errno == errno.EACCES:
            return f"port {port} needs privileges on this machine; choose a port above 1023, e.g. --port {DEFAULT_PORT}."
        return f"cannot listen on {host}:{port} ({error.strerror}); check --host and --port."
    return None


def without_password(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def _first_reason(message: str) -> str:
    # psycopg puts one "connection to server at ... failed: <reason>" line per address tried.
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    reason = lines[0] if lines else message
    if "failed: " in reason:
        reason = reason.rsplit("failed: ", 1)[1]
    return reason.rstrip(".")
