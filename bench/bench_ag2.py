"""Benchmarks for ag2_memorysync against a real LocalServer on loopback.

``measure()`` returns one dict per measurement (``make bench`` imports it); ``python
bench/bench_ag2.py`` prints a markdown table. Every measurement is taken in ``runs`` separate
runs (``BENCH_RUNS``, default 5) against one server, each run with its own person; a row gives
the median of the runs' medians and the spread (lowest to highest run median), so one noisy
run on a shared machine shows as spread instead of as the figure:

* per-turn time of a real two-agent chat without vs with the capability (recall + capture),
  and as the floor a raw loopback HTTP round trip of the same recalls (route, person, k and the
  turns' prompts), the three taken in alternating blocks so a drifting load slows them alike;
* the capture hook's cost (ledger run, dedup claim, enqueue; the seed is hashed later, on the
  loop) in microseconds;
* the same recall through the persistent background loop, and what per-call bridges pay split
  into its parts: a new event loop per call (reusing one client), a new client per call (on the
  persistent loop), both, and a new thread + loop + client per call; ``asyncio.run`` of an
  empty coroutine as the floor of a new loop;
* the capability's work before each model call while the server takes 5 s: the max must stay
  within the budget plus a margin;
* under ``a_initiate_chat`` with that slow server, the longest the caller's event loop could not
  run (a 5 ms ticker), with and without the capability;
* the generated client vs raw httpx for the same route.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the scripted model client lives with the tests
    sys.path.insert(0, str(ROOT))

from memorysync_client.api.memory import recall  # noqa: E402
from memorysync_client.models import RecallRequest  # noqa: E402
from spread import aggregate  # noqa: E402

from ag2_memorysync import MemorySyncCapability  # noqa: E402
from ag2_memorysync.backend import Backend  # noqa: E402
from memorysync_core import Connection, call, shared_loop  # noqa: E402
from memorysync_server.launcher import LocalServer  # noqa: E402
from tests.ag2.scripted import assistant, person, sequence, time_reply_hooks  # noqa: E402
from tests.support.ticks import longest_stall  # noqa: E402

BUDGET_MARGIN = 0.25
PROMPT = "What snack should I bring to the party tonight?"


def _summary(name: str, samples: list[float], unit: str, scale: float, **extra: Any) -> dict[str, Any]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "suite": "ag2",
        "name": name,
        "unit": unit,
        "n": len(samples),
        "median": round(statistics.median(samples) * scale, 3),
        "p95": round(p95 * scale, 3),
        "max": round(max(samples) * scale, 3),
        **extra,
    }


def _ratio(name: str, numerator: dict[str, Any], denominator: dict[str, Any], note: str) -> dict[str, Any]:
    return {
        "suite": "ag2",
        "name": name,
        "unit": "x",
        "ratio": round(numerator["median"] / denominator["median"], 2) if denominator["median"] else None,
        "note": note,
    }


def _timed(fn: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def _chat_lines(turns: int, block: int) -> list[str]:
    return [f"Tell me one more idea for the party, number {block}.{i} please." for i in range(turns)]


def _chat_turn_times(
    memory: MemorySyncCapability | None,
    turns: int,
    hook_times: list[float] | None = None,
    lines: list[str] | None = None,
) -> list[float]:
    """Seconds per person->assistant->person round in a real chat (the model is instant);
    ``hook_times`` receives the duration of the capability's reply hook on each turn."""
    lines = lines or _chat_lines(turns, 0)
    bot, _ = assistant(
        sequence([f"Idea {i}: fruit skewers." for i in range(turns + 1)]), max_replies=turns + 5
    )
    if memory is not None:
        durations = time_reply_hooks(bot, memory.add_to_agent)
    stamps: list[float] = []

    def line(i: int) -> Callable[[], str]:
        def speak() -> str:
            stamps.append(time.perf_counter())
            return lines[i]

        return speak

    user = person([line(i) for i in range(turns)], max_replies=turns + 5)
    user.initiate_chat(bot, message=PROMPT, silent=True)
    if memory is not None and hook_times is not None:
        hook_times.extend(durations)
    return [b - a for a, b in itertools.pairwise(stamps)]


def _side_by_side(
    server: LocalServer, memory: MemorySyncCapability, user: str, blocks: int, turns: int
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Chat turns without and with the capability, and the raw round trip of the recall each of
    those turns makes, taken in alternating blocks so that a machine whose load drifts (a shared
    CI box) slows all three alike; the order rotates from block to block. Returns (without, with,
    the capability's work before each model call, raw round trips)."""
    raw = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key})
    # The request the capability makes: same route, tenant, person, k and prompts (the person's
    # lines), over a kept-alive connection; only the hooks, the hop to the loop and the writes
    # are missing.
    body = {"tenant_id": server.tenant_id, "user_id": user, "k": memory.top_k}
    raw.post("/v1/memory/recall", json={**body, "prompt": PROMPT})
    without: list[float] = []
    with_cap: list[float] = []
    hooks: list[float] = []
    floor: list[float] = []

    def floor_block(lines: list[str]) -> None:
        for text in lines[1:]:  # one round trip per measured turn
            start = time.perf_counter()
            raw.post("/v1/memory/recall", json={**body, "prompt": text})
            floor.append(time.perf_counter() - start)

    def with_block(lines: list[str]) -> None:
        with_cap.extend(_chat_turn_times(memory, turns, hooks, lines))
        memory.flush(10)  # the next block starts with the writes of this one done

    for block in range(blocks):
        lines = _chat_lines(turns, block)
        steps: list[Callable[[list[str]], None]] = [
            lambda ls: without.extend(_chat_turn_times(None, turns, lines=ls)),
            with_block,
            floor_block,
        ]
        for step in steps[block % 3 :] + steps[: block % 3]:
            step(lines)
    raw.close()
    return without, with_cap, hooks, floor


