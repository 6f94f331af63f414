"""A real agno ``Model`` whose replies follow a script: only the LLM is replaced.

Everything else is agno's own code: the Agent, the MemoryManager, its memory tools (add, update,
delete, clear) and the agentic ``update_user_memory`` tool. The model reacts to the prompts agno
builds (the "Memory Manager" system prompt with its ``ID: / Memory:`` list, the agentic search
prompt, the main agent's ``<memories_from_previous_interactions>`` block) and records every tool
result it is shown, so tests can check what reached the model.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from agno.models.base import Model
from agno.models.message import Message
from agno.models.response import ModelResponse


class Transcript:
    """What the scripted model saw; shared by reference even through agno's ``deepcopy(model)``."""

    def __init__(self) -> None:
        self.tool_results: list[str] = []
        self.system_prompts: list[str] = []
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, Any]) -> Transcript:
        return self

    def add(self, bucket: list[str], text: str) -> None:
        with self._lock:
            bucket.append(text)


def _tool_call(name: str, **arguments: Any) -> ModelResponse:
    call = {
        "id": f"call_{name}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    return ModelResponse(role="assistant", tool_calls=[call])


def existing_memories(system: str) -> dict[str, str]:
    """memory text -> id, from the MemoryManager's ``<existing_memories>`` block."""
    return {m: i for i, m in re.findall(r"ID: (\S+)\nMemory: ([^\n]*)", system)}


@dataclass
class ScriptedBase(Model):
    """agno's Model plumbing for a scripted model: every call, sync or async, streamed or not,
    is answered by ``_reply(messages, tools)``, and responses are already parsed."""

    def _reply(self, messages: list[Message], tools: list[dict[str, Any]] | None) -> ModelResponse:
        raise NotImplementedError

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._reply(kwargs["messages"], kwargs.get("tools"))

    async def ainvoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._reply(kwargs["messages"], kwargs.get("tools"))

    def invoke_stream(self, *args: Any, **kwargs: Any) -> Iterator[ModelResponse]:
        yield self.invoke(*args, **kwargs)

    async def ainvoke_stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[ModelResponse]:
        yield await self.ainvoke(*args, **kwargs)

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response


@dataclass
class ScriptedModel(ScriptedBase):
    """Memory-manager rules, applied to the user's words:

    * ``forget everything`` -> ``clear_memory`` (only offered when clear is enabled)
    * ``forget that I like X`` -> ``delete_memory`` of "User likes X"
    * ``I moved to X`` -> ``update_memory`` of the "User lives in ..." memory, else ``add_memory``
    * ``I like X`` / ``I live in X`` -> ``add_memory``
    The main agent calls ``update_user_memory`` (agentic memory) for messages starting with
    ``remember:``, and otherwise answers with the memories it found in its system prompt.
    """

    id: str = "scripted-1"
    name: str = "ScriptedModel"
    provider: str = "local"
    transcript: Transcript = field(default_factory=Transcript)

    def _reply(self, messages: list[Message], tools: list[dict[str, Any]] | None) -> ModelResponse:
        system = next((m.get_content_string() for m in messages if m.role == "system"), "")
        self.transcript.add(self.transcript.system_prompts, system)
        last = messages[-1]
        names = {t.get("function", {}).get("name", t.get("name")) for t in (tools or [])}
        if last.role == "tool":
            self.transcript.add(self.transcript.tool_results, last.get_content_string())
            return ModelResponse(role="assistant", content=f"done: {last.get_content_string()}")
        if "You are a Memory Manager" in system:
            said = " ".join(m.get_content_string() for m in messages if m.role == "user")
            return self._memory_step(said, existing_memories(system), names)
        if "search through user memories" in system:
            query = said_query(messages)
            ids = [
                i
                for i, m in re.findall(r"ID: (\S+)\nMemory: ([^\n]*)", system)
                if query and query in m.lower()
            ]
            return ModelResponse(role="assistant", content=json.dumps({"memory_ids": ids}))
        text = last.get_content_string()
        if "update_user_memory" in names and text.startswith("remember:"):
            return _tool_call("update_user_memory", task=text.removeprefix("remember:").strip())
        block = system.split("<memories_from_previous_interactions>")[-1].split("</memories")[0]
        found = re.findall(r"\n- (.*)", block) if "<memories_from_previous_interactions>" in system else []
        return ModelResponse(role="assistant", content=f"memories: {found}")

    @staticmethod
    def _memory_step(said: str, existing: dict[str, str], names: set[str]) -> ModelResponse:
        if re.search(r"forget everything", said, re.I) and "clear_memory" in names:
            return _tool_call("clear_memory")
        if m := re.search(r"forget that I like (\w+)", said, re.I):
            memory_id = existing.get(f"User likes {m.group(1)}")
            if memory_id and "delete_memory" in names:
                return _tool_call("delete_memory", memory_id=memory_id)
            return ModelResponse(role="assistant", content="nothing to delete")
        if m := re.search(r"I moved to (\w+)", said, re.I):
            current = next((i for text, i in existing.items() if text.startswith("User lives in")), None)
            if current and "update_memory" in names:
                return _tool_call(
                    "update_memory",
                    memory_id=current,
                    memory=f"User lives in {m.group(1)}",
                    topics=["location"],
                )
            return _tool_call("add_memory", memory=f"User lives in {m.group(1)}", topics=["location"])
        if m := re.search(r"I live in (\w+)", said, re.I):
            return _tool_call("add_memory", memory=f"User lives in {m.group(1)}", topics=["location"])
        if m := re.search(r"I (?:like|love) (\w+)", said, re.I):
            return _tool_call("add_memory", memory=f"User likes {m.group(1)}", topics=["preferences"])
        return ModelResponse(role="assistant", content="no memory changes")


def said_query(messages: list[Message]) -> str:
    user = next((m.get_content_string() for m in reversed(messages) if m.role == "user"), "")
    return user.lower().split()[-1].strip("?.!") if user.split() else ""
