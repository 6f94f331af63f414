"""A recall's reads that need no vector run on helper threads while the request's thread encodes
the prompt (retrieval/beside.py): work runs on a helper when one is free, on the request's own
thread when none is, and the answer is the same."""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from memorysync_server import LocalServer
from memorysync_server.retrieval.beside import Beside

from ..api import Api


class CountingExecutor(ThreadPoolExecutor):
    """A real one-thread pool that counts the work handed to it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="test-beside")
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_work_runs_on_the_helper_when_it_is_free_and_here_when_it_is_busy() -> None:
    with ThreadPoolExecutor(max_workers=1) as executor:
        beside = Beside(executor)
        assert beside.start(threading.get_ident).result() != threading.get_ident()
        release = threading.Event()
        busy = beside.start(lambda: release.wait(10))
        # Queued behind the busy helper: runs on the asking thread instead of waiting.
        assert beside.start(threading.get_ident).result() == threading.get_ident()
        release.set()
        assert busy.result() is True
    assert Beside(None).start(threading.get_ident).result() == threading.get_ident()


def test_a_dropped_piece_that_never_started_never_runs() -> None:
    ran: list[str] = []
    with ThreadPoolExecutor(max_workers=1) as executor:
        beside = Beside(executor)
        release = threading.Event()
        beside.start(lambda: release.wait(10))
        beside.start(lambda: ran.append("dropped")).drop()
        release.set()
    assert ran == []


def test_a_value_is_computed_once_however_often_it_is_asked_for() -> None:
    calls: list[int] = []
    later = Beside(None).start(lambda: calls.append(1) or len(calls))
    assert (later.result(), later.result(), calls) == (1, 1, [1])


def test_recall_reads_beside_its_encode_and_answers_as_inline(server: LocalServer, api: Api) -> None:
    search = server.app.services.search
    assert search.dense  # the default search encodes prompts with the model
    for text in ("I live in Oslo.", "My sister is a pilot.", "I play the cello in an orchestra."):
        api.turn("u", text)
    prompt = "I'm visiting my sister this weekend, she just got back from a long flight. What should we do?"
    api.turn("u", prompt)  # as the adapters do: the person's message is captured, then recalled for
    executor = CountingExecutor()
    try:
        search.beside = Beside(executor)
        threaded = api.v1("/v1/memory/recall", "u", prompt=prompt)
        assert executor.submitted == 1  # the lexical stage and what the prompt stored, as one piece
        search.beside = Beside(None)
        inline = api.v1("/v1/memory/recall", "u", prompt=prompt)
    finally:
        executor.shutdown()
    texts = [m["text"] for m in threaded["memories"]]
    assert "User's sister is a pilot" in texts
    # The fact the prompt itself gave when captured is left out (looked up meanwhile).
    assert not any("visiting" in text for text in texts), texts
    assert threaded == inline
