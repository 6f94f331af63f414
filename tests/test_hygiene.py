"""What running the suite must not do to the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def test_neither_the_suite_nor_a_server_it_starts_writes_bytecode_into_src() -> None:
    started = time.time() - 1
    assert sys.pycache_prefix and not Path(sys.pycache_prefix).is_relative_to(SRC)
    subprocess.run(
        [sys.executable, "-c", "import memorysync_server.cli, memorysync_server.preflight, memorysync_core"],
        env=os.environ.copy(),
        check=True,
        timeout=120,
    )
    assert [p for p in SRC.rglob("*.pyc") if p.stat().st_mtime >= started] == []
