"""Recall reaches whichever reply function answers: the model client behind ``generate_oai_reply``,
a function registered with ``register_reply`` (before or after attaching, at the front or after
the termination check), an agent with ``llm_config=False`` answered by its own function, sync
and async chats; and the everyday situations people hit with such agents."""

from __future__ import annotations

import asyncio
import copy
import threading
from typing import TYPE_CHECKING, Any

import pytest

from tests.ag2.scripted import ModelLog, assistant, person, sequence
from tests.ag2.test_chat import memory_messages, no_injection_anywhere

if TYPE_CHECKING:  # the framework is imported where it is used, not when the suite is collected
    from autogen import ConversableAgent

FACT = "I am allergic to peanuts."
ASKED = "What snack should I bring to the party tonight?"
WIRINGS = [
    "model client",
    "register_reply after attach",
    "register_reply before attach",
    "llm_config=False, function at the front",
    "llm_config=False, function after the termination check",
    "async chat, async function",
]


class Answerer:
    """A reply function answering from a script, recording the messages it was handed: a rule
    based agent, a local model wrapper or a team's router, as far as AG2 can tell."""

    def __init__(self, replies: list[str]) -> None:
        self.log = ModelLog()
        self._next = sequence(replies)

    def __call__(
        self, recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
    ) -> tuple[bool, str]:
        self.log.record(messages)
        return True, str(self._next(messages))

    async def async_twin(
        self, recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
    ) -> tuple[bool, str]:
        await asyncio.sleep(0)
        return self(recipient, messages, sender, config)


def wired(
    wiring: str, memory, replies: list[str], name: str = "assistant"
) -> tuple[ConversableAgent, ModelLog]:
    """An agent answering ``replies`` through ``wiring``, with ``memory`` attached."""
    from autogen import Agent, ConversableAgent

    if wiring == "model client":
        agent, log = assistant(sequence(replies), name=name)
        memory.add_to_agent(agent)
        return agent, log
    answer = Answerer(replies)
    if wiring.startswith("register_reply"):
        agent, _ = assistant(sequence(["the model should not be asked"]), name=name)
    else:
        agent = ConversableAgent(
            name, llm_config=False, human_input_mode="NEVER", max_consecutive_auto_reply=10
        )
    if wiring == "register_reply after attach":
        memory.add_to_agent(agent)
        agent.register_reply([Agent, None], answer)
        return agent, answer.log
    if wiring == "async chat, async function":
        agent.register_reply([Agent, None], answer.async_twin)
    else:
        agent.register_reply([Agent, None], answer, position=2 if "termination" in wiring else 0)
    memory.add_to_agent(agent)
    return agent, answer.log


def chat(wiring: str, user, agent, message: str) -> None:
    if wiring.startswith("async"):
        asyncio.run(user.a_initiate_chat(agent, message=message, silent=True))
    else:
        user.initiate_chat(agent, message=message, silent=True)


@pytest.mark.parametrize("wiring", WIRINGS)
def test_the_block_reaches_the_function_that_answers(make_memory, wiring):
    memory = make_memory(session_id="wiring")
    assert memory.save(FACT).status == "stored"
    agent, log = wired(wiring, memory, ["Fruit is a safe pick.", "A peanut-free curry then."])
    user = person(["And what should I cook for dinner tomorrow?"])

    chat(wiring, user, agent, ASKED)

    assert len(log.calls) == 2
    for request, asked in zip(log.calls, [ASKED, "And what should I cook for dinner tomorrow?"], strict=True):
        [block] = memory_messages(request)
        assert "allergic to peanuts" in block
        assert request[-1]["content"] == asked, "the message answered stays last"
        assert request[-2]["content"] == block
    assert no_injection_anywhere(agent.chat_messages[user], user.chat_messages[agent])
    assert memory.stats()["injected"] == 2


