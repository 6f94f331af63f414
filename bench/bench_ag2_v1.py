"""Benchmarks for MemorySyncMiddleware on ag2 1.x agents against a real LocalServer on loopback.

``measure()`` returns one dict per measurement (``make bench`` imports it); ``python
bench/bench_ag2_v1.py`` prints a markdown table. The ratios are taken in ``BENCH_RUNS`` runs
(default 5), each from blocks alternating between the three sides; a row gives the median of
the runs and their spread:

* one ``Agent.ask`` (one model call, ag2's scripted model) without vs with the middleware;
* the middleware's hold on each model call (history read, capture, budgeted recall, prompt
  swap), measured by two marker middlewares around it, against a raw loopback HTTP round trip
  of the same recall (route, person, k and prompt);
* the hold on the model call after a tool result, which reuses the request's recall;
* with the server taking 5 s: the hold per model call (budget plus a margin at most) and the
  longest stall of a ticker task on the caller's event loop meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from ag2 import Agent
from ag2.events import ToolCallEvent
from ag2.middleware import BaseMiddleware
from ag2.testing import TestConfig

from ag2_memorysync import MemorySyncMiddleware
from memorysync_server.launcher import LocalServer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from spread import aggregate

BUDGET_MARGIN = 0.25
PROMPT = "What snack should I bring to the party tonight?"


def _summary(name: str, samples: list[float], unit: str, scale: float, **extra: Any) -> dict[str, Any]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "suite": "ag2-v1",
        "name": name,
        "unit": unit,
        "n": len(samples),
        "median": round(statistics.median(samples) * scale, 3),
        "p95": round(p95 * scale, 3),
        "max": round(max(samples) * scale, 3),
        **extra,
    }


class Mark:
    """Middleware noting when each model call passes it."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, event: Any, context: Any) -> BaseMiddleware:
        times = self.times

        class Turn(BaseMiddleware):
            async def on_llm_call(self, call_next, events, context):
                times.append(time.perf_counter())
                return await call_next(events, context)

        return Turn(event, context)


def _holds(entered: Mark, reached: Mark) -> list[float]:
    return [b - a for a, b in zip(entered.times, reached.times, strict=True)]


def snack_tool(kind: str) -> str:
    """Look up a snack of the given kind."""
    return f"Rice crackers ({kind})."


async def _asks(
    memory: MemorySyncMiddleware | None, n: int, *, with_tool: bool = False, prompts: list[str] | None = None
):
    """``n`` one-call asks (two calls with a tool); returns (ask durations, memory's holds)."""
    prompts = prompts or _prompts(n, 0)
    entered, reached = Mark(), Mark()
    middleware = [entered, memory, reached] if memory is not None else [entered, reached]
    bot = Agent("assistant", "You help.", middleware=middleware, tools=[snack_tool] if with_tool else [])
    durations = []
    for i in range(n):
        turns: list[Any] = [f"Bring rice crackers, option {i}."]
        if with_tool:
            turns.insert(0, ToolCallEvent("snack_tool", arguments=json.dumps({"kind": "nut-free"})))
        start = time.perf_counter()
        await bot.ask(prompts[i], config=TestConfig(*turns))
        durations.append(time.perf_counter() - start)
    return durations, _holds(entered, reached)


def _prompts(n: int, block: int) -> list[str]:
    return [f"{PROMPT} (guest {block}.{i})" for i in range(n)]


async def _slow_asks(memory: MemorySyncMiddleware, n: int) -> tuple[list[float], float]:
    gaps: list[float] = []
    stop = asyncio.Event()

    async def tick() -> None:
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    try:
        _, holds = await _asks(memory, n)
    finally:
        stop.set()
        await ticker
    return holds, max(gaps)


