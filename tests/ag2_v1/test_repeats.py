"""Same words said again are another turn; the same message seen again is the same turn."""

from __future__ import annotations

import asyncio

from tests.ag2_v1.scripted import agent


def test_words_said_again_in_one_conversation_are_two_turns_and_one_fact(make_memory, stored, uid):
    memory = make_memory(session_id="again")
    bot, _ = agent(["Window seat, noted.", "Still a window seat.", "Noted again."], memory=memory)

    async def chat():
        reply = await bot.ask("I always take the window seat.")
        reply = await reply.ask("Is that booked?")
        await reply.ask("I always take the window seat.")

    asyncio.run(chat())
    assert memory.flush(5)
    assert stored.transcript(uid, "again") == [
        ("user", "I always take the window seat."),
        ("assistant", "Window seat, noted."),
        ("user", "Is that booked?"),
        ("assistant", "Still a window seat."),
        ("user", "I always take the window seat."),
        ("assistant", "Noted again."),
    ]
    assert memory.stats()["deduplicated"] == 0
    # The content seed is the extraction key: the sentence said twice is one fact.
    assert stored.facts(uid).count("User always takes the window seat") == 1


def test_a_later_conversation_opening_with_the_same_words_is_a_new_turn(make_memory, stored, uid):
    memory = make_memory(session_id="daily")
    bot, _ = agent(["Good morning!"], memory=memory)
    for _ in range(2):  # two conversations (streams), one after the other, same first words
        asyncio.run(bot.ask("Good morning, any news about my flight?"))
    assert memory.flush(5)
    assert (
        stored.transcript(uid, "daily")
        == [
            ("user", "Good morning, any news about my flight?"),
            ("assistant", "Good morning!"),
        ]
        * 2
    )
