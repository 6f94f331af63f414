"""The server every benchmark here runs against, with its text encoder pinned.

A server left at ``--encoder auto`` times its two MiniLM graphs (published and int8-compute) when
the model loads and keeps the faster (docs/search.md, "Which graph encodes"). Their vectors agree
to a cosine of 0.999, yet near-ties then rank differently: the same code gave LoCoMo dev answer
tokens 0.679 or 0.678 and our chats 0.747 or 0.739, depending on which graph won a timing on a
busy machine. A figure compared across runs must come from one graph, so every server here runs
``MEMORYSYNC_EVAL_ENCODER`` (default ``published``, the graph every machine can run; ``int8`` or
``auto`` to measure another).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memorysync_server import LocalServer

__all__ = ["ENCODER", "eval_server"]

ENCODER = os.environ.get("MEMORYSYNC_EVAL_ENCODER", "published")


def eval_server(db: Path, **options: Any) -> LocalServer:
    """A LocalServer on ``db`` with the benchmark's encoder (``options`` may still name another)."""
    return LocalServer(db, **{"encoder": ENCODER, **options})
