"""An async program with the middleware on a 1.x agent exits without a word under ``-X dev``,
whether it closed the memory, only flushed it, or did neither."""

from __future__ import annotations

import pytest

from tests.support.dev_mode import assert_silent, run_dev

PROGRAM = """
import asyncio, sys
from tests.support.dev_mode import end_as, quiet_about_slow_callbacks

base_url, api_key, ending = sys.argv[1:4]


async def main():
    quiet_about_slow_callbacks()
    memory = MemorySyncMiddleware(user_id="customer-42", session_id="v1-exit", api_key=api_key,
                                  base_url=base_url)
    bot = Agent("assistant", "You help.", middleware=[memory])
    reply = await bot.ask("I'm vegan, and I moved to Oslo.", config=TestConfig("Noted: vegan, and Oslo."))
    assert reply.body == "Noted: vegan, and Oslo."
    await end_as(memory, ending)

asyncio.run(main())
"""


@pytest.mark.parametrize("ending", ["aclose", "aflush", "nothing"])
def test_async_code_exits_without_a_word_under_dev_mode(server, stored, ending):
    done = run_dev(
        "from ag2 import Agent\nfrom ag2.testing import TestConfig\nfrom ag2_memorysync import MemorySyncMiddleware",
        PROGRAM,
        server.base_url,
        server.api_key,
        ending,
    )
    assert_silent(done)
    assert stored.transcript("customer-42", "v1-exit") == [
        ("user", "I'm vegan, and I moved to Oslo."),
        ("assistant", "Noted: vegan, and Oslo."),
    ]