def _side_by_side(
    server: LocalServer, memory: MemorySyncMiddleware, user: str, asks: int, blocks: int
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Asks without and with the middleware and the raw round trip of the recall each ask makes,
    in alternating blocks (order rotating), so a drifting load slows all three alike. Returns
    (without, with, holds, raw round trips)."""
    raw = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key})
    # The middleware's request: same route, tenant, person, k and prompts, kept-alive connection.
    body = {"tenant_id": server.tenant_id, "user_id": user, "k": memory.top_k}
    raw.post("/v1/memory/recall", json={**body, "prompt": PROMPT})
    without: list[float] = []
    with_mw: list[float] = []
    holds: list[float] = []
    floor: list[float] = []

    def without_block(prompts: list[str]) -> None:
        without.extend(asyncio.run(_asks(None, asks, prompts=prompts))[0])

    def with_block(prompts: list[str]) -> None:
        durations, held = asyncio.run(_asks(memory, asks, prompts=prompts))
        with_mw.extend(durations)
        holds.extend(held)
        memory.flush(10)  # the next block starts with this one's writes done

    def floor_block(prompts: list[str]) -> None:
        for text in prompts:
            start = time.perf_counter()
            raw.post("/v1/memory/recall", json={**body, "prompt": text})
            floor.append(time.perf_counter() - start)

    for block in range(blocks):
        prompts = _prompts(asks, block + 1)
        steps = [without_block, with_block, floor_block]
        for step in steps[block % 3 :] + steps[: block % 3]:
            step(prompts)
    raw.close()
    return without, with_mw, holds, floor


def _measure_once(
    server: LocalServer, memory: MemorySyncMiddleware, asks: int, blocks: int, samples: int
) -> list[dict[str, Any]]:
    without, with_mw, holds, floor_samples = _side_by_side(server, memory, "bench-person", asks, blocks)
    no_mw = _summary("Agent.ask (one model call), no middleware", without, "ms", 1e3)
    mw = _summary("Agent.ask (one model call), MemorySyncMiddleware", with_mw, "ms", 1e3)
    hold = _summary(
        "middleware hold per model call (history, capture, recall, prompt)",
        holds,
        "ms",
        1e3,
        note="between two marker middlewares around it",
    )
    floor = _summary(
        "raw httpx POST /v1/memory/recall (floor)",
        floor_samples,
        "ms",
        1e3,
        note="the asks' own prompts, in blocks alternating with the asks",
    )
    direct = []
    for i in range(samples):
        start = time.perf_counter()
        memory.session.recaller.recall(f"{PROMPT} (direct {i})")
        direct.append(time.perf_counter() - start)
    classic = _summary(
        "the capability's recall, blocking call from this thread",
        direct,
        "ms",
        1e3,
        note="hold minus this: history read, capture and the awaited wait",
    )
    overhead = round(mw["median"] - no_mw["median"], 3)
    return [
        no_mw,
        mw,
        hold,
        classic,
        floor,
        {
            "suite": "ag2-v1",
            "name": "middleware overhead per model call (median with - without)",
            "unit": "ms",
            "median": overhead,
            "ratio": round(overhead / floor["median"], 2) if floor["median"] else None,
            "note": "ratio: overhead / raw loopback round trip; beyond the hold it is the background "
            "writer and the in-process server's extraction sharing the GIL",
        },
        {
            "suite": "ag2-v1",
            "name": "middleware hold / raw round trip",
            "unit": "x",
            "ratio": round(hold["median"] / floor["median"], 2) if floor["median"] else None,
            "note": "median ratio",
        },
    ]


def measure(
    runs: int | None = None, asks: int = 10, blocks: int = 4, samples: int = 20
) -> list[dict[str, Any]]:
    """The ratios ``runs`` times (``BENCH_RUNS``, default 5), one aggregated row each (median of
    the runs with their spread); then the tool and slow-server rows once."""
    runs = runs or int(os.environ.get("BENCH_RUNS", "5"))
    logging.getLogger("ag2_memorysync").setLevel(logging.ERROR)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "bench.db") as server:
        memory = MemorySyncMiddleware(
            user_id="bench-person", session_id="bench-v1", api_key=server.api_key, base_url=server.base_url
        )
        memory.save("I am allergic to peanuts.")
        memory.flush(5)

        asyncio.run(_asks(None, 5))  # warm ag2 and the scripted model
        asyncio.run(_asks(memory, 5))
        memory.flush(10)
        rows += aggregate([_measure_once(server, memory, asks, blocks, samples) for _ in range(runs)])

        _, tool_holds = asyncio.run(_asks(memory, 20, with_tool=True))
        memory.flush(10)
        rows.append(
            _summary(
                "hold on the model call after a tool result",
                tool_holds[1::2],
                "ms",
                1e3,
                note="reuses the request's recall: no round trip",
            )
        )

        server.faults.set(delay=5.0)
        try:
            slow_holds, stall = asyncio.run(_slow_asks(memory, 3))
        finally:
            server.faults.clear()
        rows.append(
            _summary(
                "hold per model call, server takes 5 s",
                slow_holds,
                "ms",
                1e3,
                within_budget=max(slow_holds) <= memory.recall_timeout + BUDGET_MARGIN,
                note=f"budget {memory.recall_timeout}s + margin {BUDGET_MARGIN}s; breaker opens after 3",
            )
        )
        rows.append(
            {
                "suite": "ag2-v1",
                "name": "caller's loop: longest stall of a 10 ms ticker meanwhile",
                "unit": "ms",
                "max": round(stall * 1e3, 3),
                "note": "the wait is awaited, never blocking",
            }
        )
        memory.close(timeout=20)
    return rows


def to_markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| measurement | runs | n | median | spread of run medians | p95 | max | unit | ratio / note |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        extra = []
        if r.get("ratio") is not None:
            low, high = r.get("ratio_spread", (r["ratio"], r["ratio"]))
            extra.append(f"{r['ratio']}x (runs {low}-{high}x)")
        if "within_budget" in r:
            extra.append("within budget" if r["within_budget"] else "OVER BUDGET")
        if r.get("note"):
            extra.append(r["note"])
        spread = r.get("median_spread")
        lines.append(
            f"| {r['name']} | {r.get('runs', 1)} | {r.get('n', '')} | {r.get('median', '')} | "
            f"{f'{spread[0]}-{spread[1]}' if spread else ''} | {r.get('p95', '')} | {r.get('max', '')} | "
            f"{r['unit']} | {'; '.join(extra)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(print(to_markdown(measure())))
