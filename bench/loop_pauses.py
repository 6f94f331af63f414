"""Event-loop pauses under ``AsyncMemorySyncDb``: 20 concurrent ``Agent.arun`` calls, per part.

A heartbeat task ticks every 2 ms on the caller's loop; a watchdog thread samples the loop
thread's stack (``sys._current_frames``) while a tick is late. Each pause (a tick more than
``PAUSE_MS`` late) is put down to the part its samples saw most:

* ``imports``: a module imported on the loop (importlib on the stack);
* ``ours``: the kit (``agno_memorysync``, ``memorysync_core``, the generated client);
* ``agno session db``: agno's ``AsyncSqliteDb`` (``agno/db``, aiosqlite, SQLAlchemy);
* ``other``: agno's agent, the scripted model, asyncio itself, or a pause too short to sample.

The runs go against a real ``LocalServer`` over loopback with ``HOGS`` busy processes beside
them (load 5-8 on a 2-core machine), because pauses only show under load. ``measure()`` returns
one row per part (``make bench`` imports it); ``python bench/loop_pauses.py`` prints the table.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memorysync_server.launcher import LocalServer  # noqa: E402

CONCURRENT = 20
ROUNDS = 4
HOGS = 4
TICK = 0.002
PAUSE_MS = 10.0
PARTS = ("ours", "agno session db", "imports", "other")
OURS = (
    f"{os.sep}agno_memorysync{os.sep}",
    f"{os.sep}memorysync_core{os.sep}",
    f"{os.sep}memorysync_client{os.sep}",
)
AGNO_DB = (f"{os.sep}agno{os.sep}db{os.sep}", f"{os.sep}aiosqlite{os.sep}", f"{os.sep}sqlalchemy{os.sep}")


def part_of(frame: FrameType | None) -> str:
    """The part a stack belongs to (innermost of ours / agno's db wins; any import wins over both)."""
    files = []
    while frame is not None:
        files.append(frame.f_code.co_filename)
        frame = frame.f_back
    if any("importlib" in f and "_bootstrap" in f for f in files):
        return "imports"
    for f in files:  # innermost first
        if any(p in f for p in OURS):
            return "ours"
        if any(p in f for p in AGNO_DB):
            return "agno session db"
    return "other"


def _innermost(frame: FrameType) -> str:
    names = []
    while frame is not None and len(names) < 4:
        names.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}")
        frame = frame.f_back  # type: ignore[assignment]
    return " < ".join(names)


class Sampler:
    """Heartbeat on the loop plus a watchdog thread that samples the loop's stack while it is late."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.pauses: list[tuple[float, str]] = []  # (ms late, part)
        self._seen: Counter[str] = Counter()
        self.where: Counter[str] = Counter()  # part: innermost frames, for the pauses worth a look
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._loop_thread = threading.get_ident()

    async def heartbeat(self) -> None:
        while not self._stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            late_ms = (now - before - TICK) * 1000
            with self._lock:
                seen, self._seen = self._seen, Counter()
                self.last = now
            if late_ms > PAUSE_MS:
                self.pauses.append((late_ms, seen.most_common(1)[0][0] if seen else "other"))

    def watch(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                late = time.perf_counter() - self.last > TICK + PAUSE_MS / 2000
                if late:
                    frame = sys._current_frames().get(self._loop_thread)
                    part = part_of(frame)
                    self._seen[part] += 1
                    if part != "other" and frame is not None:
                        self.where[f"{part}: {_innermost(frame)}"] += 1

    def stop(self) -> None:
        self._stop.set()


def _hog() -> None:
    while True:
        pass


async def _runs(server: LocalServer, tmp: Path) -> Sampler:
    from agno.agent import Agent
    from agno.db.sqlite import AsyncSqliteDb
    from agno.memory import MemoryManager

    from agno_memorysync import AsyncMemorySyncDb
    from tests.agno.scripted import ScriptedModel

    sampler = Sampler()
    watchdog = threading.Thread(target=sampler.watch, name="loop-watchdog", daemon=True)
    beat = asyncio.create_task(sampler.heartbeat())
    watchdog.start()
    memory_db = AsyncMemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id
    )
    sessions = AsyncSqliteDb(db_file=str(tmp / "sessions.db"))
    model = ScriptedModel()
    try:
        for round_ in range(ROUNDS):
            agents = [
                Agent(
                    model=model,
                    db=sessions,
                    memory_manager=MemoryManager(model=model, db=memory_db),
                    user_id=f"user-{round_}-{i}",
                    update_memory_on_run=True,
                    telemetry=False,
                )
                for i in range(CONCURRENT)
            ]
            await asyncio.gather(*(a.arun(f"I like tea number {round_} {i}") for i, a in enumerate(agents)))
    finally:
        await sessions.close()
        await memory_db.close()
        sampler.stop()
        await beat
        watchdog.join()
    return sampler


def measure(hogs: int = HOGS) -> list[dict[str, Any]]:
    logging.getLogger("agno_memorysync").setLevel(logging.ERROR)
    workers = [multiprocessing.Process(target=_hog, daemon=True) for _ in range(hogs)]
    with tempfile.TemporaryDirectory() as tmp, LocalServer(Path(tmp) / "bench.db") as server:
        for w in workers:
            w.start()
        try:
            time.sleep(1.0 if hogs else 0)  # let the load settle
            load = os.getloadavg()[0]
            sampler = asyncio.run(_runs(server, Path(tmp)))
            load = max(load, os.getloadavg()[0])
        finally:
            for w in workers:
                w.terminate()
                w.join()
    if os.environ.get("LOOP_PAUSES_WHERE"):
        for where, n in sampler.where.most_common(25):
            print(n, where, file=sys.stderr)
    rows = []
    for part in PARTS:
        pauses = sorted(ms for ms, p in sampler.pauses if p == part)
        rows.append(
            {
                "suite": "loop pauses",
                "part": part,
                "pauses_over_ms": PAUSE_MS,
                "count": len(pauses),
                "p50_ms": round(statistics.median(pauses), 1) if pauses else 0.0,
                "max_ms": round(max(pauses), 1) if pauses else 0.0,
                "load": round(load, 1),
                "hogs": hogs,
                "arun_calls": CONCURRENT * ROUNDS,
            }
        )
    return rows


def to_markdown(rows: list[dict[str, Any]]) -> str:
    head = ["part", f"pauses > {PAUSE_MS:g} ms", "p50 ms", "max ms", "load (1 min)", "hogs", "arun calls"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["part"], r["count"], r["p50_ms"], r["max_ms"], r["load"], r["hogs"], r["arun_calls"]]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_markdown(measure(int(sys.argv[1]) if len(sys.argv) > 1 else HOGS)))
