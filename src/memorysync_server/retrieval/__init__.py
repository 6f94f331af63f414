"""Retrieval: one user's facts ranked against a prompt (where a recall is ranked).

One job a module, each depending only on those above it:

- ``arrays``: where ids sit in an array of ids, and each row's best dot product;
- ``index``: one user's vectors in memory and the two-stage scan of large users;
- ``ranking``: scores, thresholds and the ranking of state records;
- ``gate``: recall's per-prompt relevance threshold;
- ``turns``: a kept turn grouped with the facts distilled from it;
- ``fact_cache``: the facts a search decoded, kept until storage announces a change;
- ``beside``: work run on a helper thread while the prompt is encoded;
- ``backfill``: vectors for facts stored without one, embedded after the write answered;
- ``search``: ``FactSearch``, which puts them together per (tenant, user).

Words and stems come from :mod:`memorysync_server.language`, vectors from
:mod:`memorysync_server.model`.
"""

from .backfill import PENDING, Backfill
from .gate import warm_up
from .ranking import STATE_FLOOR, STATE_RELATIVE, cosine_rank
from .search import FactSearch

__all__ = [
    "PENDING",
    "STATE_FLOOR",
    "STATE_RELATIVE",
    "Backfill",
    "FactSearch",
    "cosine_rank",
    "warm_up",
]
