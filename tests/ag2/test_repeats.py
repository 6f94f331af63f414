"""The same words said twice are two turns; the same message seen by two attached agents is one."""

from __future__ import annotations

import pytest

from ag2_memorysync import MemorySyncCapability
from ag2_memorysync.turns import TurnLedger
from memorysync_core import turn_seed
from tests.ag2.scripted import assistant, person, sequence
from tests.support.stub_http import Reply, StubHTTP

ARRANGEMENTS = ["assistant", "both-one-capability", "both-two-capabilities"]


def attach(arrangement, make_memory, bot, user, session):
    first = make_memory(session_id=session)
    memories = [first]
    first.add_to_agent(bot)
    if arrangement == "both-one-capability":
        first.add_to_agent(user)
    elif arrangement == "both-two-capabilities":
        memories.append(make_memory(session_id=session))
        memories[1].add_to_agent(user)
    return memories


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_a_sentence_said_twice_is_stored_twice_and_extracted_once(make_memory, stored, uid, arrangement):
    bot, _ = assistant(sequence(["Shall I book a window seat?", "And a vegetarian meal?", "Done."]))
    user = person(["yes please", "I am allergic to peanuts."])
    memories = attach(arrangement, make_memory, bot, user, "twice")

    user.initiate_chat(bot, message="I am allergic to peanuts.", silent=True)
    assert all(memory.flush(5) for memory in memories)

    assert stored.transcript(uid, "twice") == [
        ("user", "I am allergic to peanuts."),
        ("assistant", "Shall I book a window seat?"),
        ("user", "yes please"),
        ("assistant", "And a vegetarian meal?"),
        ("user", "I am allergic to peanuts."),
        ("assistant", "Done."),
    ]
    facts = stored.facts(uid)
    assert len([f for f in facts if "peanut" in f]) == 1, facts
    sightings = 6 if arrangement == "assistant" else 12
    total = {k: sum(m.stats()[k] for m in memories) for k in ("captured", "deduplicated")}
    assert total == {"captured": 6, "deduplicated": sightings - 6}


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
def test_two_chats_of_one_session_that_open_with_the_same_words_are_two_turns(
    make_memory, stored, uid, arrangement
):
    bot, _ = assistant(sequence(["Welcome back!", "Welcome back again!"]))
    user = person([])
    memories = attach(arrangement, make_memory, bot, user, "again")
    user.initiate_chat(bot, message="Hello, it is me, Ana.", silent=True)
    user.initiate_chat(bot, message="Hello, it is me, Ana.", silent=True)  # clears both histories
    assert all(memory.flush(5) for memory in memories)
    assert stored.transcript(uid, "again") == [
        ("user", "Hello, it is me, Ana."),
        ("assistant", "Welcome back!"),
        ("user", "Hello, it is me, Ana."),
        ("assistant", "Welcome back again!"),
    ]


def test_the_ledger_gives_every_sighting_of_one_message_one_key_and_repeats_their_own():
    tokens = iter(["run1", "run2", "run3"])
    ledger = TurnLedger(new_token=lambda: next(tokens))
    seed = turn_seed("human", "ag2::s", "yes please")
    first = ledger.sight("session", 2, seed, observer="bot")
    assert first == f"{seed}#crun1.2"
    assert ledger.sight("session", 2, seed, observer="person") == first, "the other agent's sighting"
    assert ledger.sight("session", 2, seed, observer="bot") == first, "a redelivery"
    assert ledger.sight("session", 4, seed, observer="bot") == f"{seed}#crun1.4", "said again"
    # A new chat: the person's history starts over, so its position goes back; the bot joins.
    assert ledger.sight("session", 0, seed, observer="person") == f"{seed}#crun2.0"
    assert ledger.sight("session", 0, seed, observer="bot") == f"{seed}#crun2.0"
    # With only the bot attached, its own position going back starts the next run.
    assert ledger.sight("session", 2, seed, observer="bot") == f"{seed}#crun2.2"
    assert ledger.sight("session", 0, seed, observer="bot") == f"{seed}#crun3.0"


def test_on_the_wire_the_content_seed_is_the_speaker_and_the_key_adds_the_position():

    answers = {"/v1/history/append": {"items": [], "request_ids": [], "status": "ok"}}
    with StubHTTP(lambda rec: Reply(200, answers.get(rec.path, []))) as stub:
        memory = MemorySyncCapability(
            user_id="u-1", session_id="s", api_key="k", base_url=stub.base_url, tenant_id="t"
        )
        bot, _ = assistant(sequence(["Shall I?", "Done."]))
        memory.add_to_agent(bot)
        person(["yes please"]).initiate_chat(bot, message="yes please", silent=True)
        assert memory.flush(5)
        memory.close()
    turns = [t for rec in stub.requests if rec.path == "/v1/history/append" for t in rec.body["turns"]]
    user_turns = [t for t in turns if t["role"] == "user"]
    seed = turn_seed("human", "ag2::s", "yes please")
    assert [t["speaker"] for t in user_turns] == [seed, seed], "one extraction seed for the same words"
    keys = [t["idempotency_key"] for t in user_turns]
    assert keys[0] != keys[1] and all(k.startswith(seed + "#c") for k in keys)
    assert [k.rsplit(".", 1)[1] for k in keys] == ["0", "2"], "the position in the conversation"
