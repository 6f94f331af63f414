"""One memory across frameworks: what an agno agent remembers is a fact for every reader (the AG2
capability's search and recall, the v1 list, the SDK's export), whatever its wording, with
agno's memory id and topics; deleting it in agno removes it everywhere. Real agno and AG2 agents
on one real local server; only the models are scripted."""

from __future__ import annotations

import uuid

import httpx
import pytest
from agno.db.schemas.memory import UserMemory
from agno.db.sqlite import SqliteDb

from ag2_memorysync import DEFAULT_CONTEXT_TEMPLATE, MemorySyncCapability
from tests.ag2.scripted import assistant, person, sequence

from .conftest import memory_agent
from .scripted import ScriptedModel

HEADER = DEFAULT_CONTEXT_TEMPLATE.split("{context}")[0].strip()
# Wordings the server's first-person extractor finds nothing in: before, they never crossed over.
WORDINGS = {
    "Customer prefers teal dashboards": "Which colour should the dashboards be?",
    "Prefers morning meetings": "When should we schedule the meetings?",
}


def _export(server, user: str) -> list[str]:
    answer = httpx.get(
        f"{server.base_url}/memory/export",
        headers={"X-API-Key": server.api_key, "X-End-User-ID": user},
        timeout=10,
    )
    answer.raise_for_status()
    return [m["text"] for m in answer.json()["memories"]]


def test_agno_memories_are_facts_for_ag2_the_list_and_the_export(server, db, raw, tmp_path):
    pytest.importorskip("autogen", reason="the agno-only matrix cell has no AG2; make test runs this")
    user = f"customer-{uuid.uuid4().hex[:8]}"
    # A real agno run: its memory manager (scripted model) adds "User likes tea".
    agent = memory_agent(ScriptedModel(), SqliteDb(db_file=str(tmp_path / "agent.db")), db, user_id=user)
    assert agent.run("Hi! I like tea.").status.value == "COMPLETED"
    for text in WORDINGS:
        db.upsert_user_memory(UserMemory(memory=text, topics=["work", "preferences"], user_id=user))
    by_text = {m.memory: m for m in db.get_user_memories(user_id=user)}
    assert set(by_text) == {"User likes tea", *WORDINGS}

    memory = MemorySyncCapability(user_id=user, api_key=server.api_key, base_url=server.base_url)
    try:
        for text, question in WORDINGS.items():
            hits = memory.search(question)
            assert hits and hits[0].text == text, (question, [h.text for h in hits])
            assert hits[0].metadata["agno_memory_id"] == by_text[text].memory_id
            assert hits[0].metadata["topics"] == "work, preferences"
        listed = {f["text"] for f in raw.facts(user)}
        assert listed == {"User likes tea", *WORDINGS}
        assert set(_export(server, user)) == listed

        # A real AG2 chat for the same person gets the agno memory in its model's block.
        bot, model = assistant(sequence(["Booked for 9am."]))
        memory.add_to_agent(bot)
        person([]).initiate_chat(bot, message="When should we schedule the meetings?", silent=True)
        block = [
            m["content"] for m in model.calls[0] if m.get("role") == "system" and HEADER in str(m["content"])
        ]
        assert block and "Prefers morning meetings" in block[0]

        # Changed in agno: the fact follows, no stale copy.
        teal = by_text["Customer prefers teal dashboards"]
        teal.memory = "Customer prefers dark green dashboards"
        db.upsert_user_memory(teal)
        texts = {f["text"] for f in raw.facts(user)}
        assert (
            "Customer prefers dark green dashboards" in texts
            and "Customer prefers teal dashboards" not in texts
        )

        # Deleted in agno: gone for every reader.
        db.delete_user_memory(by_text["Prefers morning meetings"].memory_id, user_id=user)
        assert "Prefers morning meetings" not in {h.text for h in memory.search("When should we meet?")}
        assert "Prefers morning meetings" not in {f["text"] for f in raw.facts(user)}
        assert "Prefers morning meetings" not in _export(server, user)
    finally:
        memory.close(timeout=1)


def test_ag2_facts_are_agno_memories_readable_changeable_and_deletable(server, db, raw, tmp_path):
    pytest.importorskip("autogen", reason="the agno-only matrix cell has no AG2; make test runs this")
    user = f"customer-{uuid.uuid4().hex[:8]}"
    memory = MemorySyncCapability(user_id=user, api_key=server.api_key, base_url=server.base_url)
    try:
        # A real AG2 chat: the server extracts the person's facts from their turns.
        bot, _ = assistant(sequence(["Noted!", "Good to know."]))
        memory.add_to_agent(bot)
        person(["I'm allergic to shellfish."]).initiate_chat(
            bot, message="I work as a nurse in Bergen.", silent=True
        )
        assert memory.flush(5)
        facts = {f["text"] for f in raw.facts(user)}
        assert facts == {"User works as a nurse in Bergen", "User is allergic to shellfish"}

        # agno reads them as its memories, with their fact ids, and finds them by search.
        found = {m.memory: m for m in db.get_user_memories(user_id=user)}
        assert set(found) == facts
        nurse = found["User works as a nurse in Bergen"]
        assert nurse.memory_id.startswith("m_") and nurse.user_id == user
        assert db.get_user_memory(nurse.memory_id, user_id=user).memory == nurse.memory
        searched = db.get_user_memories(user_id=user, search_content="Which job does the user have?")
        assert searched and searched[0].memory == "User works as a nurse in Bergen"
        # ...and a real agno agent for the person has them in its system prompt.
        agent = memory_agent(ScriptedModel(), SqliteDb(db_file=str(tmp_path / "a.db")), db, user_id=user)
        answer = agent.run("What do you know about me?")
        assert "nurse in Bergen" in str(answer.content) and "shellfish" in str(answer.content)

        # Changed in agno: it becomes agno's memory (and its fact), the old fact goes.
        nurse.memory = "User works as a nurse in Oslo"
        db.upsert_user_memory(nurse)
        assert {f["text"] for f in raw.facts(user)} == {
            "User works as a nurse in Oslo",
            "User is allergic to shellfish",
        }
        assert sorted(m.memory for m in db.get_user_memories(user_id=user)) == [
            "User is allergic to shellfish",
            "User works as a nurse in Oslo",
        ]
        # Deleted in agno: gone for AG2 and the list.
        db.delete_user_memory(found["User is allergic to shellfish"].memory_id, user_id=user)
        assert "User is allergic to shellfish" not in {
            h.text for h in memory.search("What is the user allergic to?")
        }
        assert [m.memory for m in db.get_user_memories(user_id=user)] == ["User works as a nurse in Oslo"]
    finally:
        memory.close(timeout=1)


def test_forgetting_a_user_in_agno_forgets_the_facts_it_shows_too(server, db, raw):
    user = f"customer-{uuid.uuid4().hex[:8]}"
    memory = MemorySyncCapability(user_id=user, api_key=server.api_key, base_url=server.base_url)
    try:
        memory.save("I am allergic to peanuts.")
        db.upsert_user_memory(UserMemory(memory="Prefers window seats", user_id=user))
        assert len(db.get_user_memories(user_id=user)) == 2
        assert db.forget_user_memories(user) == 2
        assert db.get_user_memories(user_id=user) == [] and raw.facts(user) == []
    finally:
        memory.close(timeout=1)
