"""Run a short program in a fresh interpreter under ``python -X dev``: every ResourceWarning
(an unclosed transport or socket), every "Task was destroyed but it is pending" and every
asyncio misuse is printed to stderr. An adapter that leaves something open shows up there."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The frameworks' own warnings at import (autogen: jsonschema's RefResolver deprecation; old
# autogen: flaml's missing-extra notice) are theirs, not the adapter's.
PRELUDE = """\
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", UserWarning)
"""


def run_dev(imports: str, body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``imports`` run with the frameworks' import-time warnings silenced, then ``body``."""
    program = PRELUDE + textwrap.indent(textwrap.dedent(imports).strip(), "    ") + "\n"
    program += textwrap.dedent(body)
    return subprocess.run(
        [sys.executable, "-X", "dev", "-c", program, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def quiet_about_slow_callbacks() -> None:
    """Call inside the program's running loop. asyncio's debug mode (on under -X dev) also reports
    any loop step slower than 0.1 s, on the caller's loop and the kit's background loop: on a
    loaded machine that is the load (benchmarks measure the loops' holds), not a leak."""
    import asyncio

    from memorysync_core import shared_loop

    asyncio.get_running_loop().slow_callback_duration = 60
    shared_loop().loop.slow_callback_duration = 60


async def end_as(memory: object, ending: str) -> None:
    """How the program leaves a capability or middleware: ``aclose``, ``aflush`` or ``nothing``."""
    if ending == "aclose":
        assert await memory.aclose()  # type: ignore[attr-defined]
    elif ending == "aflush":
        assert await memory.aflush()  # type: ignore[attr-defined]


# asyncio's debug mode reports a loop step slower than slow_callback_duration, on any loop, the
# sync db's background loop included, before a program can raise the limit there: under load
# that is the machine, not a leak. Every other line on stderr is one.
_SLOW_STEP = re.compile(r"^Executing <.*> took \d+\.\d+ seconds\n?", re.MULTILINE)


def assert_silent(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    assert _SLOW_STEP.sub("", done.stderr) == ""
