"""Several runs of one benchmark as one row per measurement: the median of the runs' medians
(or ratios) with the spread between the lowest and highest run, so one noisy run on a shared
machine shows as spread instead of as the figure."""

from __future__ import annotations

import statistics
from typing import Any


def aggregate(per_run: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of several runs (same names, same order) -> one row each: the median of the run
    medians (or ratios), the spread between the lowest and highest run, p95 as the median of
    the runs' p95, max as the max of all runs, n as all samples."""
    out = []
    for rows in zip(*per_run, strict=True):
        first = dict(rows[0])
        for key in ("median", "ratio"):
            values = [r[key] for r in rows if r.get(key) is not None]
            if values:
                first[key] = round(statistics.median(values), 3)
                first[f"{key}_spread"] = (round(min(values), 3), round(max(values), 3))
        if "p95" in first:
            first["p95"] = round(statistics.median(r["p95"] for r in rows), 3)
        if "max" in first:
            first["max"] = round(max(r["max"] for r in rows), 3)
        if "n" in first:
            first["n"] = sum(r["n"] for r in rows)
        if "within_budget" in first:
            first["within_budget"] = all(r["within_budget"] for r in rows)
        first["runs"] = len(rows)
        out.append(first)
    return out
