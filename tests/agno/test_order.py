"""Order and fidelity: the caller's timestamps are kept, ties read back in the order written (as
agno's own SqliteDb does), and ``search_content`` puts the rows containing the text first."""

from __future__ import annotations

from agno.db.schemas.memory import UserMemory
from agno.memory import MemoryManager

from agno_memorysync import MemorySyncDb

SECOND = 1_800_000_000


def texts(memories):
    return [m.memory for m in memories]


def test_memories_written_in_the_same_second_keep_their_order(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: SECOND)
    manager = MemoryManager(db=db)
    for text in ("a", "b", "c", "d"):
        manager.add_user_memory(UserMemory(memory=text, updated_at=SECOND), user_id="u")

    def search(method, limit):
        return texts(manager.search_user_memories(retrieval_method=method, limit=limit, user_id="u"))

    # What agno's SqliteDb answers for the same four writes within one second.
    assert search("last_n", 2) == ["c", "d"]
    assert search("first_n", 2) == ["a", "b"]
    assert texts(db.get_user_memories(user_id="u")) == ["a", "b", "c", "d"]
    assert texts(db.get_user_memories(user_id="u", sort_by="updated_at", sort_order="asc")) == list("abcd")
    assert texts(db.get_user_memories(user_id="u", sort_by="updated_at", sort_order="desc")) == list("abcd")
    rows, total = db.get_user_memories(
        user_id="u", sort_by="updated_at", sort_order="asc", limit=1, page=1, deserialize=False
    )
    assert total == 4 and rows[0]["memory"] == "a"


def test_tool_written_memories_without_a_time_tie_in_write_order_too(server):
    # agno's memory tools send no updated_at: the db's clock stamps them, one second for all.
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: SECOND)
    for i in range(6):
        db.upsert_user_memory(UserMemory(memory=f"m{i}", memory_id=f"id-{5 - i}", user_id="u"))
    manager = MemoryManager(db=db)
    assert texts(manager.search_user_memories(retrieval_method="last_n", limit=2, user_id="u")) == [
        "m4",
        "m5",
    ]
    assert texts(manager.search_user_memories(retrieval_method="first_n", limit=1, user_id="u")) == ["m0"]


def test_the_callers_updated_at_is_kept(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: SECOND)
    manager = MemoryManager(db=db)
    # written newest first: the times, not the write order, say which is the latest
    manager.add_user_memory(UserMemory(memory="User lives in Bergen", updated_at=SECOND - 10), user_id="u")
    manager.add_user_memory(UserMemory(memory="User lives in Oslo", updated_at=SECOND - 500), user_id="u")
    assert [m.updated_at for m in db.get_user_memories(user_id="u")] == [SECOND - 10, SECOND - 500]
    assert texts(manager.search_user_memories(retrieval_method="last_n", limit=1, user_id="u")) == [
        "User lives in Bergen"
    ]
    assert texts(manager.search_user_memories(retrieval_method="first_n", limit=1, user_id="u")) == [
        "User lives in Oslo"
    ]


def test_a_read_modify_write_of_a_changed_memory_moves_its_time(server):
    ticks = iter(range(SECOND, SECOND + 1000, 100))
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: next(ticks))
    stored = db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="t", user_id="u"))
    stored.memory = "User likes green tea"  # the updated_at it was read with is the old one
    again = db.upsert_user_memory(stored)
    assert again.updated_at > stored.updated_at and again.memory == "User likes green tea"


def test_upsert_memories_follows_preserve_updated_at_like_agnos_backends(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, clock=lambda: SECOND)
    kept = db.upsert_memories(
        [UserMemory(memory="a", memory_id="a", user_id="u", updated_at=5)], preserve_updated_at=True
    )
    now = db.upsert_memories([UserMemory(memory="b", memory_id="b", user_id="u", updated_at=5)])
    assert kept[0].updated_at == 5 and now[0].updated_at == SECOND


def test_search_content_puts_rows_containing_the_text_first(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, min_search_score=0.0)
    for i, text in enumerate(
        [
            "User's dog loves food and treats",  # the best semantic match, without "dog food"
            "Weekly shopping list: bread, milk, eggs, butter, coffee, apples, dog food, rice and pasta",
            "User has a dog named Rex",
            "User walks the dog",
        ]
    ):
        db.upsert_user_memory(UserMemory(memory=text, memory_id=f"k{i}", user_id="u"))
    found = [m.memory_id for m in db.get_user_memories(user_id="u", search_content="dog food")]
    # agno's own backends answer exactly k1; the semantic matches follow, by relevance
    assert found[0] == "k1" and found[1] == "k0" and set(found[2:]) == {"k2", "k3"}
    # a fragment no ranking finds is still a literal match, and comes first
    first, *_ = db.get_user_memories(user_id="u", search_content="pasta")
    assert first.memory_id == "k1"
