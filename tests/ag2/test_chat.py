"""Real AG2 chats against the real local server: recall, injection, capture, roles, dedup, tools."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone

import pytest
from memorysync_client.api.memory import list_memories

from ag2_memorysync import DEFAULT_CONTEXT_TEMPLATE, MemorySyncCapability, register_memory_tools
from memorysync_core import Connection, MemorySyncError, call
from memorysync_server import LocalServer
from tests.ag2.scripted import activate, assistant, person, sequence, tool_call
from tests.support.load import give_functional_budget

HEADER = DEFAULT_CONTEXT_TEMPLATE.split("{context}")[0].strip()


def memory_messages(call: list[dict]) -> list[str]:
    return [m["content"] for m in call if m.get("role") == "system" and HEADER in str(m.get("content"))]


def no_injection_anywhere(*histories: list[dict]) -> bool:
    return not any(HEADER in str(m.get("content")) for history in histories for m in history)


def test_recall_reaches_the_model_for_that_reply_and_never_the_stored_history(make_memory, uid):
    memory = make_memory(session_id="s1")
    assert memory.save("I am allergic to peanuts.").status == "stored"
    bot, model = assistant(sequence(["Fruit is a safe pick.", "A peanut-free curry then."]))
    user = person(["And what should I cook for dinner tomorrow?"])
    memory.add_to_agent(bot)

    user.initiate_chat(bot, message="What snack should I bring to the party?", silent=True)

    assert len(model.calls) == 2
    for request, asked in zip(
        model.calls,
        ["What snack should I bring to the party?", "And what should I cook for dinner tomorrow?"],
        strict=True,
    ):
        injected = memory_messages(request)
        assert len(injected) == 1, "exactly one memory block per model call: nothing accumulates"
        assert "allergic to peanuts" in injected[0]
        assert request[-1] == {"role": "user", "content": asked, "name": "user"}, (
            "the message itself is unchanged"
        )
        assert request[-2]["content"] == injected[0], "the block sits right before the message it answers"
    assert no_injection_anywhere(bot.chat_messages[user], user.chat_messages[bot])
    assert "allergic" not in str(bot.chat_messages[user])
    assert memory.stats()["injected"] == 2


def test_context_with_braces_and_percent_is_inserted_literally(make_memory, stored, uid):
    memory = make_memory(context_template="Known {x} 100% about them: {context} (end %s)")
    memory.save("I am allergic to peanuts {always} and 100% sure %d.")
    bot, model = assistant(sequence(["Noted."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="Which snack is safe for me to eat?", silent=True)
    [block] = [m["content"] for m in model.calls[0] if m.get("role") == "system" and "Known" in m["content"]]
    assert block.startswith("Known {x} 100% about them: ")
    assert block.endswith(" (end %s)")
    assert "peanuts" in block


@pytest.mark.parametrize("who_ends", ["assistant", "person"])
def test_terminate_still_ends_the_chat_with_the_capability_on_both_agents(make_memory, who_ends):
    memory = make_memory()
    memory.save("I live in Oslo.")
    replies = (
        ["Oslo is lovely in winter.", "TERMINATE"] if who_ends == "assistant" else ["Oslo is lovely."] * 5
    )
    bot, model = assistant(sequence(replies, then="should never be asked"))
    lines = ["Where should I go skiing near my city?"]
    user = person(lines + (["TERMINATE"] if who_ends == "person" else []), end="unexpected extra turn")
    memory.add_to_agent(bot)
    memory.add_to_agent(user)

    result = user.initiate_chat(bot, message="Where do I live, do you remember it?", silent=True)

    said = [m["content"] for m in result.chat_history]
    assert said[-1] == "TERMINATE"
    assert "unexpected extra turn" not in said and "should never be asked" not in said
    assert len(model.calls) == 2, "no model call after TERMINATE"


ARRANGEMENTS = ["assistant", "proxy", "both-one-capability", "both-two-capabilities"]


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_every_utterance_stored_exactly_once_with_its_speakers_role(make_memory, stored, uid, arrangement):
    """zep-ag2's documented failure: two attached agents on one session stored each utterance
    twice, once under the wrong role. Here each arrangement gives the same transcript."""
    first = make_memory(session_id="trip")
    memories = [first]
    bot, _ = assistant(
        sequence(["I am a language model and I love helping with trips.", "Lisbon has great trams."])
    )
    user = person(["I moved to Lisbon last spring and I work as a nurse."])
    if arrangement == "assistant":
        first.add_to_agent(bot)
    elif arrangement == "proxy":
        first.add_to_agent(user)
    elif arrangement == "both-one-capability":
        first.add_to_agent(bot)
        first.add_to_agent(user)
    else:
        first.add_to_agent(bot)
        memories.append(make_memory(session_id="trip"))
        memories[1].add_to_agent(user)

    user.initiate_chat(bot, message="I prefer window seats when I fly.", silent=True)
    assert all(memory.flush(5) for memory in memories)

    assert stored.transcript(uid, "trip") == [
        ("user", "I prefer window seats when I fly."),
        ("assistant", "I am a language model and I love helping with trips."),
        ("user", "I moved to Lisbon last spring and I work as a nurse."),
        ("assistant", "Lisbon has great trams."),
    ]
    facts = " | ".join(stored.facts(uid))
    assert "window" in facts and "Lisbon" in facts
    assert "language model" not in facts, "an assistant turn must never become the person's fact"


def test_two_capabilities_on_both_agents_count_the_second_sighting_as_a_duplicate(make_memory, stored, uid):
    mine, theirs = make_memory(session_id="pair"), make_memory(session_id="pair")
    bot, _ = assistant(sequence(["Nice to meet you, Ana."]))
    user = person([])
    mine.add_to_agent(bot)
    theirs.add_to_agent(user)
    user.initiate_chat(bot, message="My name is Ana and I am a violinist.", silent=True)
    assert mine.flush(5) and theirs.flush(5)
    total = {k: mine.stats()[k] + theirs.stats()[k] for k in ("captured", "deduplicated")}
    assert total == {"captured": 2, "deduplicated": 2}
    assert len(stored.transcript(uid, "pair")) == 2


@pytest.mark.parametrize(
    ("capture", "expected"),
    [
        ("sent", [("assistant", "Paris is lovely in spring.")]),
        ("received", [("user", "I am planning a trip to Paris in April.")]),
    ],
)
def test_capture_limits_to_one_hook(make_memory, stored, uid, capture, expected):
    memory = make_memory(session_id="one-side", capture=capture)
    bot, _ = assistant(sequence(["Paris is lovely in spring."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="I am planning a trip to Paris in April.", silent=True)
    assert memory.flush(5)
    assert stored.transcript(uid, "one-side") == expected


def test_a_message_redelivered_to_the_hook_is_captured_once(make_memory, stored, uid):
    memory = make_memory(session_id="again")
    bot, model = assistant(sequence(["First answer.", "Second answer."]))
    user = person([])
    memory.add_to_agent(bot)
    user.send("I moved to Berlin last year with my two dogs.", bot, request_reply=False, silent=True)
    bot.generate_reply(sender=user)
    bot.generate_reply(sender=user)
    assert memory.flush(5)
    assert stored.transcript(uid, "again") == [("user", "I moved to Berlin last year with my two dogs.")]
    assert memory.stats()["deduplicated"] == 0, "the history's tail already taken in is not looked at again"
    assert len(model.calls) == 2, "both replies still got their recall and their model call"


def test_multimodal_messages_keep_their_shape_and_their_text_is_captured_and_recalled(
    make_memory, stored, uid
):
    memory = make_memory(session_id="photo")
    memory.save("I have a cat named Mia.")
    bot, model = assistant(sequence(["What a cute cat!"]))
    memory.add_to_agent(bot)
    content = [
        {"type": "text", "text": "Here is a photo of my cat"},
        {"type": "image_url", "image_url": {"url": "http://127.0.0.1/cat.png"}},
        {"type": "text", "text": "sleeping on the sofa"},
    ]
    person([]).initiate_chat(bot, message={"role": "user", "content": content}, silent=True)
    assert memory.flush(5)
    assert model.calls[0][-1]["content"] == content, "the list reaches the model as it was sent"
    assert "Mia" in memory_messages(model.calls[0])[0], "recall ran on the text parts"
    assert stored.transcript(uid, "photo")[0] == ("user", "Here is a photo of my cat\nsleeping on the sofa")


def test_tool_round_trip_never_captures_tool_calls_or_results(make_memory, stored, uid):
    memory = make_memory(session_id="tools")
    memory.save("I am vegetarian.")

    def script(messages):
        if messages[-1].get("role") == "tool":
            return "Saved. Enjoy your vegetarian dinner!"
        return tool_call("save_memory", fact="I prefer aisle seats on long flights.")

    bot, model = assistant(script, max_replies=4)
    user = person([])
    register_memory_tools(memory, caller=bot, executor=user)
    activate(bot)  # AG2 rebuilds the model client when a tool is registered
    memory.add_to_agent(bot)
    memory.add_to_agent(user)

    result = user.initiate_chat(
        bot, message="Book me a dinner place, and save my seat preference too.", silent=True
    )
    assert memory.flush(5)

    tool_results = [m for m in result.chat_history if m.get("role") == "tool"]
    assert [r["content"] for r in tool_results] == ["Saved to memory."]
    assert stored.transcript(uid, "tools") == [
        ("user", "Book me a dinner place, and save my seat preference too."),
        ("assistant", "Saved. Enjoy your vegetarian dinner!"),
    ]
    # The model's follow-up after the tool result still has the context recalled for the request.
    assert len(model.calls) == 2
    assert all("vegetarian" in memory_messages(call)[0] for call in model.calls)
    assert any("aisle" in fact for fact in stored.facts(uid))


def test_memory_tools_give_the_model_a_plain_sentence_when_the_backend_fails(dead_url, uid):
    memory = MemorySyncCapability(user_id=uid, api_key="ms_test_x", base_url=dead_url)
    bot, model = assistant(
        lambda messages: (
            "OK." if messages[-1].get("role") == "tool" else tool_call("search_memory", query="diet")
        ),
        max_replies=3,
    )
    user = person([])
    register_memory_tools(memory, caller=bot, executor=user)
    activate(bot)
    user.initiate_chat(bot, message="What do you remember about my diet?", silent=True)
    tool_message = model.calls[1][-1]
    assert tool_message["role"] == "tool"
    assert tool_message["content"] == "Memory search is unavailable right now; continue without it."
    memory.close(timeout=0.2)


def test_two_sessions_the_second_remembers_the_person(make_memory, stored, uid):
    first = make_memory(session_id="monday")
    bot, _ = assistant(sequence(["Thanks, noted."]))
    first.add_to_agent(bot)
    person([]).initiate_chat(bot, message="I am allergic to peanuts and I live in Porto.", silent=True)
    assert first.flush(5)
    assert any("peanuts" in fact for fact in stored.facts(uid))

    second = make_memory(session_id="friday")
    bot2, model2 = assistant(sequence(["Bring fruit, not peanuts."]))
    second.add_to_agent(bot2)
    person([]).initiate_chat(bot2, message="What snack should I bring to the party tonight?", silent=True)
    assert "allergic to peanuts" in memory_messages(model2.calls[0])[0]
    assert second.flush(5)
    assert [role for role, _ in stored.transcript(uid, "friday")] == ["user", "assistant"]


def test_a_question_about_yesterday_gets_what_the_person_said_yesterday(tmp_path, request, uid):
    # Three sessions on three days, the server's clock moved between them: "yesterday" in the
    # third is counted from it, and the lunch said yesterday leads the block the model reads.
    now = [datetime(2026, 5, 4, 12, 0, tzinfo=timezone.utc)]
    with LocalServer(tmp_path / "days.db", clock=lambda: now[0]) as server:

        def chat(session: str, said: str, reply: str) -> list[list[dict]]:
            options = {"user_id": uid, "api_key": server.api_key, "base_url": server.base_url}
            give_functional_budget(request, options)
            memory = MemorySyncCapability(session_id=session, **options)
            bot, model = assistant(sequence([reply]))
            memory.add_to_agent(bot)
            person([]).initiate_chat(bot, message=said, silent=True)
            assert memory.flush(5)
            memory.close(timeout=0.5)
            return model.calls

        chat("mon", "I had lunch with my coworker Raj at the taco truck by the office.", "Nice.")
        now[0] += timedelta(days=3)
        chat("thu", "I had lunch with my sister Ana at the Thai place downtown.", "Sounds lovely.")
        now[0] += timedelta(days=1)
        calls = chat("fri", "Who did I have lunch with yesterday?", "With Ana, at the Thai place.")
        lines = [line for line in memory_messages(calls[0])[0].splitlines() if line.startswith("- [")]
        # Asked without "yesterday", Raj's lunch leads: the day decides.
        assert "Ana" in lines[0] and any("Raj" in line for line in lines[1:])


def test_explicit_operations(make_memory, uid):
    memory = make_memory(session_id="ops")
    saved = memory.save("I am vegan.")
    assert saved.status == "stored" and saved.memory_ids
    again = memory.save("I am vegan.")
    assert again.status == "skipped" and again.reason == "already_ingested"
    hits = memory.search("what should I eat for dinner", limit=3)
    assert hits and "vegan" in hits[0].text and hits[0].memory_id.startswith("m_")
    with pytest.raises(ValueError, match="non-empty query"):
        memory.search("  ")

    bot, _ = assistant(sequence(["Great, lots of vegan options here."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="Find me a vegan restaurant nearby.", silent=True)
    assert memory.flush(5)
    assert [(t["role"], t["content"]) for t in memory.history()] == [
        ("user", "Find me a vegan restaurant nearby."),
        ("assistant", "Great, lots of vegan options here."),
    ]
    stats = memory.stats()
    assert stats["recalled"] == 1 and stats["injected"] == 1 and stats["captured"] == 2
    assert stats["dropped"] == stats["failed"] == stats["queued"] == 0


def test_search_on_a_dead_server_raises_a_clear_error(dead_url, uid):
    memory = MemorySyncCapability(user_id=uid, api_key="ms_test_x", base_url=dead_url)
    with pytest.raises(MemorySyncError, match=r"search failed: .*could not reach the server"):
        memory.search("anything at all")
    memory.close(timeout=0.2)


def test_metadata_scalars_reach_the_extracted_facts(make_memory, server, uid):

    memory = make_memory(session_id="meta", metadata={"channel": "web", "priority": 2})
    bot, _ = assistant(sequence(["Noted."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="I am a night-shift nurse in Porto.", silent=True)
    assert memory.flush(5)
    conn = Connection(api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id)
    try:
        facts = call(
            list_memories.sync_detailed, tenant_id=server.tenant_id, user_id=uid, client=conn.client, limit=0
        ).memories
    finally:
        conn.close()
    assert facts
    for fact in facts:
        meta = fact.metadata.to_dict()
        assert meta["channel"] == "web" and meta["priority"] == 2 and fact.source == "ag2"


def test_a_turn_longer_than_the_limit_is_stored_truncated_once(make_memory, stored, uid):
    memory = make_memory(session_id="long")
    mine, theirs = memory, make_memory(session_id="long")
    bot, model = assistant(sequence(["That is a lot of tea."]))
    user = person([])
    mine.add_to_agent(bot)
    theirs.add_to_agent(user)
    message = "I drink green tea every single morning. " * 500  # 20,000 characters
    user.initiate_chat(bot, message=message, silent=True)
    assert mine.flush(5) and theirs.flush(5)
    assert model.calls[0][-1]["content"] == message, "the model still gets the whole message"
    assert stored.transcript(uid, "long") == [
        ("user", message.strip()[:16_000]),
        ("assistant", "That is a lot of tea."),
    ]
    assert mine.stats()["deduplicated"] + theirs.stats()["deduplicated"] == 2


@pytest.mark.parametrize("tenant_known", [False, True])
def test_connection_and_tenant_are_warmed_at_construction_not_on_the_first_reply(
    make_memory, server, tenant_known
):
    server.faults.set(delay=0.001, route="/org/projects")  # a no-op fault that counts requests
    memory = make_memory(tenant_id=server.tenant_id if tenant_known else None)
    deadline = time.monotonic() + 5
    while server.faults.hits < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.faults.hits == 1, "one warm-up call at construction"
    bot, _ = assistant(sequence(["Noted."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="I am a beekeeper in the Alps.", silent=True)
    assert memory.flush(5)
    assert server.faults.hits == 1, "no discovery on the hot path"
    assert memory.stats()["recalled"] == 1


def test_every_public_call_after_close_raises_the_kits_error_saying_it_is_closed(make_memory):
    memory = make_memory(session_id="closed")
    assert memory.save("I am vegan.").status == "stored"
    assert memory.close()
    calls = {
        "search": lambda: memory.search("what do I eat"),
        "save": lambda: memory.save("I live in Oslo."),
        "history": memory.history,
        "flush": memory.flush,
        "add_to_agent": lambda: memory.add_to_agent(assistant(sequence([]))[0]),
    }
    for name, call_it in calls.items():
        with pytest.raises(MemorySyncError, match=rf"{name}\(\): .* is closed; create a new one"):
            call_it()

    async def async_calls():
        for name, coro in (
            ("asearch", memory.asearch("what do I eat")),
            ("asave", memory.asave("I live in Oslo.")),
            ("ahistory", memory.ahistory()),
            ("aflush", memory.aflush()),
        ):
            with pytest.raises(MemorySyncError, match=rf"{name}\(\): .* is closed"):
                await coro

    asyncio.run(async_calls())
    assert memory.close(), "closing twice is harmless"
    assert memory.stats()["captured"] == 0, "the counters stay readable"
