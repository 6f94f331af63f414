"""The write path on its own: same idempotency keys on retry, the circuit breaker, flush and close."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ag2_memorysync import RetryPolicy, WriteOptions
from ag2_memorysync.activity import RecallActivity
from ag2_memorysync.backend import PendingTurn
from ag2_memorysync.stats import Stats
from ag2_memorysync.writer import TurnWriter
from memorysync_core import LoopThread, MemorySyncError
from tests.ag2.scripted import assistant, person, sequence


def turn(i: int) -> PendingTurn:
    return PendingTurn(role="user", content=f"turn {i}", scope="ag2::s", dedup_key=f"d{i}", seq=i)


def test_retries_resend_the_same_turns_with_the_same_keys_then_succeed():
    attempts: list[list[str]] = []

    async def send(batch: list[PendingTurn]) -> str:
        attempts.append([t.idempotency_key for t in batch])
        if len(attempts) <= 2:
            raise MemorySyncError("append_history: HTTP 503: down", status_code=503)
        return "ok"

    lost: list[PendingTurn] = []
    stats = Stats()
    loop = LoopThread("writer-test")
    try:
        writer = TurnWriter(
            send,
            loop,
            max_pending=10,
            policy=RetryPolicy(backoff_base=0.01, backoff_max=0.02),
            stats=stats,
            on_lost=lost.extend,
        )
        assert writer.enqueue(turn(1)) and writer.enqueue(turn(2))
        assert writer.flush(5)
        assert writer.close(1)
    finally:
        loop.stop()
    # The first batch failed twice and went out a third time unchanged: same turns, same keys.
    assert attempts[0] == attempts[1] == attempts[2]
    assert sorted({k for a in attempts for k in a}) == sorted(
        [turn(1).idempotency_key, turn(2).idempotency_key]
    )
    counts = stats.snapshot()
    assert counts["retried"] >= 2 and counts["failed"] == 0 and not lost


def test_a_4xx_is_not_retried_and_the_turn_is_released_for_a_later_sighting():
    async def send(batch: list[PendingTurn]) -> str:
        raise MemorySyncError("append_history: HTTP 422: bad", status_code=422)

    lost: list[PendingTurn] = []
    stats = Stats()
    loop = LoopThread("writer-test")
    try:
        writer = TurnWriter(
            send, loop, max_pending=10, policy=RetryPolicy(), stats=stats, on_lost=lost.extend
        )
        writer.enqueue(turn(1))
        assert writer.flush(5)
        writer.close(1)
    finally:
        loop.stop()
    assert stats.snapshot()["retried"] == 0 and stats.snapshot()["failed"] == 1
    assert [t.dedup_key for t in lost] == ["d1"]


def test_the_circuit_breaker_stops_hammering_a_failing_server(make_memory, server):
    policy = RetryPolicy(backoff_base=0.01, backoff_max=0.02, breaker_threshold=3, breaker_cooldown=30)
    memory = make_memory(session_id="breaker", writes=WriteOptions(retry=policy))
    assert memory.flush(2)
    server.faults.set(status=503, route="/v1/history/append")
    bot, _ = assistant(sequence(["Noted, thanks."]))
    memory.add_to_agent(bot)
    person([]).initiate_chat(bot, message="I collect vintage cameras.", silent=True)
    time.sleep(1.0)  # without the breaker: ~50 attempts in this second
    assert server.faults.hits == 3
    assert memory.stats()["queued"] == 2
    assert not memory.close(timeout=0.2), "still failing at close: the turns are lost"
    assert memory.stats()["failed"] == 2, "counted, never silently lost"
    assert 4 <= server.faults.hits <= 5, "close made one last attempt per batch, without waiting"
    server.faults.clear()


@dataclass
class _BesideARecall:
    """A writer on its own loop beside a recall that ``begin``/``end`` start and finish; ``sent``
    says, for each batch sent, whether a recall was in flight then."""

    writer: TurnWriter
    begin: Callable[[], None]
    end: Callable[[], None]
    sent: list[bool]


@contextmanager
def _beside_a_recall(yield_to_recall: float) -> Iterator[_BesideARecall]:
    recalling = [False]
    sent: list[bool] = []

    async def send(batch: list[PendingTurn]) -> str:
        sent.append(recalling[0])
        return "ok"

    async def begin() -> None:
        activity.begin()
        recalling[0] = True

    async def end() -> None:
        recalling[0] = False
        activity.end()

    activity = RecallActivity()
    loop = LoopThread("writer-test")
    try:
        writer = TurnWriter(
            send,
            loop,
            max_pending=10,
            policy=RetryPolicy(linger=0, yield_to_recall=yield_to_recall),
            stats=Stats(),
            on_lost=lambda lost: None,
            recalls=activity,
        )
        yield _BesideARecall(writer, lambda: loop.run(begin(), 1), lambda: loop.run(end(), 1), sent)
    finally:
        loop.stop()


def test_a_write_waits_for_the_recall_in_flight_and_goes_out_when_it_ends():
    """A write sent alongside a recall slows the recall the reply waits for: it waits its turn."""
    with _beside_a_recall(yield_to_recall=30) as it:
        it.begin()
        assert it.writer.enqueue(turn(1))
        assert not it.writer.flush(0.5), "held while the recall is in flight"
        assert it.sent == []
        it.end()
        assert it.writer.flush(5), "sent in the pause after the recall"
        assert it.sent == [False]
        assert it.writer.close(1)


def test_recalls_without_a_pause_hold_a_write_no_longer_than_yield_to_recall():
    with _beside_a_recall(yield_to_recall=0.2) as it:
        it.begin()
        assert it.writer.enqueue(turn(1))
        assert it.writer.flush(5), "a recall that never ends does not hold writes for longer than the bound"
        assert it.sent == [True]
        it.end()
        assert it.writer.close(1)
