"""The calls the current one is running inside: how the hooks tell a nested chat or a delegated
sub-task, which neither AG2 line marks (await chains are on the stack too)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import FrameType


def callers() -> Iterator[FrameType]:
    """The frame iterating this, then its callers', outwards."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        yield frame
        frame = frame.f_back
