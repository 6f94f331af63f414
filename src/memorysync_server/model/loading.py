"""The semantic model loads on a background thread, so the server answers its first request
before the model is ready; whatever needs the model waits for it (and only that).

Loading MiniLM (hash check, ONNX Runtime session, probe) takes 0.4 s on an idle machine and
several seconds on a cold or busy one: far longer than everything else ``serve`` does. At the
first start on a machine it also times its two graphs (``encoder_choice``), 1-3 s more.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from .embedders import SEARCH_MODES, Embedder, HashingEmbedder, embedder_for
from .encoder_choice import EncoderChoice, cache_path_for

log = logging.getLogger("memorysync_server")

LOADING, LOADED, FAILED, NOT_USED = "loading", "loaded", "failed", "not used"


class BackgroundEmbedder:
    """An :class:`~memorysync_server.retrieval.Embedder` whose model ``load()`` runs on a thread
    started here (or, with ``start=False``, by :meth:`start`, or by the first ``embed``/``wait``/
    ``settled``). ``dim`` is known before loading ends; ``embed`` waits for the model, and raises
    what loading raised when it failed. ``state`` is ``loading``, ``loaded`` or ``failed``."""

    def __init__(
        self,
        load: Callable[[], Embedder],
        *,
        dim: int,
        name: str = "model",
        then: Callable[[Embedder], object] | None = None,
        start: bool = True,
    ) -> None:
        self.dim = dim
        self.name = name
        self._model: Embedder | None = None
        self._error: BaseException | None = None
        self._loaded = threading.Event()  # embed() may run
        self._done = threading.Event()  # and ``then`` (work that needs the model) has run too
        # Not a daemon: a process that ends while the model loads (a script that starts a
        # LocalServer and returns at once) waits for the load, since ONNX Runtime building a
        # session while the interpreter tears down aborts the process ("terminate called
        # without an active exception", exit status 134) in about half the runs.
        self._thread: threading.Thread | None = threading.Thread(
            target=self._load, args=(load, then), name="memorysync-model-load", daemon=False
        )
        self._start_lock = threading.Lock()
        if start:
            self.start()

    @property
    def started(self) -> bool:
        with self._start_lock:
            return self._thread is None

    def start(self) -> None:
        """Start loading (once; later calls do nothing)."""
        with self._start_lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.start()

    def _load(self, load: Callable[[], Embedder], then: Callable[[Embedder], object] | None) -> None:
        try:
            self._model = load()
            self._loaded.set()
            if then is not None:
                then(self)
        except Exception as error:  # kept for embed() to raise on the request that needs the model
            self._error = error
            log.error("the %s model could not be loaded: %s", self.name, error)
        finally:
            self._loaded.set()
            self._done.set()

    @property
    def state(self) -> str:
        if not self._done.is_set():
            return LOADING
        return FAILED if self._error is not None else LOADED

    @property
    def error(self) -> str | None:
        return None if self._error is None else str(self._error)

    def settled(self, timeout: float | None = None) -> bool:
        """Wait until loading (and the work after it) has ended, well or not; whether it has."""
        self.start()
        return self._done.wait(timeout)

    def wait(self, timeout: float | None = None) -> Embedder:
        """The loaded model (waiting up to ``timeout`` seconds, None: as long as loading takes)."""
        self.start()
        if not self._loaded.wait(timeout):
            raise TimeoutError(f"the {self.name} model is still loading")
        if self._model is None:
            assert self._error is not None
            raise self._error
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.wait().embed(texts)


def serving_embedder(
    mode: str,
    *,
    encoder: str = "auto",
    db: str | Path | None = None,
    defer: bool = False,
    then: Callable[[Embedder], None] | None = None,
) -> Embedder:
    """The embedder a server in search ``mode`` uses: the model of the dense modes loads in the
    background (one load per process, :func:`memorysync_server.model.embedding.minilm`), from now or,
    with ``defer``, from the first call of :func:`start_loading`. ``encoder`` (``auto``,
    ``int8``, ``published``) picks its graph; ``auto`` measures them, and keeps the choice beside
    ``db`` (:func:`~memorysync_server.model.encoder_choice.cache_path_for`). ``then`` runs with the
    loaded model on the loader's thread (recall's gate builds its example vectors there)."""
    if mode not in ("semantic", "hybrid") or mode not in SEARCH_MODES:
        return embedder_for(mode)
    from .embedding import MiniLMEmbedder, minilm

    cache = cache_path_for(db) if db is not None and encoder == "auto" else None
    load = partial(minilm, encoder, cache)
    return BackgroundEmbedder(
        load, dim=MiniLMEmbedder.dim, name=MiniLMEmbedder.name, then=then, start=not defer
    )


def start_loading(embedder: Embedder) -> None:
    """Start a deferred model load (nothing for an embedder without one, or already started)."""
    if isinstance(embedder, BackgroundEmbedder):
        embedder.start()


def encoder_choice(embedder: Embedder) -> EncoderChoice | None:
    """How the loaded model's graph was chosen (None: no model, or not loaded yet)."""
    if isinstance(embedder, BackgroundEmbedder):
        if embedder.state != LOADED:
            return None
        embedder = embedder.wait()
    choice = getattr(embedder, "choice", None)
    return choice if isinstance(choice, EncoderChoice) else None


def model_state(embedder: Embedder) -> tuple[str, str | None]:
    """(state, error) of a server's embedder: ``not used`` for one with no model to load."""
    if isinstance(embedder, BackgroundEmbedder):
        return embedder.state, embedder.error
    return (NOT_USED, None) if isinstance(embedder, HashingEmbedder) else (LOADED, None)
