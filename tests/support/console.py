"""Reading a console script's output as it runs (``memorysync-server serve`` in a subprocess)."""

from __future__ import annotations

import subprocess


def output_until(proc: subprocess.Popen[str], marker: str) -> str:
    """What ``proc`` printed up to the first line holding ``marker``; fails, showing all of it, if
    the program ends first."""
    assert proc.stdout is not None
    lines: list[str] = []
    while not any(marker in line for line in lines):
        line = proc.stdout.readline()
        assert line, "".join(lines)
        lines.append(line)
    return "".join(lines)
