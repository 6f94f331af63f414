"""Facts are stored before their sentence vectors and embedded after the write answered
(retrieval/backfill.py): what a write stored is still found by the very next recall, survives a restart
without its vector and gets one then, and a backlog being embedded doesn't hold up other reads.

Real servers, real HTTP, both engines. Stopping the background embedder (``backfill.close()``)
is how a test makes sure facts are still pending when it looks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from memorysync_server import LocalServer
from memorysync_server.language.words import searched_text
from memorysync_server.storage import open_storage

from ..api import Api
from ..conftest import new_postgres_database
from ..test_workers import TENANT, Proc

# (what the person says, a question about it that shares few words with it)
STATEMENTS = [
    ("I'm allergic to penicillin.", "Which medicines must the user avoid?"),
    ("I play the cello in an amateur orchestra.", "Does the user make music?"),
    ("My daughter is called Ingrid.", "What is the name of the user's child?"),
    ("I drive an old red Volvo.", "What car does the user have?"),
    ("I'm training for the Berlin marathon.", "Is the user preparing for a race?"),
    ("I work as a night nurse.", "What does the user do for a living?"),
    ("I'm learning Japanese on Duolingo.", "Which language is the user studying?"),
    ("I keep bees in my garden.", "Does the user have any hobbies with insects?"),
]


def _pending(server: LocalServer) -> list[tuple[str, str, int]]:
    return server.app.services.store.facts.unembedded(10_000)


def _settled(server: LocalServer, timeout: float = 60.0) -> None:
    """Wait until no fact is without a vector, in the database and in the process."""
    deadline = time.monotonic() + timeout
    while _pending(server) or server.app.services.backfill.count():
        assert time.monotonic() < deadline, f"still pending: {_pending(server)}"
        time.sleep(0.02)


def _recalled(api: Api, user: str, prompt: str) -> list[str]:
    return [m["text"] for m in api.v1("/v1/memory/recall", user, prompt=prompt)["memories"]]


def _queried(api: Api, user: str, prompt: str, k: int = 3) -> list[str]:
    return [m["text"] for m in api.v1("/v1/memory/query", user, prompt=prompt, k=k)["memories"]]


@pytest.mark.parametrize("worker", ["running", "stopped"])
def test_the_very_next_recall_and_query_find_what_add_turn_stored(
    server: LocalServer, api: Api, worker: str
) -> None:
    # With the worker running the search races it (or waits for its batch); with it stopped the
    # search must embed the pending facts itself.
    if worker == "stopped":
        server.app.services.backfill.close()
    facts = []
    for n, (statement, question) in enumerate(STATEMENTS):
        assert api.turn("u", statement)["processing_status"] == "completed"
        facts.append(api.texts("u")[0])
        route, found = ("recall", _recalled) if n % 2 == 0 else ("query", _queried)
        assert facts[-1] in found(api, "u", question), (route, facts[-1])
    assert not _pending(server)
    # Every fact stays findable once all vectors are in.
    for fact, (_, question) in zip(facts, STATEMENTS, strict=True):
        assert fact in _queried(api, "u", question), fact


def test_history_append_facts_are_found_by_the_next_recall(server: LocalServer, api: Api) -> None:
    server.app.services.backfill.close()
    turns = [
        {"role": "user", "content": s, "idempotency_key": f"k{i}"} for i, (s, _) in enumerate(STATEMENTS)
    ]
    api.v1("/v1/history/append", "u", session_id="s", turns=turns)
    assert len(_pending(server)) == len(STATEMENTS)
    assert "User's daughter is called Ingrid" in _recalled(api, "u", "What is the name of the user's child?")
    assert not _pending(server)  # the search embedded the user's pending facts, all of them


def test_facts_pending_at_a_restart_are_embedded_after_it(db: object) -> None:
    server = LocalServer(db).start()  # type: ignore[arg-type]
    try:
        server.app.services.backfill.close()
        api = Api(server)
        for statement, _ in STATEMENTS:
            api.turn("u", statement)
        api.turn("other", "I grow tomatoes on my balcony.")
        api.close()
        pending = _pending(server)
        assert len(pending) == len(STATEMENTS) + 1
        server.restart()
        # Nobody searches: the new process finds the facts left without a vector and embeds them.
        _settled(server)
        assert server.app.services.backfill.embedded == len(STATEMENTS) + 1
        api = Api(server)
        assert "User grows tomatoes on their balcony" in _recalled(api, "other", "Does the user garden?")
        assert "User drives an old red Volvo" in _queried(api, "u", "What car does the user have?")
        api.close()
    finally:
        server.stop()


def test_a_backlog_is_embedded_while_other_recalls_keep_answering(server: LocalServer, api: Api) -> None:
    api.turn("reader", "I play the cello in an amateur orchestra.")
    errors: list[BaseException] = []
    done = threading.Event()

    def write() -> None:
        writer = Api(server)
        try:
            for batch in range(12):
                turns = [
                    {
                        "role": "user",
                        "content": f"I visited place{batch}x{i} in {2000 + i}",
                        "seq": 25 * batch + i,
                    }
                    for i in range(25)
                ]
                writer.v1("/v1/history/append", "writer", session_id="s", turns=turns)
        except BaseException as error:  # surfaced below
            errors.append(error)
        finally:
            writer.close()
            done.set()

    thread = threading.Thread(target=write)
    thread.start()
    recalls = 0
    while not done.is_set() or recalls < 5:
        assert _recalled(api, "reader", "Does the user make music?") == [
            "User plays the cello in an amateur orchestra"
        ]
        recalls += 1
    thread.join()
    assert not errors
    # The writer's own search right after its writes sees the newest of them.
    newest = "User visited place11x24 in 2024"
    assert _queried(api, "writer", newest, k=1) == [newest]
    _settled(server)
    assert len(api.texts("writer")) == 300
    assert _queried(api, "writer", "User visited place3x7 in 2007", k=1) == ["User visited place3x7 in 2007"]


@pytest.fixture
def team_db(postgres_cluster: Any) -> Iterator[str]:
    name, url = new_postgres_database(postgres_cluster)
    yield url
    postgres_cluster.drop_database(name)


def test_processes_sharing_postgres_find_each_others_pending_facts_even_after_a_kill(team_db: str) -> None:
    def query(proc: Proc, prompt: str) -> list[str]:
        body = {"tenant_id": TENANT, "user_id": "u", "prompt": prompt, "k": 3}
        return [m["text"] for m in proc.post("/v1/memory/query", body)["memories"]]

    def listed(proc: Proc) -> list[str]:
        return [m["text"] for m in proc.http.get(f"/v1/memory/{TENANT}/u/list").json()["memories"]]

    a, b = Proc(team_db), Proc(team_db)
    try:
        for n, (statement, question) in enumerate(STATEMENTS):
            writer, reader = (a, b) if n % 2 == 0 else (b, a)
            writer.post("/v1/memory/add_turn", {"tenant_id": TENANT, "user_id": "u", "text": statement})
            assert listed(reader)[0] in query(reader, question)
        # Killed right after it answered: what it had not embedded yet stays pending in the database.
        a.post("/v1/memory/add_turn", {"tenant_id": TENANT, "user_id": "u", "text": "I keep bees in Oslo."})
        a.kill()
        assert "User keeps bees in Oslo" in query(b, "Where are the user's bees?")
        b.post("/v1/memory/add_turn", {"tenant_id": TENANT, "user_id": "u", "text": "I brew my own cider."})
        b.kill()
        store = open_storage(team_db)
        try:
            c = Proc(team_db)
            try:
                deadline = time.monotonic() + 60
                while store.facts.unembedded(100):
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
                assert query(c, "Does the user make a drink at home?")[0] == "User brews their own cider"
                assert len(listed(c)) == len(STATEMENTS) + 2
            finally:
                c.stop()
        finally:
            store.close()
    finally:
        a.stop()
        b.stop()


def test_writes_embed_their_own_facts_while_the_backlog_is_long(server: LocalServer, api: Api) -> None:
    backfill = server.app.services.backfill
    backfill.close()
    backfill.backlog = 3
    for statement, _ in STATEMENTS[:5]:
        api.turn("u", statement)
    # The first three waited for the background; the next two found it behind and embedded their own.
    assert len(_pending(server)) == 3
    assert "User drives an old red Volvo" in _queried(api, "u", "What car does the user have?")
    assert not _pending(server)


def test_a_stated_change_supersedes_a_fact_still_waiting_for_its_vector(
    server: LocalServer, api: Api
) -> None:
    server.app.services.backfill.close()
    api.turn("u", "I use a cheap Android phone.")
    api.turn("u", "I play the cello.")
    assert len(_pending(server)) == 2
    api.turn("u", "I switched to an iPhone last week.", occurred_at="2026-03-10T12:00:00Z")
    facts = {m["text"]: m for m in api.facts("u")["memories"]}
    assert (
        facts["User uses a cheap Android phone"]["metadata"]["superseded_by"]
        == (facts["User switched to an iPhone in the week before 10 March 2026"]["memory_id"])
    )
    assert "superseded_by" not in facts["User plays the cello"]["metadata"]


def test_a_memory_put_as_a_fact_is_embedded_once_with_its_record(server: LocalServer, api: Api) -> None:
    # agno's memories: the record is embedded as it is stored, and its fact, the same words, takes
    # that vector instead of a second encode in the background.
    server.app.services.backfill.close()
    store = server.app.services.store
    text = "Prefers morning meetings"
    api.put("u", "m1", {"memory": text}, ["memories"], text=text, source="agno", as_fact=True)
    assert not _pending(server)
    [row] = store.state.rows(api.tenant, "u", source="agno", prefix=None, with_vectors=True)
    assert api.texts("u") == [text]
    index = store.facts.index_rows(api.tenant, "u", len(row.vector))
    assert index.matrix.tolist() == [row.vector.tolist()]
    assert text in _queried(api, "u", "When does the user like to meet?")
    # Words the fact does not keep as the record has them (spaces around): embedded on their own.
    api.put(
        "u",
        "m2",
        {"memory": "bees"},
        ["memories"],
        text="  Keeps bees in the garden ",
        source="agno",
        as_fact=True,
    )
    assert len(_pending(server)) == 1


def test_a_pending_fact_is_embedded_with_the_turn_it_was_read_from(server: LocalServer, api: Api) -> None:
    # The background embedder reads what the write would have: the fact after its ``said_in``.
    server.app.services.backfill.close()
    turn = "Just my cat Pickles. She's nine and she tolerates me. My apartment is tiny, though."
    api.turn("u", turn)
    assert _pending(server)
    assert _queried(api, "u", "Does the user's cat Pickles have much room?")
    assert not _pending(server)
    services = server.app.services
    facts = services.store.facts.page(server.tenant_id, "u", 0, 0)[0]
    fact = next(f for f in facts if f.metadata.get("said_in") == turn)
    ids, matrix = services.store.facts.vectors(server.tenant_id, "u")
    stored = matrix[list(ids).index(fact.id)]
    expected = services.pipeline.embedder.embed([searched_text(fact.text, turn)])[0]
    plain = services.pipeline.embedder.embed([searched_text(fact.text)])[0]
    assert float(stored @ expected) > 0.999 and float(stored @ plain) < 0.99