def measure(
    runs: int | None = None, turns: int = 11, blocks: int = 4, samples: int = 60
) -> list[dict[str, Any]]:
    """Every measurement ``runs`` times; one aggregated row per measurement. A run's chat rows
    come from ``blocks`` chats of ``turns`` turns each way (``turns - 1`` measured per chat)."""
    runs = runs or int(os.environ.get("BENCH_RUNS", "5"))
    logging.getLogger("ag2_memorysync").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "bench.db") as server:
        per_run = [
            _measure_once(server, f"bench-person-{run}", turns, blocks, samples) for run in range(runs)
        ]
    return aggregate(per_run)


def _measure_once(
    server: LocalServer, user: str, turns: int, blocks: int, samples: int
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    memory = MemorySyncCapability(
        user_id=user, session_id="bench", api_key=server.api_key, base_url=server.base_url
    )
    memory.save("I am allergic to peanuts.")
    memory.flush(5)

    # 1. Per-turn overhead in a real chat, and the loopback floor for the same recalls.
    _chat_turn_times(None, 5)  # warm AG2 and the scripted client
    without_t, with_t, hook_times, floor_t = _side_by_side(server, memory, user, blocks, turns)
    without = _summary("chat turn, no capability", without_t, "ms", 1e3)
    with_cap = _summary("chat turn, capability on assistant", with_t, "ms", 1e3)
    hook = _summary(
        "capability's work before each model call (hooks, recall, injection)",
        hook_times,
        "ms",
        1e3,
        note="turn overhead beyond this is the background writer sharing the server and the GIL",
    )
    floor = _summary(
        "raw httpx POST /v1/memory/recall (floor)",
        floor_t,
        "ms",
        1e3,
        note="the turns' own prompts, in blocks alternating with the chats",
    )
    overhead = round(with_cap["median"] - without["median"], 3)
    rows += [without, with_cap, hook, floor]
    rows.append(
        {
            "suite": "ag2",
            "name": "capability overhead per turn (median with - without)",
            "unit": "ms",
            "median": overhead,
            "ratio": round(overhead / floor["median"], 2) if floor["median"] else None,
            "note": "ratio: overhead / raw loopback round trip",
        }
    )
    raw = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key})
    body = {"tenant_id": server.tenant_id, "user_id": user, "prompt": PROMPT, "k": 5}

    # 2. The capture hook: dedup claim + seed hash + enqueue, on the chat's thread.
    bot, _ = assistant(sequence([]), name="capture-bench")
    memory.add_to_agent(bot)
    before_send = bot.hook_lists["process_message_before_send"][-1]
    texts = iter([f"Captured reply number {i} about party snacks." for i in range(samples * 10)])
    capture = _summary(
        "capture hook (process_message_before_send)",
        _timed(
            lambda: before_send(sender=bot, message=next(texts), recipient=bot, silent=True), samples * 10
        ),
        "us",
        1e6,
    )
    rows.append(capture)
    memory.flush(10)

    # 3. The same recall: persistent bridge vs what per-call bridges pay, split into its parts.
    backend = Backend(memory.session.connection, user_id=user, session_scope="ag2::bench")
    bridge = shared_loop()
    persistent = _summary(
        "recall via persistent background loop (one client)",
        _timed(lambda: bridge.run(backend.recall(PROMPT, 5), timeout=5), samples),
        "ms",
        1e3,
    )
    # One client reused across event loops: without keep-alive no connection outlives its loop.
    no_keepalive = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_keepalive_connections=0))
    reused = Connection(
        api_key=server.api_key,
        base_url=server.base_url,
        tenant_id=server.tenant_id,
        async_transport=no_keepalive,
    )
    reused_backend = Backend(reused, user_id=user, session_scope="ag2::bench")
    new_loop = _summary(
        "recall via new event loop per call, one client (no keep-alive)",
        _timed(lambda: asyncio.run(reused_backend.recall(PROMPT, 5)), samples),
        "ms",
        1e3,
    )

    async def fresh_recall() -> str:
        conn = Connection(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
        try:
            return await Backend(conn, user_id=user, session_scope="ag2::bench").recall(PROMPT, 5)
        finally:
            await conn.aclose()

    new_client = _summary(
        "recall via persistent loop, new client per call",
        _timed(lambda: bridge.run(fresh_recall(), timeout=5), samples),
        "ms",
        1e3,
    )
    both = _summary(
        "recall via new event loop + new client per call",
        _timed(lambda: asyncio.run(fresh_recall()), samples),
        "ms",
        1e3,
    )

    def in_thread() -> None:
        t = threading.Thread(target=lambda: asyncio.run(fresh_recall()))
        t.start()
        t.join()

    fresh_thread = _summary(
        "recall via new thread + loop + client per call", _timed(in_thread, samples), "ms", 1e3
    )

    async def nothing() -> None:
        return None

    empty_loop = _summary(
        "asyncio.run of an empty coroutine", _timed(lambda: asyncio.run(nothing()), samples), "ms", 1e3
    )
    rows += [
        persistent,
        new_loop,
        new_client,
        both,
        fresh_thread,
        empty_loop,
        _ratio("new loop, one client / persistent", new_loop, persistent, "median ratio, same recall"),
        _ratio("new client / persistent", new_client, persistent, "median ratio, same recall"),
        _ratio("new loop + new client / persistent", both, persistent, "median ratio, same recall"),
        _ratio(
            "new thread + loop + client / persistent", fresh_thread, persistent, "median ratio, same recall"
        ),
    ]
    asyncio.run(reused.aclose())

    # 4. Budget adherence while the server takes 5 s to answer recall.
    slow_memory = MemorySyncCapability(
        user_id=user, session_id="bench-slow", api_key=server.api_key, base_url=server.base_url
    )
    slow_memory.flush(2)
    server.faults.set(delay=5.0, route="/v1/memory/recall")
    try:
        slow_bot, _ = assistant(sequence(["Noted."] * 8), max_replies=10)
        durations = time_reply_hooks(slow_bot, slow_memory.add_to_agent)
        person([f"Another question about snacks, number {i}." for i in range(5)]).initiate_chat(
            slow_bot, message=PROMPT, silent=True
        )
    finally:
        server.faults.clear()
    budget = slow_memory.recall_timeout
    # Turns that waited for the server vs turns the open circuit skipped at once.
    waited = [d for d in durations if d >= budget / 2]
    skipped = [d for d in durations if d < budget / 2]
    rows.append(
        _summary(
            "work before each model call, server takes 5 s, turns that waited",
            waited,
            "ms",
            1e3,
            within_budget=max(durations) <= budget + BUDGET_MARGIN,
            note=f"budget {budget}s + margin {BUDGET_MARGIN}s",
        )
    )
    if skipped:
        rows.append(
            _summary(
                "work before each model call, server takes 5 s, circuit open",
                skipped,
                "ms",
                1e3,
                note="recall skipped after 3 timeouts in a row",
            )
        )

    # 4b. The caller's event loop under a_initiate_chat while the server takes 5 s.
    stalls: dict[str, list[float]] = {"with": [], "without": []}
    for attach in ("without", "with"):
        for _ in range(3):
            chat_memory = MemorySyncCapability(
                user_id=user, session_id="bench-stall", api_key=server.api_key, base_url=server.base_url
            )
            chat_memory.flush(2)
            server.faults.set(delay=5.0, route="/v1/memory/recall")
            try:
                stall_bot, _ = assistant(sequence(["Noted.", "Noted again."]))
                stall_user = person(["Another question about party snacks."])
                if attach == "with":
                    chat_memory.add_to_agent(stall_bot)
                stall, _ = asyncio.run(
                    longest_stall(
                        lambda u=stall_user, b=stall_bot: u.a_initiate_chat(b, message=PROMPT, silent=True),
                        tick=0.005,
                    )
                )
                stalls[attach].append(stall)
            finally:
                server.faults.clear()
                chat_memory.close(timeout=2)
    rows += [
        _summary("caller's loop stall under a_initiate_chat, no capability", stalls["without"], "ms", 1e3),
        _summary(
            "caller's loop stall under a_initiate_chat, capability, server takes 5 s",
            stalls["with"],
            "ms",
            1e3,
            note=f"recall budget {memory.recall_timeout}s is awaited, not waited on",
        ),
    ]

    # 5. Generated client vs raw httpx for the same route (both sync, both keep-alive).
    conn = Connection(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    request = RecallRequest(tenant_id=server.tenant_id, user_id=user, prompt=PROMPT, k=5)
    call(recall.sync_detailed, client=conn.client, body=request)
    generated = _summary(
        "generated client recall (sync)",
        _timed(lambda: call(recall.sync_detailed, client=conn.client, body=request), samples),
        "ms",
        1e3,
    )
    raw_again = _summary(
        "raw httpx recall (sync)",
        _timed(lambda: raw.post("/v1/memory/recall", json=body).json(), samples),
        "ms",
        1e3,
    )
    rows += [generated, raw_again, _ratio("generated / raw httpx", generated, raw_again, "median ratio")]

    conn.close()
    raw.close()
    slow_memory.close(timeout=2)
    memory.close(timeout=5)
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
    print(to_markdown(measure()))
