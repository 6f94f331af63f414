"""The memory block and tool use, checked on the wire: autogen's own OpenAI client talks HTTP to a
local OpenAI-compatible server that answers 400 for a request OpenAI would reject."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated

import pytest

from ag2_memorysync.placement import block_role, inject
from tests.ag2.scripted import person
from tests.ag2.test_chat import HEADER
from tests.support.openai_stub import OpenAIStub, function_call, ordering_error, tool_calls

QUESTION = "What should I wear for my walk in Oslo today?"
FINAL = "Take a warm coat; and there is a vegetarian cafe on the way."


def weather(city: Annotated[str, "The city"]) -> str:
    return f"Snow and -3 C in {city}."


SCENARIOS = {
    "one tool call": [tool_calls(("weather", {"city": "Oslo"})), FINAL],
    "parallel tool calls": [
        tool_calls(("weather", {"city": "Oslo"}), ("weather", {"city": "Bergen"})),
        FINAL,
    ],
    "two rounds": [
        tool_calls(("weather", {"city": "Oslo"}), prefix="first"),
        tool_calls(("weather", {"city": "Bergen"}), ("weather", {"city": "Tromso"}), prefix="second"),
        FINAL,
    ],
    "legacy function_call": [function_call("weather", city="Oslo"), FINAL],
}


def block_positions(messages: list[dict]) -> list[int]:
    return [i for i, m in enumerate(messages) if HEADER in str(m.get("content"))]


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("attached", ["assistant", "both"])
def test_tool_round_trips_with_memory_are_requests_the_provider_accepts(
    make_memory, stored, uid, scenario, attached
):
    from autogen import ConversableAgent

    replies = iter(SCENARIOS[scenario])
    memory = make_memory(session_id="tools-wire")
    memory.save("I am vegetarian and I always walk to work.")
    with OpenAIStub(lambda messages: next(replies)) as stub:
        bot = ConversableAgent(
            "assistant", llm_config=stub.llm_config(), human_input_mode="NEVER", max_consecutive_auto_reply=5
        )
        user = person([])
        style = "function" if scenario == "legacy function_call" else "tool"
        bot.register_for_llm(name="weather", description="Weather for a city", api_style=style)(weather)
        user.register_for_execution(name="weather")(weather)
        memory.add_to_agent(bot)
        if attached == "both":
            memory.add_to_agent(user)

        result = user.initiate_chat(bot, message=QUESTION, silent=True)

    assert stub.rejections == []
    assert result.chat_history[-1]["content"] == FINAL
    assert len(stub.requests) == len(SCENARIOS[scenario])
    for n, request in enumerate(stub.requests):
        wire = request["messages"]
        assert ordering_error(wire) is None
        [at] = block_positions(wire)  # exactly one block per request, on every request
        assert "walks to work" in wire[at]["content"] and wire[at]["role"] == "system"
        if n == 0:
            assert wire[at + 1] == {"role": "user", "content": QUESTION, "name": "user"}
            assert at == len(wire) - 2
        else:
            # After a tool result the block sits right before the call that opened the last exchange,
            # and the results still end the list.
            opener = wire[at + 1]
            assert opener["role"] == "assistant" and (opener.get("tool_calls") or opener.get("function_call"))
            assert all(m["role"] in ("tool", "function") for m in wire[at + 2 :])
            assert block_positions(wire[:at]) == [], "no block left over in the history"
    assert memory.flush(5)
    assert stored.transcript(uid, "tools-wire") == [("user", QUESTION), ("assistant", FINAL)]


def test_placement_never_splits_a_tool_exchange_and_keeps_the_last_message_last():
    call = tool_calls(("weather", {"city": "Oslo"}), ("weather", {"city": "Bergen"}))
    history = [
        {"role": "user", "content": QUESTION, "name": "user"},
        {**call, "name": "assistant"},
        {
            "role": "tool",
            "content": "Snow\n\nRain",
            "tool_responses": [
                {"tool_call_id": "call_1", "role": "tool", "content": "Snow"},
                {"tool_call_id": "call_2", "role": "tool", "content": "Rain"},
            ],
        },
    ]
    out = inject(history, "MEMORY")
    assert [m.get("content") for m in out[:2]] == [QUESTION, "MEMORY"]
    assert out[-1] == history[-1] and out[2]["tool_calls"] == call["tool_calls"]
    # A person who answers while tool calls are pending: AG2 sends the results and the words together.
    interrupted = [
        *history[:2],
        {"role": "user", "content": "never mind", "tool_responses": history[2]["tool_responses"]},
    ]
    assert inject(interrupted, "MEMORY")[1]["content"] == "MEMORY"
    assert inject([{"role": "user", "content": "hi"}], "MEMORY")[0]["content"] == "MEMORY"
    assert inject([], "MEMORY") == [{"role": "system", "content": "MEMORY"}]


def test_bedrock_gets_the_block_as_a_user_message_because_its_client_drops_a_second_system_message():
    from autogen import ConversableAgent

    bedrock = pytest.importorskip("autogen.oai.bedrock")
    agent_system = {"role": "system", "content": "You are a travel assistant."}
    history = [{"role": "user", "content": QUESTION}]

    agent = SimpleNamespace(
        llm_config={"config_list": [{"api_type": "bedrock", "model": "anthropic.claude-3-5-sonnet"}]}
    )

    as_system = [agent_system, *inject(history, "MEMORY: vegetarian", "system")]
    sent = bedrock.oai_messages_to_bedrock_messages(as_system, False, True)
    assert "MEMORY" not in str(sent) + str(bedrock.extract_system_messages(as_system)), "dropped by Bedrock"

    role = block_role(agent)
    assert role == "user"
    sent = bedrock.oai_messages_to_bedrock_messages(
        [agent_system, *inject(history, "MEMORY: vegetarian", role)], False, True
    )
    assert "MEMORY: vegetarian" in str(sent)
    assert sent[-1] == {"role": "user", "content": [{"text": QUESTION}]}

    no_system_prompts = SimpleNamespace(
        llm_config={"config_list": [{"api_type": "bedrock", "model": "m", "supports_system_prompts": False}]}
    )

    assert (
        block_role(no_system_prompts) == "system"
    )  # Bedrock then turns every system message into a user one
    assert block_role(ConversableAgent("plain", llm_config=False)) == "system"
