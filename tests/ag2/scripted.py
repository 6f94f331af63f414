"""Real AG2 agents with a scripted model: only the LLM is replaced, and it records what it received.

``ScriptedClient`` is an autogen ``ModelClient`` (create / message_retrieval / cost / get_usage),
so ``generate_oai_reply``, tool calling and termination all run the framework's own code.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the framework is imported where it is used, not when the suite is collected
    from autogen import ConversableAgent, UserProxyAgent


Reply = str | dict[str, Any]
Script = Callable[[list[dict[str, Any]]], Reply]

# cache_seed None: autogen before 0.9 caches completions on disk by default (seed 41), so a
# second run would replay the first run's answers and never call the scripted model.
LLM_CONFIG = {
    "config_list": [{"model": "scripted", "model_client_cls": "ScriptedClient"}],
    "cache_seed": None,
}


class ModelLog:
    """Every message list the model was called with, in order (deep copies)."""

    def __init__(self) -> None:
        self.calls: list[list[dict[str, Any]]] = []
        self._lock = threading.Lock()

    def record(self, messages: list[dict[str, Any]]) -> None:
        with self._lock:
            self.calls.append(copy.deepcopy(messages))

    def system_texts(self, call: int) -> list[str]:
        return [str(m.get("content")) for m in self.calls[call] if m.get("role") == "system"]

    def saw(self, needle: str, call: int | None = None) -> bool:
        calls = self.calls if call is None else [self.calls[call]]
        return any(needle in str(m.get("content")) for msgs in calls for m in msgs)


class ScriptedClient:
    def __init__(self, config: dict[str, Any], *, script: Script, log: ModelLog, **_: Any) -> None:
        self.model = config.get("model", "scripted")
        self._script = script
        self._log = log

    def create(self, params: dict[str, Any]) -> SimpleNamespace:
        messages = params["messages"]
        self._log.record(messages)
        reply = self._script(messages)
        message = {"role": "assistant", "content": reply} if isinstance(reply, str) else reply
        # The wrapper reads message_retrieval_function off the response; without it every reply is "".
        return SimpleNamespace(
            choices=[SimpleNamespace(message=message)],
            model=self.model,
            cost=0.0,
            message_retrieval_function=None,
        )

    def message_retrieval(self, response: SimpleNamespace) -> list[Any]:
        return [c.message for c in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        return 0.0

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict[str, Any]:
        return {
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "total_tokens": 0,
            "cost": 0.0,
            "model": response.model,
        }


def sequence(replies: Iterable[Reply], then: Reply = "TERMINATE") -> Script:
    """A script that answers ``replies`` in order, then ``then`` forever."""
    it = iter(list(replies))
    lock = threading.Lock()

    def script(_messages: list[dict[str, Any]]) -> Reply:
        with lock:
            return next(it, then)

    return script


def tool_call(name: str, call_id: str = "call_1", **arguments: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


def assistant(
    script: Script, *, name: str = "assistant", log: ModelLog | None = None, max_replies: int = 10
) -> tuple[ConversableAgent, ModelLog]:
    """An LLM agent whose model is scripted. Register tools BEFORE calling :func:`activate`."""
    from autogen import ConversableAgent

    agent = ConversableAgent(
        name,
        llm_config=copy.deepcopy(LLM_CONFIG),
        human_input_mode="NEVER",
        max_consecutive_auto_reply=max_replies,
    )
    log = log or ModelLog()
    agent._scripted = (script, log)  # type: ignore[attr-defined]
    activate(agent)
    return agent, log


def activate(agent: ConversableAgent) -> None:
    """(Re-)register the scripted model client: AG2 drops it whenever a tool is registered."""
    script, log = agent._scripted  # type: ignore[attr-defined]
    agent.register_model_client(model_client_cls=ScriptedClient, script=script, log=log)


def person(
    lines: Iterable[str | Callable[[], str]],
    *,
    name: str = "user",
    max_replies: int = 10,
    end: str | None = None,
) -> UserProxyAgent:
    """A UserProxyAgent standing for a person who says ``lines`` in order after the first message.

    A line may be a callable, called when it is the person's turn (to act mid-chat, e.g. stop
    the server) and returning the words.
    The scripted words come from a reply function after termination/tool handling (position 2),
    so "TERMINATE" still ends the chat and tool calls are still executed. When the lines run out
    the person says ``end`` (None: the chat stops there).
    """
    from autogen import Agent, UserProxyAgent

    proxy = UserProxyAgent(
        name,
        human_input_mode="NEVER",
        code_execution_config=False,
        max_consecutive_auto_reply=max_replies,
        default_auto_reply="",
    )
    it = iter(list(lines))

    def speak(
        recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
    ) -> tuple[bool, Any]:
        last = messages[-1] if messages else {}
        if last.get("tool_calls"):
            return False, None
        line = next(it, end)
        return True, line() if callable(line) else line

    # After the tool-call reply so a model's tool calls are executed before the person speaks.
    position = next(
        i for i, r in enumerate(proxy._reply_func_list) if r["reply_func"].__name__ == "generate_oai_reply"
    )
    proxy.register_reply([Agent, None], speak, position=position)
    return proxy


def time_reply_hooks(agent: ConversableAgent, attach: Callable[[ConversableAgent], None]) -> list[float]:
    """Attach via ``attach(agent)``; returns, per reply that reached the model, the seconds from the
    first ``process_all_messages_before_reply`` hook to the model call: everything the capability
    does before a reply, its wait for the recall included, measured by AG2's own call chain."""
    from autogen import Agent

    durations: list[float] = []
    started: list[float] = []

    def start(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        started[:] = [time.perf_counter()]
        return messages

    def reached_the_model(
        recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
    ) -> tuple[bool, None]:
        durations.append(time.perf_counter() - started.pop())
        return False, None

    agent.register_hook("process_all_messages_before_reply", start)
    attach(agent)
    model = next(
        i
        for i, r in enumerate(agent._reply_func_list)
        if r["reply_func"].__name__.endswith("generate_oai_reply")
    )
    agent.register_reply([Agent, None], reached_the_model, position=model)
    return durations
