"""The storage under the /memory/* routes, on both engines: a database of the previous schema
upgrades with its facts intact, and a fact's revisions and feedback go when the fact goes."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import psycopg
import pytest

from memorysync_server.domain import FactFilter, NewFact
from memorysync_server.model import HashingEmbedder
from memorysync_server.storage import open_storage
from memorysync_server.storage.postgres.schema import MIGRATIONS

from ..conftest import fresh_name

EMBEDDER = HashingEmbedder()


def _fact(text: str, **fields: Any) -> NewFact:
    return NewFact(text, "api", {}, EMBEDDER.embed([text])[0], **fields)


def test_a_postgres_database_of_the_previous_schema_upgrades_with_its_facts(postgres_cluster: Any) -> None:
    name = fresh_name()
    url = postgres_cluster.create_database(name, template="template0")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE schema_migrations (version integer PRIMARY KEY, summary text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            MIGRATIONS[0].apply(conn)
            conn.execute("INSERT INTO schema_migrations (version, summary) VALUES (1, 'v1')")
            conn.execute(
                "INSERT INTO facts (tenant, user_id, text, source, metadata, created_at, vector, terms, length)"
                " VALUES ('t', 'u', 'User lives in Oslo', 'chat', '{}', '2026-01-02T03:04:05Z', %s,"
                " to_tsvector('simple', 'User lives in Oslo'), 4)",
                (EMBEDDER.embed(["User lives in Oslo"])[0].tobytes(),),
            )
        store = open_storage(url)
        try:
            assert store.schema_version() == len(MIGRATIONS)
            [old] = store.facts.page("t", "u", 0, 0)[0]
            assert (old.tags, old.importance, old.event_type) == ([], None, "fact")
            assert old.updated_at == old.created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
            revisions, total = store.facts.revisions("t", "u", old.id, 100, 0)
            assert total == 1 and (revisions[0].revision, revisions[0].event) == (0, "created")
            with store.transaction():
                changed = store.facts.update("t", "u", old.id, {"tags": ["home"]}, actor="api")
            assert changed is not None and changed[1] == ["tags"]
            assert [r.revision for r in store.facts.revisions("t", "u", old.id, 100, 0)[0]] == [0, 1]
        finally:
            store.close()
    finally:
        postgres_cluster.drop_database(name)


def test_revisions_and_feedback_go_with_their_fact(db: Any) -> None:
    store = open_storage(db)
    try:
        [kept, gone] = store.facts.add("t", "u", [_fact("User lives in Oslo"), _fact("User plays cello")])
        with store.transaction():
            store.facts.update("t", "u", gone, {"importance": 0.9}, actor="api")
            store.facts.add_feedback("t", "u", gone, "positive", "nice")
        assert store.facts.index_rows("t", "u", 4).importance == {gone: 0.9}
        assert [f.signal for f in store.facts.feedback("t", "u", gone)] == ["positive"]
        assert store.facts.delete("t", "u", [gone]) == [gone]
        assert store.facts.revisions("t", "u", gone, 100, 0) == ([], 0)
        assert store.facts.feedback("t", "u", gone) == []
        assert store.facts.index_rows("t", "u", 4).importance == {}
        # Another user asking for a fact id sees nothing of it.
        assert store.facts.revisions("t", "other", kept, 100, 0) == ([], 0)
        assert store.facts.update("t", "other", kept, {"tags": ["x"]}, actor="api") is None
        assert store.facts.get("t", "u", [kept])[0].tags == []
    finally:
        store.close()


def test_filters_match_tags_postgres_text_cannot_hold_and_never_cross_users(db: Any) -> None:
    store = open_storage(db)
    odd = "a\ue000b \ue0000"
    try:
        [mine] = store.facts.add(
            "t", "u", [_fact("User lives in Oslo", tags=[odd, "home"], event_type="profile")]
        )
        store.facts.add("t", "v", [_fact("User lives in Oslo", tags=[odd, "home"], event_type="profile")])
        assert store.facts.get("t", "u", [mine])[0].tags == [odd, "home"]
        assert store.facts.select("t", "u", FactFilter(tags=(odd,))) == [mine]
        assert store.facts.select("t", "u", FactFilter(tags=(odd, "home"), event_type="profile")) == [mine]
        assert store.facts.select("t", "u", FactFilter(tags=(odd, "work"))) == []
        assert store.facts.event_types("t") == {"profile"}
        with pytest.raises(ValueError, match="empty filter"):
            store.facts.select("t", "u", FactFilter())
    finally:
        store.close()
