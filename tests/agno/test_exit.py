"""Programs using either db exit without a word under ``-X dev`` (no unclosed transport, no
pending task), whether they closed the db, only flushed it, or did neither."""

from __future__ import annotations

import pytest

from tests.support.dev_mode import assert_silent, run_dev

IMPORTS = "from agno.db.schemas.memory import UserMemory\nfrom agno_memorysync import AsyncMemorySyncDb, MemorySyncDb"

SYNC_PROGRAM = """
import sys

base_url, api_key, ending = sys.argv[1:4]
db = MemorySyncDb(api_key=api_key, base_url=base_url)
db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="ana"))
assert [m.memory for m in db.get_user_memories(user_id="ana")] == ["User likes tea"]
if ending == "close":
    db.close()
elif ending == "flush":
    assert db.flush(5)
"""

ASYNC_PROGRAM = """
import asyncio, sys
from tests.support.dev_mode import quiet_about_slow_callbacks

base_url, api_key, ending = sys.argv[1:4]


async def main():
    quiet_about_slow_callbacks()
    db = AsyncMemorySyncDb(api_key=api_key, base_url=base_url)
    await db.upsert_user_memory(UserMemory(memory="User likes jazz", memory_id="jazz", user_id="bo"))
    assert [m.memory for m in await db.get_user_memories(user_id="bo")] == ["User likes jazz"]
    if ending == "close":
        await db.aclose()
    elif ending == "flush":
        assert await db.flush(5)

asyncio.run(main())
"""


@pytest.mark.parametrize("ending", ["close", "flush", "nothing"])
@pytest.mark.parametrize("program", ["sync", "async"])
def test_a_program_exits_without_a_word_under_dev_mode(server, raw, program, ending):
    done = run_dev(
        IMPORTS,
        SYNC_PROGRAM if program == "sync" else ASYNC_PROGRAM,
        server.base_url,
        server.api_key,
        ending,
    )
    assert_silent(done)
    user, key = ("ana", "tea") if program == "sync" else ("bo", "jazz")
    assert raw.state(user, key)["value"]["memory"].startswith("User likes")
