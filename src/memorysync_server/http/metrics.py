"""``GET /metrics``: the server's figures in the Prometheus text format (prometheus-client).

Requests are counted and timed by route template (``/memory/{memory_id}``, never the path a
client sent, so the number of series stays bounded), method and status. The services' own
figures (``Services.figures``: recalls and empty recalls, extraction failures, the write queue,
cache sizes, the encoder) are plain numbers there; they are copied into the metrics when a scrape
arrives, and every second by a background thread when several processes serve.

``serve --workers N``: each worker writes its values to files in ``PROMETHEUS_MULTIPROC_DIR`` (the
CLI sets it up), and a scrape, whichever worker answers it, reads them all: counters and
histograms add up across workers, as do the queue and cache gauges of the workers alive.

``/metrics`` is served with the same key rule as the inspector's data (any key this server accepts,
``--metrics key``, the default), to anyone (``--metrics open``, for a scraper on a private network
that sends no headers), or not at all (``--metrics off``: 404). Its figures name no tenant, user or
text.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from starlette.responses import JSONResponse, Response

from ..defaults import METRICS_DIR_ENV, METRICS_MODES
from ..services import Services
from ..services.figures import Figures
from ..version import version
from .auth import KeyRing
from .errors import ApiError
from .request_checks import refuse_conflicting_identity
from .workers import WorkerPool

# From a 1 ms health check to a recall that waited on a loading model.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REFRESH_SECONDS = 1.0


def multiprocess_dir() -> str | None:
    """Where the processes of ``serve --workers N`` keep their values (None: one process)."""
    return os.environ.get(METRICS_DIR_ENV) or None


class Metrics:
    """The metrics of one server (one process of it, with ``--workers``)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.multiprocess = multiprocess_dir() is not None
        # One registry per app, so that apps built side by side in one process (tests) each count
        # their own; with several processes, values live in files and a scrape reads them all.
        self.registry = None if self.multiprocess else CollectorRegistry()
        registry = self.registry
        self.requests = Counter(
            "memorysync_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ["route", "method", "status"],
            registry=registry,
        )
        self.duration = Histogram(
            "memorysync_http_request_duration_seconds",
            "Time from a request's arrival to the end of its answer, by route template and method.",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.in_progress = Gauge(
            "memorysync_http_requests_in_progress",
            "Requests being answered now.",
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.recalls = Counter(
            "memorysync_recalls", "Recalls (what an agent pastes into its prompt).", registry=registry
        )
        self.empty_recalls = Counter(
            "memorysync_recalls_empty",
            "Recalls that found nothing relevant enough to hand the model "
            "(empty rate: rate(memorysync_recalls_empty_total) / rate(memorysync_recalls_total)).",
            registry=registry,
        )
        self.extraction_failures = Counter(
            "memorysync_extraction_failures",
            "Texts the fact extractor failed on; each was kept verbatim with no facts.",
            registry=registry,
        )
        self.write_queue = Gauge(
            "memorysync_write_queue_depth",
            "Facts written whose vectors are still to be computed in the background.",
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.cache_entries = Gauge(
            "memorysync_cache_entries",
            "Entries held by each in-memory cache: index_users, index_rows (search vectors), facts.",
            ["cache"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.encoder = Gauge(
            "memorysync_encoder_info",
            "1 for the search mode and the model graph that encodes (hashing: no model; loading: not yet).",
            ["search", "encoder", "threads"],
            multiprocess_mode="livemax",
            registry=registry,
        )
        self.build = Gauge(
            "memorysync_build_info",
            "1, labelled with the memorysync-kit release serving.",
            ["version"],
            multiprocess_mode="livemax",
            registry=registry,
        )
        self.build.labels(version()).set(1)
        self._seen = {"recalls": 0, "empty_recalls": 0, "extraction_failures": 0}
        # Bounded: route templates x methods x statuses (observe runs on the event loop only).
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._encoder: tuple[str, str, str] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.multiprocess:
            # This process's live gauges go with it (a worker that exits cleanly).
            atexit.register(mark_process_dead, os.getpid())
            threading.Thread(target=self._refreshing, name="memorysync-metrics", daemon=True).start()

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        """One answered request."""
        key = (route, method, status)
        children = self._children.get(key)
        if children is None:
            # prometheus-client's labels() costs ~10 us a call; the labelled children are kept.
            children = (self.requests.labels(route, method, str(status)), self.duration.labels(route, method))
            self._children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def refresh(self) -> None:
        """Copy the services' figures into the metrics."""
        figures = self.services.figures()
        with self._lock:
            self._count(figures)
            self.write_queue.set(figures.write_queue)
            for cache, entries in figures.caches.items():
                self.cache_entries.labels(cache).set(entries)
            encoder = (figures.search, figures.encoder, str(figures.encoder_threads))
            if encoder != self._encoder:
                if self._encoder is not None:
                    self.encoder.labels(*self._encoder).set(0)
                self.encoder.labels(*encoder).set(1)
                self._encoder = encoder

    def _count(self, figures: Figures) -> None:
        for name, counter in (
            ("recalls", self.recalls),
            ("empty_recalls", self.empty_recalls),
            ("extraction_failures", self.extraction_failures),
        ):
            now = getattr(figures, name)
            if now > self._seen[name]:
                counter.inc(now - self._seen[name])
                self._seen[name] = now

    def _refreshing(self) -> None:
        while not self._stop.wait(REFRESH_SECONDS):
            try:
                self.refresh()
            except Exception:  # a database closing under it at shutdown: the next scrape says more
                continue

    def close(self) -> None:
        self._stop.set()

    def render(self) -> bytes:
        """The text a scrape gets: every process's values when several serve."""
        self.refresh()
        if self.registry is not None:
            return generate_latest(self.registry)
        merged = CollectorRegistry()
        MultiProcessCollector(merged)  # type: ignore[no-untyped-call]
        return generate_latest(merged)


def metrics_off(services: Any, call: object = None) -> tuple[int, Any]:
    """``GET /metrics`` on a server run with ``--metrics off`` (MetricsRoute serves it otherwise)."""
    raise ApiError(404, "Not Found: this server runs with --metrics off, so it serves no /metrics.")


# operationId (openapi.yaml) -> handler, as in routes.ROUTES.
HANDLERS = {"metrics": metrics_off}


class MetricsRoute:
    """ASGI app: ``GET``/``HEAD /metrics`` by ``mode`` (``key``, ``open``, ``off``); every other
    request goes to ``app``."""

    def __init__(
        self, app: Any, metrics: Metrics, keys: KeyRing, workers: WorkerPool, mode: str = "key"
    ) -> None:
        if mode not in METRICS_MODES:
            raise ValueError(f"metrics must be one of {', '.join(METRICS_MODES)}, got {mode!r}.")
        self.app = app
        self.metrics = metrics
        self.keys = keys
        self.workers = workers
        self.mode = mode

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] != "http"
            or scope["path"] != "/metrics"
            or scope["method"] not in ("GET", "HEAD")
            or self.mode == "off"
        ):
            await self.app(scope, receive, send)
            return
        response: Response
        try:
            if self.mode == "key":
                raw = scope["headers"]
                refuse_conflicting_identity(raw)
                key = next((v.decode("latin-1") for k, v in raw if k == b"x-api-key"), None)
                self.keys.authenticate(key)
            body = await self.workers.run(self.metrics.render)
            response = Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
        except ApiError as error:
            response = JSONResponse(error.body(), status_code=error.status, headers=error.headers)
        await response(scope, receive, send)
