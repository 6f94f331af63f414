"""The domain layer: what the server does with memories, turns, history and state.

These services are the only code that touches :class:`~memorysync_server.storage.Storage`; the
HTTP layer (``memorysync_server.http``) parses a request, calls one of them and encodes the
answer. They raise :mod:`.errors` (never an HTTP status) and take and return plain values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..defaults import DEFAULT_RECALL_CHARS
from ..domain import Clock, utc_now
from ..extraction import Extractor, RuleExtractor
from ..language.scripts import indexed_text
from ..model import DEFAULT_SEARCH, Embedder
from ..model.loading import LOADED, NOT_USED, encoder_choice, model_state, serving_embedder
from ..retrieval import Backfill, FactSearch, warm_up
from ..storage import Storage, open_storage
from .directory import Directory
from .feedback import Feedback
from .figures import Figures
from .history import History
from .memories import Memories
from .pipeline import Pipeline
from .recall import Recall
from .state import State
from .supersede import Superseder
from .turns import Turns


@dataclass
class Services:
    store: Storage
    pipeline: Pipeline
    search: FactSearch
    backfill: Backfill | None = None
    # The recall block's size in characters (context.fit).
    recall_chars: int = DEFAULT_RECALL_CHARS
    memories: Memories = field(init=False)
    feedback: Feedback = field(init=False)
    recall: Recall = field(init=False)
    turns: Turns = field(init=False)
    history: History = field(init=False)
    state: State = field(init=False)
    directory: Directory = field(init=False)

    def __post_init__(self) -> None:
        self.memories = Memories(self.store, self.pipeline, self.search)
        self.feedback = Feedback(self.store)
        self.recall = Recall(self.store, self.search)
        self.turns = Turns(self.store, self.pipeline)
        self.history = History(self.store, self.pipeline)
        self.state = State(self.store, self.pipeline, self.search)
        self.directory = Directory(self.store)

    def now(self) -> datetime:
        return self.store.now()

    def figures(self) -> Figures:
        """This process's figures now (``GET /metrics``)."""
        embedder = self.search.embedder
        choice = encoder_choice(embedder)
        if choice is not None:
            encoder, threads = choice.graph, choice.chosen.threads
        else:
            # No model (hashed vectors), one still loading or failed, or one passed in as embedder=.
            state, _ = model_state(embedder)
            named = {NOT_USED: "hashing", LOADED: type(embedder).__name__}
            encoder, threads = named.get(state, state), 0
        return Figures(
            recalls=self.recall.tally.get("recalls"),
            empty_recalls=self.recall.tally.get("empty_recalls"),
            extraction_failures=self.pipeline.extraction_failures,
            write_queue=self.backfill.count() if self.backfill is not None else 0,
            search=self.search.mode,
            encoder=encoder,
            encoder_threads=threads,
            caches=self.search.cache_sizes(),
        )

    def close(self) -> None:
        """Stop the background embedder, then release the database."""
        if self.backfill is not None:
            self.backfill.close()
        self.store.close()


def build_services(
    db: str | Path,
    *,
    clock: Clock = utc_now,
    extractor: Extractor | None = None,
    embedder: Embedder | None = None,
    search: str = DEFAULT_SEARCH,
    encoder: str = "auto",
    defer_model: bool = False,
    recall_chars: int = DEFAULT_RECALL_CHARS,
) -> Services:
    """The services over the database ``db`` (a SQLite file path or a ``postgresql://`` URL).
    ``search`` picks how facts are ranked; ``embedder`` replaces that mode's embedder;
    ``encoder`` which graph of its model runs (``auto``: measured on this machine). The model
    loads in the background, from now or (``defer_model``) from ``model_loading.start_loading``."""
    embedder = embedder or serving_embedder(search, encoder=encoder, db=db, defer=defer_model, then=warm_up)
    store = open_storage(db, clock=clock, lexical_form=indexed_text)
    # The one writer of vectors the store lacks: searches read, the backfill writes.
    backfill = Backfill(store, embedder)
    fact_search = FactSearch(store, embedder, mode=search, backfill=backfill)
    superseder = Superseder(store, fact_search if fact_search.dense else None)
    # Sentence vectors cost milliseconds each: writes store facts without them and the backfill
    # adds them in batches. The hashed vectors of the lexical modes cost microseconds: inline.
    deferred = backfill if fact_search.dense else None
    pipeline = Pipeline(store, extractor or RuleExtractor(), embedder, superseder, deferred)
    fact_search.echoes = pipeline.echoes
    return Services(
        store=store, pipeline=pipeline, search=fact_search, backfill=backfill, recall_chars=recall_chars
    )


__all__ = ["Services", "build_services"]
