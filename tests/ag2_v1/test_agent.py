"""The MemorySync loop on a real ag2 1.x ``Agent``: recall into the model's request only,
every spoken turn captured once with the speaker's role, tool traffic never."""

from __future__ import annotations

import asyncio

from ag2 import Context
from ag2.events import ModelRequest, ModelResponse, ToolCallsEvent, ToolResultsEvent

from ag2_memorysync import DEFAULT_CONTEXT_TEMPLATE
from tests.ag2_v1.scripted import agent, call_tool

HEADER = DEFAULT_CONTEXT_TEMPLATE.split("{context}")[0].strip()


def memory_blocks(prompt: list[str]) -> list[str]:
    return [p for p in prompt if HEADER in p]


def mentions(events, needle: str) -> bool:
    return any(needle in repr(e) for e in events)


def test_a_1x_agent_remembers_across_two_runs_through_the_server(make_memory, stored, uid):
    first = make_memory(session_id="trip-1")
    bot, _ = agent(["Noted: vegan, and Oslo."], memory=first)
    asyncio.run(bot.ask("I am vegan, and I moved to Oslo last spring."))
    assert first.flush(5)
    assert "User is vegan" in stored.facts(uid)

    # A new agent, a new middleware, a new event loop: the memory comes from the server.
    second = make_memory(session_id="trip-2")
    bot, spy = agent(["How about the falafel place near the harbour?"], memory=second)
    reply = asyncio.run(bot.ask("What should I eat for dinner tonight?"))
    assert reply.body == "How about the falafel place near the harbour?"
    [block] = memory_blocks(spy.calls[0].prompt)
    assert "User is vegan" in block
    assert second.stats()["recalled"] == 1 and second.stats()["injected"] == 1


def test_recall_reaches_the_model_request_only_and_never_piles_up(make_memory):
    memory = make_memory()
    memory.save("User is allergic to peanuts")
    bot, spy = agent(["Noted.", "Sure, no peanuts."], memory=memory, prompt="You plan meals.")

    async def chat():
        reply = await bot.ask("Plan a snack for my peanut allergy trip.")
        again = await reply.ask("And one more snack for the peanut allergy, please.")
        return reply, again

    reply, again = asyncio.run(chat())
    assert len(spy.calls) == 2
    for call in spy.calls:
        # The block is in the system prompt of each call, once, after the agent's own prompt.
        assert call.prompt[0] == "You plan meals."
        [block] = memory_blocks(call.prompt)
        assert "allergic to peanuts" in block
        # ...and never among the events the model is handed.
        assert not mentions(call.events, HEADER)
    history = asyncio.run(again.history.get_events())
    assert not mentions(history, HEADER) and not mentions(history, "allergic to peanuts")
    # The conversation's own prompt is what it was before the calls.
    assert again.context.prompt == ["You plan meals."] == reply.context.prompt


def test_around_tool_calls_the_model_keeps_the_block_and_history_stays_valid(make_memory, stored, uid):
    memory = make_memory(session_id="tools")
    memory.save("User always takes the window seat")
    seats: list[str] = []

    def book_seat(row: int) -> str:
        """Book a seat in the given row."""
        seats.append(f"row {row}")
        return f"Booked seat 14A in row {row}, confirmation XK-93."

    bot, spy = agent(
        [call_tool("book_seat", row=14), "Booked your window seat in row 14."],
        memory=memory,
        tools=[book_seat],
    )
    asyncio.run(bot.ask("Book me a window seat on the flight to Oslo."))
    assert seats == ["row 14"]
    first, second = spy.calls
    assert memory_blocks(first.prompt) == memory_blocks(second.prompt) != []
    # The model's second request is the stored conversation as is: the tool call is followed by
    # its results, with nothing in between and no memory event anywhere.
    kinds = [type(e) for e in second.events]
    assert kinds[0] is ModelRequest and kinds[1] is ModelResponse and second.events[1].tool_calls
    assert ToolCallsEvent in kinds and kinds[-1] is ToolResultsEvent
    assert not mentions(second.events, HEADER)
    # One recall per request: the call after the tool result reuses it.
    assert memory.stats()["recalled"] == 1
    # Tool traffic is never captured: neither the call nor the tool's output.
    assert memory.flush(5)
    assert stored.transcript(uid, "tools") == [
        ("user", "Book me a window seat on the flight to Oslo."),
        ("assistant", "Booked your window seat in row 14."),
    ]


async def ask_person(question: str, ctx: Context) -> str:
    """Ask the person a question and return their answer."""
    return await ctx.input(question)


def test_human_input_is_the_persons_turn_and_each_turn_is_stored_once(make_memory, stored, uid):
    memory = make_memory(session_id="hitl")
    bot, _ = agent(
        [call_tool("ask_person", question="Which seat do you like?"), "Window seat it is."],
        memory=memory,
        tools=[ask_person],
        hitl_hook=lambda request: "I always take the window seat.",
    )
    asyncio.run(bot.ask("Please book my flight to Oslo for Friday."))
    assert memory.flush(5)
    assert stored.transcript(uid, "hitl") == [
        ("user", "Please book my flight to Oslo for Friday."),
        ("user", "I always take the window seat."),
        ("assistant", "Window seat it is."),
    ]
    # on_human_input captured the answer; the next model call saw it in the history again.
    assert memory.stats()["captured"] == 3 and memory.stats()["deduplicated"] == 1
    facts = stored.facts(uid)
    assert "User always takes the window seat" in facts
    # The tool's question (the model's words, as tool arguments) is not the person's.
    assert not any("Which seat" in fact for fact in facts)


def test_capture_one_side_only(make_memory, stored, uid):
    for side, kept in (("received", "user"), ("sent", "assistant")):
        memory = make_memory(session_id=f"side-{side}", capture=side)
        bot, _ = agent(["Noted, Oslo it is."], memory=memory)
        asyncio.run(bot.ask("I moved to Oslo last spring."))
        assert memory.flush(5)
        assert [role for role, _ in stored.transcript(uid, f"side-{side}")] == [kept]
