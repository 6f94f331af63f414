"""The server's defaults and the kinds of ``--db``, importable without the app's dependencies.

Each default lives here once: ``serve --help`` shows these values, and tests/test_defaults_documented.py
fails when a page of the docs quotes another one. The CLI's parent process of ``--workers N`` only checks its arguments and supervises; reading
these from here (not from the modules that use them) keeps numpy, the extractor and the app out
of it, so the workers start sooner.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_TENANT = "t_local"
DEFAULT_HOST = "127.0.0.1"  # loopback: a development server is not on the network unless asked
DEFAULT_PORT = 8787
DEFAULT_DB = "./memorysync.db"
DEFAULT_WORKERS = 1
DEFAULT_LOG_LEVEL = "info"
# Room for the largest body openapi.yaml's own limits allow: a 100-turn history append of
# 16,000-character turns with every character JSON-escaped (\uXXXX, 6 bytes: 9.6 MB), plus each
# turn's payload and the metadata at their caps, and some slack.
DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
# Seconds a request body may make no progress before it is answered 408 and its connection closed
# (http/deadline.py). A client on a slow link still sends something every second; one that
# declares a body and stops holds a connection and a file descriptor until then.
DEFAULT_BODY_TIMEOUT = 5.0
SEARCH_MODES = ("semantic", "hybrid", "lexical", "bm25")
"""How a server may rank facts (``serve --search``): sentence vectors, vectors plus BM25, hashed
vectors plus BM25 (no model), or BM25 alone."""
# Sentence vectors plus a bounded BM25 boost: on long chats a rare word the question shares with
# what was said ("adoption agencies", "charity race") finds the turn the vectors rank 6th or 12th
# (LoCoMo dev, evidence hit@5 0.61 -> 0.68); recall's gate still reads the vectors alone.
DEFAULT_SEARCH = "hybrid"
# The recall block's size in characters (per end user): the memories that add the most fill it.
# Five raw turns with their dates take ~750; LoCoMo's evidence turns ~320.
DEFAULT_RECALL_CHARS = 700
ENCODER_SETTINGS = ("auto", "int8", "published")  # --encoder / MEMORYSYNC_SERVER_ENCODER
DEFAULT_ENCODER = "auto"
# GET /metrics: behind any accepted API key (as the inspector's data), open to anyone, or off.
METRICS_MODES = ("key", "open", "off")
DEFAULT_METRICS = "key"
# The folder the processes of serve --workers N keep their metrics in (prometheus-client's name).
METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
LOG_FORMATS = ("text", "json")  # --log-format: uvicorn's lines, or one JSON object a line
DEFAULT_LOG_FORMAT = "text"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(db: str | Path) -> bool:
    return str(db).startswith(POSTGRES_SCHEMES)
