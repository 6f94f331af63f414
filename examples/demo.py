"""`make demo`: one memory service, two frameworks, offline.

Starts the local MemorySync server on a temporary database, then:
  1. AG2 session 1: a person (UserProxyAgent) tells an assistant a few durable facts, with one
     MemorySyncCapability attached to both agents.
  2. AG2 session 2: new agents, a new capability: the assistant's model receives those facts
     before its first reply. We print that context block, the transcript and the facts.
  3. agno: run 1 stores memories through MemorySyncDb; run 2 sees them in its system prompt;
     a `search_content` query ranks them; the AG2 side finds them too.

Only the LLMs are scripted (a tiny AG2 model client and a tiny agno Model); everything else is the
real framework code talking HTTP to the real server.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import tempfile
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar
from urllib.parse import urlsplit

from agno.agent import Agent
from agno.db.sqlite import SqliteDb
from agno.memory import MemoryManager
from agno.models.base import Model
from agno.models.response import ModelResponse
from autogen import ConversableAgent, UserProxyAgent
from memorysync_client.api.memory import list_memories

from ag2_memorysync import MemorySyncCapability
from agno_memorysync import MemorySyncDb
from memorysync_core import Connection, call
from memorysync_server.launcher import LocalServer

PERSON = "maya"
SYSTEM_MESSAGE = "You are a helpful travel assistant."
WIDTH = 92


def section(title: str) -> None:
    print(f"\n{'=' * WIDTH}\n  {title}\n{'=' * WIDTH}")


def show(label: str, text: str) -> None:
    body = textwrap.indent(text.strip("\n") or "(empty)", "    ")
    print(f"\n  {label}\n{body}")


# ---- AG2: a scripted model client (autogen's ModelClient protocol) ---------------------------
class ScriptedModel:
    """Answers from a list, and keeps every message list it was called with."""

    replies: ClassVar[list[str]] = []
    calls: ClassVar[list[list[dict[str, Any]]]] = []

    def __init__(self, config: dict[str, Any], **_: Any) -> None:
        self.model = config["model"]

    def create(self, params: dict[str, Any]) -> SimpleNamespace:
        ScriptedModel.calls.append(params["messages"])
        text = ScriptedModel.replies.pop(0) if ScriptedModel.replies else "TERMINATE"
        message = {"role": "assistant", "content": text}
        return SimpleNamespace(
            choices=[SimpleNamespace(message=message)], model=self.model, message_retrieval_function=None
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
            "model": "scripted",
        }


def ag2_chat(
    session_id: str, person_lines: list[str], model_replies: list[str]
) -> tuple[MemorySyncCapability, list[dict[str, Any]]]:
    """Run one chat; return the capability and every message both agents stored."""
    ScriptedModel.replies, ScriptedModel.calls = list(model_replies), []
    assistant = ConversableAgent(
        "assistant",
        system_message=SYSTEM_MESSAGE,
        llm_config={"config_list": [{"model": "scripted", "model_client_cls": "ScriptedModel"}]},
        human_input_mode="NEVER",
    )
    assistant.register_model_client(model_client_cls=ScriptedModel)
    lines = iter(person_lines[1:])
    person = UserProxyAgent(PERSON, human_input_mode="NEVER", code_execution_config=False)
    person.register_reply(
        [ConversableAgent, None], lambda *a, **k: (True, next(lines, "TERMINATE")), position=2
    )

    memory = MemorySyncCapability(user_id=PERSON, session_id=session_id)  # key + URL from the env
    memory.add_to_agent(person)  # the person's words: human turns, distilled into facts
    memory.add_to_agent(assistant)  # recall before each reply; the assistant's words: ai turns
    person.initiate_chat(assistant, message=person_lines[0], max_turns=len(person_lines), silent=True)
    memory.flush()
    stored = [*assistant.chat_messages[person], *person.chat_messages[assistant]]
    return memory, stored


def print_transcript(memory: MemorySyncCapability) -> None:
    rows = memory.history()
    lines = [f"{r['role']:>9}: {r['content']}" for r in rows]
    show(
        f"Transcript the server holds for ag2::{memory.session_id} ({len(rows)} turns, each once):",
        "\n".join(lines),
    )


def print_facts(title: str) -> None:
    conn = Connection()
    try:
        facts = call(
            list_memories.sync_detailed, client=conn.client, tenant_id=conn.tenant_id(), user_id=PERSON
        )
    finally:
        conn.close()
    lines = [
        f"{m.memory_id:>5}  {m.text}   [{m.source}, from {m.metadata.additional_properties.get('write_origin')}]"
        for m in facts.memories
    ]
    show(f"{title} ({facts.total}):", "\n".join(lines))


def demo_ag2() -> None:
    section("AG2 · session 1: the person mentions durable facts (capability on both agents)")
    first, _ = ag2_chat(
        "onboarding",
        [
            "Hi! I'm vegan, and I moved to Oslo last spring.",
            "I always take the window seat when I fly.",
            "Thanks, that's all for now!",
        ],
        [
            "Welcome! Noted - vegan, and based in Oslo.",
            "Window seat it is.",
            "Have a great day! TERMINATE",
        ],
    )
    print_transcript(first)
    print_facts("Facts distilled from the person's turns (the assistant's turns leave none)")
    print(f"\n  capability stats: {first.stats()}")
    first.close()

    section("AG2 · session 2: new agents, new capability - the model already knows the person")
    second, stored = ag2_chat(
        "trip-planning",
        ["Plan my weekend back in Oslo: a vegan dinner spot and a flight with a good seat, please."],
        ["Done: a vegan bistro by the harbour and a window seat on the Friday flight. TERMINATE"],
    )
    first_call = ScriptedModel.calls[0]
    context = [
        m["content"] for m in first_call if m.get("role") == "system" and "Oslo" in str(m.get("content"))
    ]
    show(
        "What the model received before its first reply (recalled context, a system message):",
        context[0] if context else "",
    )
    print_transcript(second)
    leaked = bool(context) and any(context[0] in str(m.get("content")) for m in stored)
    print(
        f"\n  recalled context stored in either agent's chat history: {leaked}  (the LLM sees it; history does not)"
    )
    second.close()


def demo_ag2_v1() -> None:
    """ag2 1.x: a new-line Agent recalls what the classic agents heard in session 1."""
    import asyncio

    from ag2 import Agent as V1Agent
    from ag2.testing import TestConfig, TrackingConfig

    from ag2_memorysync import MemorySyncMiddleware

    section("ag2 1.x · an ag2.Agent with MemorySyncMiddleware recalls what the classic agent heard")
    model = TrackingConfig(TestConfig("A vegan tasting menu in Oslo and a window seat on Friday's flight."))
    memory = MemorySyncMiddleware(user_id=PERSON, session_id="ag2-v1-trip")
    agent = V1Agent("planner", SYSTEM_MESSAGE, config=model, middleware=[memory], tools=memory.tools())
    reply = asyncio.run(agent.ask("Book me dinner and a flight for Friday, please."))
    show("What the 1.x model received in its system prompt (for this call only):", model.calls[0].prompt[-1])
    show("The agent's reply:", str(reply.body))
    memory.flush()
    print_transcript(memory)
    memory.close()


# ---- agno: a scripted Model -------------------------------------------------------------------
class ScriptedAgnoModel(Model):
    """As the Memory Manager it stores each 'I ...' statement; as the agent it lists its memories."""

    def _reply(self, messages: list[Any], tools: list[dict[str, Any]] | None) -> ModelResponse:
        system = next((m.get_content_string() for m in messages if m.role == "system"), "")
        if messages[-1].role == "tool":
            return ModelResponse(role="assistant", content="Saved.")
        if "You are a Memory Manager" in system:
            said = " ".join(m.get_content_string() for m in messages if m.role == "user")
            calls = [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {
                        "name": "add_memory",
                        "arguments": json.dumps({"memory": f"User {fact}", "topics": [topic]}),
                    },
                }
                for i, (fact, topic) in enumerate(_statements(said))
            ]
            return (
                ModelResponse(role="assistant", tool_calls=calls)
                if calls
                else ModelResponse(role="assistant", content="-")
            )
        block = system.partition("<memories_from_previous_interactions>")[2].partition("</memories")[0]
        known = re.findall(r"- (.*)", block)
        return ModelResponse(role="assistant", content=f"I remember: {'; '.join(known) or 'nothing yet'}.")

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._reply(kwargs["messages"], kwargs.get("tools"))

    async def ainvoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._reply(kwargs["messages"], kwargs.get("tools"))

    def invoke_stream(self, *args: Any, **kwargs: Any):
        yield self.invoke(*args, **kwargs)

    async def ainvoke_stream(self, *args: Any, **kwargs: Any):
        yield self.invoke(*args, **kwargs)

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response


def _statements(said: str) -> list[tuple[str, str]]:
    found = []
    for verb, rest in re.findall(r"\bI (love|am allergic to|prefer) ([^,.!]+)", said):
        verb = {"am allergic to": "is allergic to", "love": "loves", "prefer": "prefers"}[verb]
        found.append((f"{verb} {rest.strip()}", "health" if "allergic" in verb else "preferences"))
    return found


def demo_agno(workdir: Path) -> None:
    section("agno · run 1: MemoryManager stores memories in MemorySync (sessions stay in SqliteDb)")
    model = ScriptedAgnoModel(id="scripted")
    memory_db = MemorySyncDb()  # key + URL from the env
    agent = Agent(
        model=model,
        db=SqliteDb(db_file=str(workdir / "agent.db")),  # sessions: local
        memory_manager=MemoryManager(model=model, db=memory_db),  # memories: MemorySync
        update_memory_on_run=True,
        user_id=PERSON,
        telemetry=False,
    )
    agent.run("I love hiking in the fjords, I prefer aisle-free night trains, and I am allergic to peanuts.")
    stored = memory_db.get_user_memories(user_id=PERSON)
    show("Memories agno stored:", "\n".join(f"{m.memory}   topics={m.topics}" for m in stored))

    section("agno · run 2: the memories are in the system prompt; search_content ranks them")
    reply = agent.run("What do you remember about me?")
    show("The agent's reply (built from <memories_from_previous_interactions>):", str(reply.content))
    ranked = memory_db.get_user_memories(user_id=PERSON, search_content="food allergy nuts", limit=3)
    show(
        "get_user_memories(search_content='food allergy nuts') - best first:",
        "\n".join(f"{i + 1}. {m.memory}" for i, m in enumerate(ranked)),
    )

    section("One memory service, two frameworks: the AG2 capability finds agno's memories")
    with MemorySyncCapability(user_id=PERSON, session_id="lookup") as memory:
        hits = memory.search("peanut allergy", limit=3)
        show(
            "MemorySyncCapability.search('peanut allergy'):",
            "\n".join(f"{h.score:.2f}  {h.text}" for h in hits),
        )
    print_facts("Every fact the server now holds for the person")
    memory_db.close()


def _running_local_server() -> str | None:
    """The base URL of a server on this machine named by MEMORYSYNC_BASE_URL (with a key), if any.

    Only a loopback URL counts, so an environment set up for hosted MemorySync never receives
    the demo's made-up person.
    """
    url = os.environ.get("MEMORYSYNC_BASE_URL", "")
    host = urlsplit(url).hostname or ""
    local = host == "localhost" or host == "::1" or host.startswith("127.")
    return url.rstrip("/") if local and os.environ.get("MEMORYSYNC_API_KEY") else None


def main() -> int:
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("autogen").setLevel(logging.ERROR)
    os.environ.setdefault("AGNO_TELEMETRY", "false")
    running = _running_local_server()
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="memorysync-demo-"))
        if running:
            print(f"Using the MemorySync server at {running} (MEMORYSYNC_BASE_URL); watch it at {running}/")
        else:
            server = stack.enter_context(LocalServer(Path(tmp) / "memorysync.db"))
            os.environ["MEMORYSYNC_BASE_URL"] = server.base_url
            os.environ["MEMORYSYNC_API_KEY"] = server.api_key
            print(
                f"Local MemorySync server on {server.base_url} (temporary database, no network, no real LLM)"
            )
        demo_ag2()
        demo_ag2_v1()
        demo_agno(Path(tmp))
    section("Next steps")
    print(
        textwrap.dedent(
            """
            Point the same code at hosted MemorySync - nothing else changes:
                export MEMORYSYNC_BASE_URL=https://api.memorysync.io
                export MEMORYSYNC_API_KEY=ms_live_...

            Run the local server on its own (it prints a development key and the two exports),
            open its inspector in a browser, and run the demo against it to watch memory fill:
                make serve            # or: memorysync-server serve --port 8787 --db ./memorysync.db
                make demo MEMORYSYNC_BASE_URL=http://127.0.0.1:8787 MEMORYSYNC_API_KEY=<printed key>
            """
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
