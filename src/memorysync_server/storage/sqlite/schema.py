"""The SQLite schema as migration steps; the version lives in ``PRAGMA user_version``.

Steps 1-3 are the schema every earlier release wrote, kept as they were so that any existing
file upgrades; new steps are only ever appended.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from ..migrations import Migration, statements
from ..rows import ns_path


def scope_token(tenant: str, user_id: str) -> str:
    # FTS5 filters by an indexed token, so a user's search never touches other users' postings.
    return "s" + hashlib.blake2b(f"{tenant}\0{user_id}".encode(), digest_size=12).hexdigest()


def lexical_table(tenant: str) -> str:
    """The name of a tenant's own full-text table (a hash: tenant ids are arbitrary text)."""
    return "lex_" + hashlib.blake2b(tenant.encode(), digest_size=10).hexdigest()


def create_lexical_table(conn: sqlite3.Connection, tenant: str) -> str:
    """One FTS5 table (and its vocabulary) per tenant, so term statistics — the document
    counts search uses and bm25's IDF — are counted over that tenant's facts only."""
    name = lexical_table(tenant)
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5 (scope, text, tokenize = 'unicode61 remove_diacritics 0')"
    )
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name}_vocab USING fts5vocab ({name}, 'row')")
    conn.execute("INSERT OR IGNORE INTO lexical_tables (tenant, name) VALUES (?, ?)", (tenant, name))
    return name


_V1 = statements(
    """CREATE TABLE facts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL,
        metadata TEXT NOT NULL,
        created_at TEXT NOT NULL,
        origin_kind TEXT,
        origin_id INTEGER,
        vector BLOB NOT NULL
    )""",
    "CREATE INDEX facts_scope ON facts (tenant, user_id, id)",
    "CREATE INDEX facts_origin ON facts (tenant, user_id, origin_kind, origin_id)",
    "CREATE INDEX facts_text ON facts (tenant, user_id, text)",
    "CREATE VIRTUAL TABLE facts_fts USING fts5 (scope, text, tokenize = 'porter unicode61')",
    "CREATE TABLE row_ids (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL)",
    """CREATE TABLE history (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        source TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        seq INTEGER,
        occurred_at TEXT,
        payload TEXT,
        idem_key TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX history_session ON history (tenant, user_id, session_id, idem_key)",
    """CREATE TABLE state (
        id INTEGER PRIMARY KEY,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        source TEXT NOT NULL,
        namespace TEXT NOT NULL,
        ns_path TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        text TEXT NOT NULL,
        indexed INTEGER NOT NULL,
        vector BLOB,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant, user_id, source, ns_path, key)
    )""",
    """CREATE TABLE receipts (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, digest)
    )""",
    """CREATE TABLE client_refs (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        ref TEXT NOT NULL,
        memory_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id, ref)
    )""",
)


def _v2_exact_word_index(conn: sqlite3.Connection) -> None:
    """Index exact words (no porter stems), with a vocabulary whose per-term document counts
    let search skip terms too common to matter."""
    conn.execute("DROP TABLE facts_fts")
    conn.execute(
        "CREATE VIRTUAL TABLE facts_fts USING fts5 (scope, text, tokenize = 'unicode61 remove_diacritics 0')"
    )
    conn.execute("CREATE VIRTUAL TABLE facts_vocab USING fts5vocab (facts_fts, 'row')")
    rows = conn.execute("SELECT id, tenant, user_id, text FROM facts").fetchall()
    conn.executemany(
        "INSERT INTO facts_fts (rowid, scope, text) VALUES (?, ?, ?)",
        ((row[0], scope_token(row[1], row[2]), row[3]) for row in rows),
    )


def _v3_escaped_namespace_paths(conn: sqlite3.Connection) -> None:
    """Recompute every ``ns_path`` with escaped segments (version 2 joined them unescaped)."""
    rows = conn.execute("SELECT id, namespace FROM state").fetchall()
    conn.executemany(
        "UPDATE state SET ns_path = ? WHERE id = ?", ((ns_path(json.loads(row[1])), row[0]) for row in rows)
    )


def _v4_per_tenant_lexical_index(conn: sqlite3.Connection) -> None:
    """Move the shared full-text table to one per tenant (statistics no longer mix tenants),
    and add named server settings."""
    conn.execute("CREATE TABLE lexical_tables (tenant TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    conn.execute(
        "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)"
    )
    tenants = [row[0] for row in conn.execute("SELECT DISTINCT tenant FROM facts").fetchall()]
    for tenant in tenants:
        name = create_lexical_table(conn, tenant)
        rows = conn.execute("SELECT id, user_id, text FROM facts WHERE tenant = ?", (tenant,)).fetchall()
        conn.executemany(
            f"INSERT INTO {name} (rowid, scope, text) VALUES (?, ?, ?)",
            ((row[0], scope_token(tenant, row[1]), row[2]) for row in rows),
        )
    conn.execute("DROP TABLE facts_vocab")
    conn.execute("DROP TABLE facts_fts")


_V5 = statements(
    "ALTER TABLE facts ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE facts ADD COLUMN importance REAL",
    "ALTER TABLE facts ADD COLUMN event_type TEXT NOT NULL DEFAULT 'fact'",
    "CREATE INDEX facts_event_type ON facts (tenant, event_type)",
    "ALTER TABLE facts ADD COLUMN updated_at TEXT",
    "UPDATE facts SET updated_at = created_at",
    """CREATE TABLE fact_revisions (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        fact_id INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        event TEXT NOT NULL,
        changed_fields TEXT NOT NULL,
        diff TEXT NOT NULL,
        actor TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (fact_id, revision)
    )""",
    # Facts an older release wrote have no "created" revision: it is synthesised when read.
    """CREATE TABLE fact_feedback (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        fact_id INTEGER NOT NULL,
        signal TEXT NOT NULL,
        comment TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX fact_feedback_fact ON fact_feedback (fact_id, id)",
)


MIGRATIONS: tuple[Migration[sqlite3.Connection], ...] = (
    Migration(1, "facts (+ full-text), history, state, replay and client_ref receipts", _V1),
    Migration(2, "full-text on exact words with a vocabulary", _v2_exact_word_index),
    Migration(3, "escaped namespace paths", _v3_escaped_namespace_paths),
    Migration(4, "one full-text table per tenant; server settings", _v4_per_tenant_lexical_index),
    Migration(5, "facts: tags, importance, event type, updated_at; fact revisions and feedback", _V5),
)
