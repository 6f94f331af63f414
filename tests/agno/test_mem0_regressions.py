"""Regressions for the failures of agno's Mem0 toolkit (agno/tools/mem0.py), reproduced with this db.

1. Error strings handed to the model as tool results (``f"Error adding memory: {e}"``).
2. A blocked event loop under ``arun`` (a sync client called from async code).
3. An everything-wipe one call away (``delete_all_memories`` enabled by default).
"""

from __future__ import annotations

import asyncio
import importlib
import time

import pytest
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import AsyncSqliteDb, SqliteDb
from agno.memory import MemoryManager

from agno_memorysync import AsyncMemorySyncDb, MemorySyncClearAllError, MemorySyncDb
from tests.support.load import busy_cpus
from tests.support.ticks import collector_pauses, longest_stall, net

from .conftest import memory_agent
from .scripted import ScriptedModel

SECRET_KEY = "ms_test_secret_do_not_leak"


def _sync_agent(tmp_path, memory_db, model):
    return memory_agent(model, SqliteDb(db_file=str(tmp_path / "agent.db")), memory_db)


@pytest.mark.parametrize("fail_open_writes", [True, False])
def test_no_transport_error_text_reaches_the_model_or_the_user(tmp_path, dead_url, fail_open_writes):
    model = ScriptedModel()
    memory_db = MemorySyncDb(api_key=SECRET_KEY, base_url=dead_url, fail_open_writes=fail_open_writes)
    result = _sync_agent(tmp_path, memory_db, model).run("Hi! I like tea.")
    assert result.status.value == "COMPLETED"
    assert result.content == "memories: []"  # the turn is answered; memory is simply absent
    seen = " ".join([*model.transcript.tool_results, *model.transcript.system_prompts, result.content])
    assert model.transcript.tool_results, "the memory tool ran"
    for leak in (SECRET_KEY, dead_url, "127.0.0.1", "ConnectError", "MemorySync", "Traceback"):
        assert leak not in seen
    # agno's own words; with fail_open_writes the write is queued and retried, so "added" is not a lie
    expected = "Memory added successfully" if fail_open_writes else "Error adding memory"
    assert model.transcript.tool_results == [expected]
    assert memory_db.stats()["pending"] == (1 if fail_open_writes else 0)
    memory_db.close(flush_timeout=0)


def timed_calls(memory_db) -> list[tuple[str, float, float]]:
    """When each of the db's calls began and ended, as agno awaited it (name, monotonic times):
    the calls of this instance are timed in place, and still run."""
    waits: list[tuple[str, float, float]] = []
    for name in ("get_user_memories", "get_user_memory", "upsert_user_memory", "delete_user_memory"):
        call = getattr(memory_db, name)

        def timed(*args, _call=call, _name=name, **kwargs):
            began = time.monotonic()
            result = _call(*args, **kwargs)
            if not asyncio.iscoroutine(result):
                waits.append((_name, began, time.monotonic()))
                return result

            async def awaited():
                try:
                    return await result
                finally:
                    waits.append((_name, began, time.monotonic()))

            return awaited()

        setattr(memory_db, name, timed)
    return waits


async def test_the_event_loop_keeps_running_while_a_slow_server_is_waited_on(server, tmp_path):
    async def run_and_measure(memory_db, name: str):
        model = ScriptedModel()
        agent = memory_agent(model, AsyncSqliteDb(db_file=str(tmp_path / f"{name}.db")), memory_db)
        waits = timed_calls(memory_db)
        outcome: list = []

        async def run() -> None:
            outcome.append(await agent.arun("I like tea"))

        with collector_pauses() as pauses:
            stall, _ = await longest_stall(run)
        await agent.db.close()  # inside this loop: aiosqlite threads must not outlive it
        # the write that timed out was queued for a retry; the server stays slow, so give it up now
        closing = memory_db.close(flush_timeout=0)
        if asyncio.iscoroutine(closing):
            await closing
        return outcome[0], [(call, net(began, ended, pauses)) for call, began, ended in waits], stall

    # The default budget: a stall of a whole budget stands far apart from the scheduling gaps a
    # loaded machine adds (0.39 s seen once with two CPU hogs, a test run and a matrix run beside).
    budget = 1.2
    budgets = {
        "api_key": server.api_key,
        "base_url": server.base_url,
        "recall_timeout": budget,
        "write_timeout": budget,
    }
    # agno imports modules on the loop the first time a path needs them (agno.offload on its
    # first tool call, agno.team when the memory manager builds its tools) and the server loads
    # its lexicon on its first extraction: 0.2-0.5 s on a loaded machine that are neither the db's
    # nor about a slow server. Those imports and one ordinary run come first, so what is measured
    # is the db's own waiting (on a fresh db: its first calls included).
    importlib.import_module("agno.offload")
    importlib.import_module("agno.team")
    await run_and_measure(AsyncMemorySyncDb(**{**budgets, "recall_timeout": 10, "write_timeout": 10}), "warm")
    server.faults.set(delay=3)
    with busy_cpus():  # the bound must hold on a loaded machine, so it is checked on one
        result, waits, worst_gap = await run_and_measure(AsyncMemorySyncDb(**budgets), "async")
        # The same run with a sync memory db (the Mem0 toolkit's situation) stalls the loop for a
        # whole budget: proof that the measurement can fail.
        _, _, sync_gap = await run_and_measure(MemorySyncDb(**budgets), "sync")
    assert result.status.value == "COMPLETED"
    # The loop never stalled for anything like a budget while the server was being waited on
    # (agno's own synchronous work between awaits accounts for up to ~0.1 s).
    assert worst_gap < budget / 2
    # Every memory call is bounded by its budget: context read, extraction read, write, re-read.
    # (The run as a whole adds agno's own work, which two CPU hogs stretch past a second.)
    assert len(waits) >= 4, waits
    assert all(took < budget * 1.5 for _, took in waits), waits
    assert sync_gap >= 0.8 * budget


def test_no_everything_wipe_is_one_call_away(server, db):
    db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="alice"))
    db.upsert_user_memory(UserMemory(memory="User likes jazz", user_id="bob"))
    model = ScriptedModel()
    # Even a MemoryManager explicitly allowed to clear, asked by the model to clear, wipes nothing.
    manager = MemoryManager(model=model, db=db, clear_memories=True)
    manager.update_memory_task("forget everything", user_id="alice")
    assert any("refused" in r for r in model.transcript.tool_results)
    with pytest.raises(MemorySyncClearAllError):
        manager.clear()
    assert [m.memory for m in db.get_user_memories(user_id="alice")] == ["User likes tea"]
    assert [m.memory for m in db.get_user_memories(user_id="bob")] == ["User likes jazz"]
    # the per-user wipe exists, but must name its user
    with pytest.raises(ValueError, match="explicit user_id"):
        db.forget_user_memories(None)
    assert db.forget_user_memories("alice") == 1
    assert [m.memory for m in db.get_user_memories(user_id="bob")] == ["User likes jazz"]
