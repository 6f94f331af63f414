"""Reads: every get_user_memories parameter, the other reads, and user scoping."""

from __future__ import annotations

import pytest
from agno.db.schemas.memory import UserMemory

from agno_memorysync import MemorySyncDb

ROWS = [
    # memory, id, topics, agent, team, updated_at
    ("User likes green tea", "m1", ["food", "drinks"], "chef", None, 1_700_000_040),
    ("User lives in Oslo", "m2", ["location"], "travel", "ops", 1_700_000_010),
    ("User has a dog named Rex", "m3", ["pets"], "chef", "ops", 1_700_000_030),
    ("User works as a nurse at the hospital", "m4", ["work"], "travel", None, 1_700_000_020),
    ("User is allergic to peanuts", "m5", ["food", "health"], "chef", "ops", 1_700_000_050),
]


@pytest.fixture
def seeded(db):
    db.upsert_memories(
        [
            UserMemory(
                memory=m, memory_id=i, topics=t, agent_id=a, team_id=team, user_id="alice", updated_at=u
            )
            for m, i, t, a, team, u in ROWS
        ],
        preserve_updated_at=True,
    )
    db.upsert_user_memory(UserMemory(memory="User likes green tea too", memory_id="b1", user_id="bob"))
    return db


def ids(memories):
    return [m.memory_id for m in memories]


def test_filters_are_anded(seeded):
    assert set(ids(seeded.get_user_memories(user_id="alice", agent_id="chef"))) == {"m1", "m3", "m5"}
    assert set(ids(seeded.get_user_memories(user_id="alice", agent_id="chef", team_id="ops"))) == {"m3", "m5"}
    assert set(ids(seeded.get_user_memories(user_id="alice", topics=["food"]))) == {"m1", "m5"}
    assert ids(seeded.get_user_memories(user_id="alice", topics=["food", "health"])) == ["m5"]
    assert seeded.get_user_memories(user_id="alice", agent_id="nobody") == []


def test_sort_limit_and_one_based_pages(seeded):
    newest = seeded.get_user_memories(user_id="alice", sort_by="updated_at", sort_order="desc")
    assert ids(newest) == ["m5", "m1", "m3", "m4", "m2"]
    assert ids(seeded.get_user_memories(user_id="alice", sort_by="updated_at", sort_order="asc")) == [
        "m2",
        "m4",
        "m3",
        "m1",
        "m5",
    ]
    assert ids(seeded.get_user_memories(user_id="alice", sort_by="memory", sort_order="asc", limit=2)) == [
        "m3",
        "m5",
    ]
    page2 = seeded.get_user_memories(user_id="alice", sort_by="updated_at", limit=2, page=2)
    assert ids(page2) == ["m3", "m4"]
    assert ids(seeded.get_user_memories(user_id="alice", sort_by="updated_at", limit=2, page=3)) == ["m2"]
    assert seeded.get_user_memories(user_id="alice", limit=2, page=4) == []


def test_deserialize_false_returns_rows_and_the_total_before_paging(seeded):
    rows, total = seeded.get_user_memories(
        user_id="alice", topics=["food"], limit=1, page=1, deserialize=False
    )
    assert total == 2 and len(rows) == 1 and isinstance(rows[0], dict)
    assert set(rows[0]) >= {"memory_id", "memory", "topics", "user_id", "updated_at", "agent_id", "team_id"}
    assert isinstance(rows[0]["updated_at"], int)


def test_search_content_of_three_plus_characters_is_a_ranked_server_search(seeded):
    # Neither query is a substring of any memory: only a real search finds the nurse.
    # Semantic search also returns loosely related memories ("lives in Oslo" for "where"), ranked lower.
    assert (
        ids(seeded.get_user_memories(user_id="alice", search_content="where does the user work"))[0] == "m4"
    )
    assert ids(seeded.get_user_memories(user_id="alice", search_content="hospitals"))[0] == "m4"
    found = seeded.get_user_memories(user_id="alice", search_content="peanut allergy")
    assert ids(found)[0] == "m5"
    # filters still apply on top of the search, and scoping: bob's tea is never returned
    assert ids(seeded.get_user_memories(user_id="alice", search_content="green tea", agent_id="travel")) == []
    assert ids(seeded.get_user_memories(user_id="alice", search_content="green tea")) == ["m1"]
    assert seeded.get_user_memories(user_id="alice", search_content="xyzzy quux") == []
    rows, total = seeded.get_user_memories(user_id="alice", search_content="dog", deserialize=False)
    assert total == 1 and rows[0]["memory_id"] == "m3"


def test_short_search_content_is_a_case_insensitive_substring(seeded):
    assert ids(seeded.get_user_memories(user_id="alice", search_content="OSL"))[0] == "m2"  # a fragment
    assert set(ids(seeded.get_user_memories(user_id="alice", search_content="OS"))) == {
        "m2",
        "m4",
    }  # hOSpital
    assert set(ids(seeded.get_user_memories(user_id="alice", search_content="RE"))) == {"m1", "m3"}


def test_get_user_memory_topics_and_stats(seeded):
    assert seeded.get_user_memory("m2", user_id="alice").memory == "User lives in Oslo"
    assert seeded.get_user_memory("m2", user_id="bob") is None  # never across users
    assert seeded.get_user_memory("missing", user_id="alice") is None
    assert seeded.get_user_memory("m2", user_id="alice", deserialize=False)["memory_id"] == "m2"
    assert seeded.get_all_memory_topics(user_id="alice") == [
        "drinks",
        "food",
        "health",
        "location",
        "pets",
        "work",
    ]
    stats, total = seeded.get_user_memory_stats(user_id="alice")
    assert total == 1 and stats == [
        {"user_id": "alice", "total_memories": 5, "last_memory_updated_at": 1_700_000_050}
    ]
    assert seeded.get_user_memory_stats(user_id="nobody") == ([], 0)


def test_user_id_none_means_the_default_user_never_everyone(server, seeded):
    assert seeded.get_user_memories() == []  # alice and bob exist, "default" has nothing
    assert seeded.get_user_memory_stats() == ([], 0)
    assert seeded.get_all_memory_topics() == []
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, default_user_id="alice")
    assert len(db.get_user_memories()) == 5
    assert db.get_user_memory_stats()[0][0]["user_id"] == "alice"
    stored = db.upsert_user_memory(UserMemory(memory="User likes jazz"))
    assert stored.user_id == "alice"


def test_records_that_are_not_agno_memories_are_skipped(seeded, raw):
    raw.put("alice", "junk", {"something": "else"})
    raw.put("alice", "bad-time", {"memory": "User likes tea", "created_at": "yesterday"})
    assert len(seeded.get_user_memories(user_id="alice")) == 5
    assert seeded.get_user_memory("bad-time", user_id="alice") is None


def test_search_results_are_ordered_by_relevance_not_recency(db):
    for i, text in enumerate(
        ["User has a dog named Rex", "User walks a dog for the neighbour", "User likes cats"]
    ):
        db.upsert_user_memory(UserMemory(memory=text, memory_id=f"k{i}", user_id="carol"))
    assert ids(db.get_user_memories(user_id="carol")) == ["k0", "k1", "k2"]  # unsorted: as written
    assert ids(db.get_user_memories(user_id="carol", search_content="dog named Rex"))[0] == "k0"
    assert ids(db.get_user_memories(user_id="carol", search_content="neighbour's dog"))[0] == "k1"
    # an explicit sort_by still wins over relevance, as the caller asked for it
    assert ids(db.get_user_memories(user_id="carol", search_content="dog named Rex", sort_by="memory")) == [
        "k1",
        "k0",
    ]
