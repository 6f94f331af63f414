"""agno extracts memories on background threads; the db is shared between them."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from agno.db.schemas.memory import UserMemory


def test_parallel_upserts_and_reads_from_threads(db):
    users = ["alice", "bob"]
    errors: list[BaseException] = []
    seen: dict[str, list[set[str]]] = {u: [] for u in users}
    lock = threading.Lock()

    def write(i: int) -> str:
        user = users[i % 2]
        stored = db.upsert_user_memory(
            UserMemory(memory=f"User fact number {i}", memory_id=f"f{i}", user_id=user)
        )
        assert stored is not None and stored.user_id == user
        return stored.memory_id

    def read(i: int) -> None:
        user = users[i % 2]
        found = db.get_user_memories(user_id=user)
        assert all(m.user_id == user for m in found)  # never another user's rows
        with lock:
            seen[user].append({m.memory_id for m in found})

    with ThreadPoolExecutor(max_workers=8, thread_name_prefix="agno-bg") as pool:
        futures = [pool.submit(write, i) for i in range(24)] + [pool.submit(read, i) for i in range(24)]
        for future in futures:
            try:
                future.result(timeout=30)
            except BaseException as exc:  # collect, so one failure does not hide the others
                errors.append(exc)
    assert errors == []
    assert {m.memory_id for m in db.get_user_memories(user_id="alice")} == {f"f{i}" for i in range(0, 24, 2)}
    assert {m.memory_id for m in db.get_user_memories(user_id="bob")} == {f"f{i}" for i in range(1, 24, 2)}
    # every concurrent read saw a subset of that user's own writes, never a torn or foreign row
    for offset, user in enumerate(users):
        own = {f"f{i}" for i in range(offset, 24, 2)}
        assert len(seen[user]) == 12 and all(ids <= own for ids in seen[user])


def test_concurrent_updates_of_one_memory_keep_its_first_created_at(db):
    db.upsert_user_memory(UserMemory(memory="User likes tea", memory_id="tea", user_id="u", created_at=100))

    def update(i: int) -> None:
        db.upsert_user_memory(UserMemory(memory=f"User likes tea, variant {i}", memory_id="tea", user_id="u"))

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(update, range(12)))
    (memory,) = db.get_user_memories(user_id="u")
    assert memory.created_at == 100 and memory.memory.startswith("User likes tea, variant")