@pytest.mark.parametrize("wiring", ["register_reply after attach", "llm_config=False, function at the front"])
def test_a_new_session_recalls_what_an_earlier_one_learned(make_memory, stored, uid, wiring):
    first = make_memory(session_id="monday")
    agent, _ = wired(wiring, first, ["Thanks, noted."])
    chat(wiring, person([]), agent, "I am allergic to peanuts and I live in Porto.")
    assert first.flush(5)
    assert any("peanuts" in fact for fact in stored.facts(uid))

    second = make_memory(session_id="friday")
    agent2, log = wired(wiring, second, ["Bring fruit, not peanuts."])
    chat(wiring, person([]), agent2, ASKED)
    [block] = memory_messages(log.calls[0])
    assert "allergic to peanuts" in block


def test_two_people_at_once_each_get_their_own_memories(make_memory):
    people = {"ana": "I am allergic to peanuts.", "bo": "I am a vegetarian who loves cheese."}
    logs: dict[str, ModelLog] = {}
    chats = []
    for who, fact in people.items():
        memory = make_memory(user_id=f"{who}-{id(people)}", session_id="lunch")
        assert memory.save(fact).status == "stored"
        agent, logs[who] = wired(
            "llm_config=False, function at the front", memory, ["Noted."], name=f"bot-{who}"
        )
        user = person([], name=who)
        chats.append(
            threading.Thread(
                target=user.initiate_chat, args=(agent,), kwargs={"message": ASKED, "silent": True}
            )
        )
    for thread in chats:
        thread.start()
    for thread in chats:
        thread.join(30)
    [ana_block] = memory_messages(logs["ana"].calls[0])
    [bo_block] = memory_messages(logs["bo"].calls[0])
    assert "peanuts" in ana_block and "vegetarian" not in ana_block
    assert "vegetarian" in bo_block and "peanuts" not in bo_block


def test_a_group_member_answering_through_its_own_function_gets_the_block(make_memory):
    from autogen import GroupChat, GroupChatManager

    memory = make_memory(session_id="group")
    memory.save(FACT)
    user = person([])
    critic, _ = assistant(sequence(["The trail is steep, so keep the bags light."]), name="critic")
    planner, log = wired(
        "llm_config=False, function at the front", memory, ["Pack apples and rice cakes."], "planner"
    )
    group = GroupChat(
        agents=[user, critic, planner], messages=[], max_round=3, speaker_selection_method="round_robin"
    )
    user.initiate_chat(
        GroupChatManager(group, llm_config=False), message="Can we pack peanuts for the hike?", silent=True
    )
    [request] = log.calls
    [block] = memory_messages(request)
    assert "allergic to peanuts" in block
    assert request[-1]["content"] == "The trail is steep, so keep the bags light."


def test_a_second_capability_after_anothers_close_takes_over(make_memory):
    first = make_memory(session_id="one")
    agent, log = wired("llm_config=False, function at the front", first, ["Noted.", "Fruit then."])
    first.save("I live in Oslo.")
    chat("sync", person([]), agent, "Where should I go skiing this weekend?")
    assert first.close()
    second = make_memory(session_id="two")
    second.save(FACT)
    second.add_to_agent(agent)
    chat("sync", person([]), agent, ASKED)
    assert len(log.calls) == 2
    [block] = memory_messages(log.calls[1])
    assert "allergic to peanuts" in block
    assert second.stats()["injected"] == 1


def test_the_wait_functions_stay_in_front_and_leave_with_the_capability(make_memory):
    from autogen import Agent

    memory = make_memory()
    agent, _ = assistant(sequence([]))
    memory.add_to_agent(agent)
    answer = Answerer(["Hello."])
    agent.register_reply([Agent, None], answer.__call__)  # lands in front of everything, ours too
    person([]).initiate_chat(agent, message="Good morning, what is on today?", silent=True)
    names = [entry["reply_func"].__name__ for entry in agent._reply_func_list]
    assert names[:3] == ["a_memorysync_wait_for_recall", "memorysync_wait_for_recall", "__call__"]
    memory.remove_from_agent(agent)
    names = [entry["reply_func"].__name__ for entry in agent._reply_func_list]
    assert "memorysync_wait_for_recall" not in names and "a_memorysync_wait_for_recall" not in names
    assert copy.copy(answer.log.calls) and memory.stats()["recalled"] == 1
