"""upsert_memories: the changed memories of a batch go to the server in one /v1/state/put_many call
(stored together or not at all), or, where the server has no such route (hosted MemorySync), one
put each, side by side (at most 8 requests in flight); no write at all for a memory that did not
change, and one list request per user with 8+ memories in the batch instead of one get each."""

from __future__ import annotations

import httpx
from agno.db.schemas.memory import UserMemory

from agno_memorysync import AsyncMemorySyncDb, MemorySyncDb


class CountingTransport(httpx.AsyncHTTPTransport):
    """Real sockets; counts requests by path and the most that were in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await super().handle_async_request(request)
        finally:
            self.in_flight -= 1


def batch(n: int, text: str = "User fact") -> list[UserMemory]:
    return [UserMemory(memory=f"{text} {i}", memory_id=f"m{i:02}", user_id="u") for i in range(n)]


def counting_db(server, transport: CountingTransport, **kwargs) -> MemorySyncDb:
    return MemorySyncDb(
        api_key=server.api_key,
        base_url=server.base_url,
        tenant_id=server.tenant_id,
        transport=transport,
        **kwargs,
    )


def test_a_batch_is_one_write_and_skips_unchanged_memories(server, raw):
    transport = CountingTransport()
    db = counting_db(server, transport)
    stored = db.upsert_memories(batch(20))
    assert [m.memory_id for m in stored] == [f"m{i:02}" for i in range(20)]  # the caller's order
    assert transport.paths == ["/v1/state/list", "/v1/state/put_many"]
    assert [m.memory_id for m in db.get_user_memories(user_id="u")] == [f"m{i:02}" for i in range(20)]

    transport.paths.clear()
    again = db.upsert_memories(batch(20))
    assert again == stored
    assert transport.paths == ["/v1/state/list"]  # one read, no write
    transport.paths.clear()
    changed = db.upsert_memories(batch(3, "User changed fact"))  # few: one get each, side by side
    assert [m.memory for m in changed] == [f"User changed fact {i}" for i in range(3)]
    assert transport.paths == ["/v1/state/get"] * 3 + ["/v1/state/put_many"]
    assert len(raw.states("u")) == 20
    # Every memory is a fact for every reader, written in the batch as by one put.
    assert sorted(f["text"] for f in raw.facts("u"))[:3] == [f"User changed fact {i}" for i in range(3)]


def test_more_memories_than_one_call_takes_go_in_calls_of_100(server, raw):
    transport = CountingTransport()
    stored = counting_db(server, transport).upsert_memories(batch(230))
    assert len(stored) == 230 and transport.paths == ["/v1/state/list"] + ["/v1/state/put_many"] * 3
    assert len(raw.states("u")) == 230


def test_long_memories_go_in_calls_whose_texts_stay_under_the_servers_cap(server, raw):
    # 32,000 characters of text a call (openapi.yaml): three of 10,000 fit, the other two follow.
    long = [
        UserMemory(memory=f"{i} " + "User keeps bees. " * 588, memory_id=f"m{i}", user_id="u")
        for i in range(5)
    ]
    transport = CountingTransport()
    stored = counting_db(server, transport).upsert_memories(long)
    assert len(stored) == 5 and transport.paths == ["/v1/state/get"] * 5 + ["/v1/state/put_many"] * 2
    assert len(raw.states("u")) == 5


def test_the_reads_of_a_batch_run_side_by_side(server):
    server.faults.set(delay=0.05, route="/v1/state/get")  # a round trip long enough to overlap
    transport = CountingTransport()
    counting_db(server, transport).upsert_memories(batch(7))  # fewer than 8: one get each
    server.faults.clear()
    assert transport.paths.count("/v1/state/get") == 7
    assert 1 < transport.most_in_flight <= 8


def test_a_server_without_put_many_gets_one_put_per_memory_side_by_side(server, raw):
    # Hosted MemorySync has no /v1/state/put_many: it answers 404, learnt once per db.
    server.faults.set(status=404, route="/v1/state/put_many", detail="Not Found")
    transport = CountingTransport()
    db = counting_db(server, transport)
    stored = db.upsert_memories(batch(12))
    assert [m.memory_id for m in stored] == [f"m{i:02}" for i in range(12)]
    assert transport.paths[:2] == ["/v1/state/list", "/v1/state/put_many"]
    assert sorted(transport.paths[2:]) == ["/v1/state/put"] * 12 and 1 < transport.most_in_flight <= 8
    transport.paths.clear()
    db.upsert_memories(batch(12, "User other fact"))
    assert "/v1/state/put_many" not in transport.paths and transport.paths.count("/v1/state/put") == 12
    server.faults.clear()
    assert len(raw.states("u")) == 12


def test_a_failed_batch_stores_none_of_it_and_says_so_when_writes_must_not_fail_open(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, fail_open_writes=False)
    server.faults.set(status=503, route="/v1/state/put_many", count=1)
    try:
        db.upsert_memories(batch(5))
    except Exception as exc:
        assert getattr(exc, "status_code", None) == 503
    else:
        raise AssertionError("a batch with a failed write returned as if stored")
    assert db.get_user_memories(user_id="u") == []
    db.upsert_memories(batch(5))  # the retry converges: every memory once
    assert sorted(m.memory_id for m in db.get_user_memories(user_id="u")) == [f"m{i:02}" for i in range(5)]


def test_one_failed_put_fails_the_batch_loudly_on_a_server_without_put_many(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, fail_open_writes=False)
    server.faults.set(status=404, route="/v1/state/put_many")
    db.upsert_memories(batch(2, "warm"))  # learns the route is not there
    server.faults.set(status=503, route="/v1/state/put", count=1)
    try:
        db.upsert_memories(batch(5))
    except Exception as exc:  # the one that failed surfaces, after every other one finished
        assert getattr(exc, "status_code", None) == 503
    else:
        raise AssertionError("a batch with a failed write returned as if stored")
    assert sum(m.memory.startswith("User fact") for m in db.get_user_memories(user_id="u")) == 4


async def test_the_async_twin_batches_the_same_way(server):
    transport = CountingTransport()
    db = AsyncMemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id, transport=transport
    )
    stored = await db.upsert_memories(batch(12))
    assert len(stored) == 12 and transport.paths == ["/v1/state/list", "/v1/state/put_many"]
    found = await db.get_user_memories(user_id="u")
    assert [m.memory_id for m in found] == [f"m{i:02}" for i in range(12)]
    transport.paths.clear()
    server.faults.set(delay=0.05, route="/v1/state/get")
    await db.upsert_memories(batch(5, "User changed fact"))  # few: one get each, side by side
    server.faults.clear()
    assert transport.paths == ["/v1/state/get"] * 5 + ["/v1/state/put_many"]
    assert 1 < transport.most_in_flight <= 8
    await db.close()
