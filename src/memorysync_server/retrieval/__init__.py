"""Retrieval: one user's facts ranked against a prompt (where a recall is ranked).

One job a module, each depending only on those above it:

- ``arrays``: where ids sit in an array of ids, and each row's best dot product;
- ``index``: one user's vectors in memory and the two-stage scan of large users;
- ``ranking``: scores, thresholds and the ranking of state records;
- ``gate``: recall's per-prompt relevance threshold, and the cut it makes;
- ``turns``: a kept turn grouped with the facts distilled from it;
- ``fact_cache``: the facts a search decoded, kept until storage announces a change;
- ``beside``: work run on a helper thread while the prompt is encoded;
- ``backfill``: vectors for facts stored without one (or with another embedder's), embedded
  after the write answered: the only writer of vectors;
- ``index_cache``: each searched user's index, read in one statement and kept current by writes;
- ``said``: what the prompt itself stored (recall leaves it out);
- ``candidates``: a search's first stage, the rows scored against the prompt;
- ``grouping``: its second, one memory per turn, decoded only when returned;
- ``nearest``: the fact most like a new one (supersede's check inside a write);
- ``search``: ``FactSearch``, which puts the stages together per (tenant, user).

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
