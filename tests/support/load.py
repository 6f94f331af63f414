"""A busy machine on demand: CPU-bound processes for the duration of a test.

Tests that promise a bound on time ("the loop never stalls for more than 0.3 s") run under this
in every run, so a bound that only holds on a quiet machine fails here first instead of on a
loaded CI runner.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def busy_cpus(count: int | None = None) -> Iterator[None]:
    """Keep ``count`` (default: every core) processes spinning until the block ends."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(count or os.cpu_count() or 2)
    ]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


# What the functional tests (what is remembered, not how fast) give a recall: as long as a starved
# machine needs. The default 1.2 s is the product's promise to a live chat and the timing tests
# hold it; a functional test that ran out of it failed on the machine, not the product (seen: the
# matrix's nice'd py3.10 cell beside two CPU hogs, where a first recall took over 1.2 s).
FUNCTIONAL_BUDGET = 10.0


def give_functional_budget(request: Any, kwargs: dict[str, Any]) -> None:
    """Set ``recall_timeout`` to FUNCTIONAL_BUDGET in a fixture's keywords, unless the test sets its
    own or its module holds the product's default (``pytestmark = pytest.mark.product_budget``: the
    fault and loop tests, whose bounds are only worth something at the budget users get)."""
    if request.node.get_closest_marker("product_budget") is not None:
        return
    if "recall_timeout" not in kwargs and "recall" not in kwargs:
        kwargs["recall_timeout"] = FUNCTIONAL_BUDGET
