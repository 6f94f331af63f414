"""Which MiniLM graph, at how many ONNX Runtime threads, encodes on this machine: measured, not assumed.

The int8-compute graph halves the encode time where the CPU has 8-bit dot-product instructions
(AVX-512 VNNI, AVX-VNNI) and is *slower* than the published graph where it has AVX2 alone (11.4 vs
9.0 ms a query on a 2-core EPYC without VNNI, issue 26). So the server times the candidates on a
few probe texts at load and keeps the fastest whose vectors agree with the published graph's;
the answer is cached per machine (:class:`ChoiceCache`) so a restart skips the timing.

This module holds the parts that need no model: the candidates, the timing loop (its clock and
the encoders are passed in), the rule that picks, the cache and its key. ``embedding.MiniLMEmbedder``
loads the graphs and calls them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import platform
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("memorysync_server")

INT8, PUBLISHED = "int8-compute", "published"
FORCED_GRAPH = {"int8": INT8, "published": PUBLISHED}
# 2: a query is timed as the one text a recall encodes (version 1 timed two readings side by side).
CACHE_VERSION = 2
CACHE_ENTRIES = 8  # machines remembered by one cache file (a database moved between hosts)
# A setting with more than one thread takes cores from the requests running beside it (two
# intra-op threads cost add_turn 45% of its throughput, docs/search.md): it must answer a
# query this much faster than the same graph on one thread to be worth that.
MORE_THREADS_MARGIN = 0.8
# Batches (writes, embedded after their answer) may be this much slower than the published
# graph's: on a machine where the two graphs batch alike (2-core AVX-512 VNNI at load 5: 3.72 vs
# 3.83 ms a text at best, 7.2 vs 8.3 at the median) a few probe runs land either way, and a
# strict rule would drop a graph 1.5x faster at queries on a coin toss. Where the int8 graph is
# really slower (AVX2 alone: 9.84 vs 6.09 ms a text, 11.4 vs 9.0 ms a query) both rules refuse it.
BATCH_TOLERANCE = 1.1

# What a recall encodes: one text, the prompt's third-person reading (retrieval.search).
PROBE_QUERY = ("Where does the user's sister live these days?",)
# What a write encodes: stored facts, in a batch (the backfill embeds up to 32 at a time; 8
# keeps the probing short and costs per text about what 16 do).
PROBE_BATCH = (
    "User is lactose intolerant and avoids cheese.",
    "User supports Arsenal and watches every home game.",
    "User is training for a private pilot's licence.",
    "User's wife is a surgeon at the city hospital.",
    "User lives in Bergen with two teenage children.",
    "User has a golden retriever called Biscuit.",
    "User doesn't drink alcohol.",
    "User works night shifts three times a week.",
)

Encode = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True, order=True)
class Candidate:
    graph: str  # INT8 or PUBLISHED
    threads: int  # ONNX Runtime intra-op threads

    def __str__(self) -> str:
        return f"{self.graph} graph, {self.threads} thread{'s' if self.threads > 1 else ''}"


BASELINE = Candidate(PUBLISHED, 1)  # what the server ran before it measured: never slower than this


@dataclass(frozen=True)
class Timing:
    """The fastest of the probe rounds, in milliseconds."""

    query_ms: float  # the one text a recall encodes
    batch_ms_per_text: float  # a batch of 8 facts, per fact


Measure = Callable[[Mapping[Candidate, Encode]], Mapping[Candidate, Timing]]


@dataclass(frozen=True)
class EncoderChoice:
    """What runs and why. ``chosen_by``: ``measured`` (timed at this load), ``cached`` (timed at an
    earlier load on this machine), ``forced`` (``--encoder``), or ``fallback`` (only the published
    graph could run). ``timings`` hold every candidate timed, ``note`` why a candidate was left out."""

    chosen: Candidate
    chosen_by: str
    timings: Mapping[Candidate, Timing] = field(default_factory=dict)
    note: str = ""
    cache: str | None = None

    @property
    def graph(self) -> str:
        return self.chosen.graph

    def summary(self) -> str:
        """One line for the log, the ``serve`` banner and ``/ready``."""
        text = f"{self.chosen} ({self.chosen_by}"
        text += (
            f" on this machine, kept in {self.cache})" if self.chosen_by == "cached" and self.cache else ")"
        )
        mine, base = self.timings.get(self.chosen), self.timings.get(BASELINE)
        if mine is not None:
            text += (
                f": {mine.query_ms:.2f} ms a query, {mine.batch_ms_per_text:.2f} ms a text in batches of 8"
            )
            if base is not None and self.chosen != BASELINE:
                text += f"; published graph {base.query_ms:.2f} / {base.batch_ms_per_text:.2f} ms"
        return text + (f"; {self.note}" if self.note else "")

    def as_dict(self) -> dict[str, Any]:
        """The ``encoder`` object of ``GET /ready`` (openapi.yaml ``EncoderChoice``)."""
        return {
            "graph": self.chosen.graph,
            "threads": self.chosen.threads,
            "chosen_by": self.chosen_by,
            "summary": self.summary(),
            "timings": [
                {
                    "graph": c.graph,
                    "threads": c.threads,
                    "query_ms": round(t.query_ms, 3),
                    "batch_ms_per_text": round(t.batch_ms_per_text, 3),
                }
                for c, t in sorted(self.timings.items())
            ],
        }


def usable_cpus() -> int:
    """The cores this process may run on (a container's or taskset's share, not the host's)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


def thread_settings(cpus: int | None = None) -> tuple[int, ...]:
    """The intra-op thread counts worth timing: one, and half the cores (up to 4): while a
    recall's prompt is encoded, the request's own reads (and other requests) run on the other
    half. Two cores give one setting: two threads took the core those reads need, and won the
    timing only on runs that happened to find the machine idle (once in five at load 7, with a 2x
    faster query than the other four runs measured)."""
    cpus = cpus if cpus is not None else usable_cpus()
    many = min(cpus // 2, 4)  # beyond 4 threads a 6-layer model's small matrices stop scaling
    return (1,) if many <= 1 else (1, many)


def choose(timings: Mapping[Candidate, Timing]) -> Candidate:
    """The rule: the published graph on one thread (:data:`BASELINE`) unless a candidate encodes a
    query no slower than it and a batch no more than :data:`BATCH_TOLERANCE` slower; among those,
    the fastest query (recall is what a user waits for; writes are embedded after their answer).
    A candidate with more threads must also beat its graph on one thread by
    :data:`MORE_THREADS_MARGIN`. Only candidates whose vectors agree are timed, so disagreeing
    ones never reach this rule."""
    base = timings.get(BASELINE)
    if base is None:
        return min(timings, key=lambda c: timings[c].query_ms) if timings else BASELINE
    eligible = [
        c
        for c, t in timings.items()
        if t.query_ms <= base.query_ms and t.batch_ms_per_text <= BATCH_TOLERANCE * base.batch_ms_per_text
    ]
    for c in list(eligible):
        single = timings.get(Candidate(c.graph, 1))
        if (
            c.threads > 1
            and single is not None
            and timings[c].query_ms > MORE_THREADS_MARGIN * single.query_ms
        ):
            eligible.remove(c)
    # Ties go to the baseline, then to fewer threads: a change must earn its place.
    return min(eligible, key=lambda c: (timings[c].query_ms, c != BASELINE, c.threads))


def time_candidates(
    encoders: Mapping[Candidate, Encode],
    *,
    rounds: int = 4,
    queries_per_round: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[Candidate, Timing]:
    """Time each encoder on the probe texts: ``rounds`` rounds, each running every candidate in
    turn (so a burst of load from elsewhere hits all of them, not one), each round
    ``queries_per_round`` queries and one batch of 8. Each candidate's fastest run counts: other
    processes can only add time to a run, so the fastest is the steadiest estimate of what the
    graph costs (medians of so few runs on a busy machine flip between loads). About 1 s in all for
    two candidates on an idle 2-core machine, 2-3 s at load 7; it runs on the model's loading thread."""
    queries: dict[Candidate, list[float]] = {c: [] for c in encoders}
    batches: dict[Candidate, list[float]] = {c: [] for c in encoders}
    for encode in encoders.values():  # warm-up: first runs allocate ONNX Runtime's buffers
        encode(list(PROBE_QUERY))
    for _ in range(rounds):
        for candidate, encode in encoders.items():
            for _ in range(queries_per_round):
                start = clock()
                encode(list(PROBE_QUERY))
                queries[candidate].append(clock() - start)
            start = clock()
            encode(list(PROBE_BATCH))
            batches[candidate].append(clock() - start)
    return {c: Timing(min(queries[c]) * 1000, min(batches[c]) * 1000 / len(PROBE_BATCH)) for c in encoders}


def _cpu_description() -> str:
    """The CPU's model and instruction-set flags (what decides which graph is faster)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"{platform.machine()} {platform.processor()}"
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "flags", "Features", "CPU part") and key not in found:
            found[key] = " ".join(sorted(value.split())) if key in ("flags", "Features") else value.strip()
    return f"{platform.machine()} " + " | ".join(f"{k}={v}" for k, v in sorted(found.items()))


def machine_key(runtime_version: str, graph_sha256s: Sequence[str], candidates: Sequence[Candidate]) -> str:
    """What a measurement depends on: the CPU and its flags, the core count, the ONNX Runtime
    release, the graph files and the candidates timed. Any change and the cache does not apply."""
    parts = [
        f"v{CACHE_VERSION}",
        _cpu_description(),
        f"cpus={usable_cpus()}",
        f"onnxruntime={runtime_version}",
        *sorted(graph_sha256s),
        *(f"{c.graph}:{c.threads}" for c in sorted(candidates)),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def cache_path_for(db: str | Path, *, environ: Mapping[str, str] | None = None) -> Path:
    """Where the choice is kept for a server over ``db``: beside a SQLite file
    (``memorysync.db.encoder.json``; it moves with the database, and a container keeps it on the
    database's volume). A PostgreSQL database lives on another host, often shared by several
    servers on different machines, so the choice (which is about the machine the server runs on)
    goes in this user's cache folder: ``$XDG_CACHE_HOME/memorysync/encoder.json``, by default
    ``~/.cache/memorysync/encoder.json``; every ``--workers`` process on the machine reads it."""
    from ..defaults import is_postgres

    if not is_postgres(db):
        path = Path(db)
        return path.with_name(path.name + ".encoder.json")
    env = os.environ if environ is None else environ
    base = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "memorysync" / "encoder.json"


class ChoiceCache:
    """A JSON file of choices keyed by :func:`machine_key`. A file that is missing, unreadable,
    of another version or damaged reads as empty (the server measures again and rewrites it); a
    folder that cannot be written leaves the choice unsaved, with one log line saying why."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _entries(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.info("measuring the encoder again: %s is unreadable (%s)", self.path, error)
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def get(self, key: str) -> tuple[Candidate, dict[Candidate, Timing], str] | None:
        """The candidate chosen on this machine, the timings and the note, or None."""
        entry = self._entries().get(key)
        if not isinstance(entry, dict):
            return None
        try:
            chosen = Candidate(str(entry["graph"]), int(entry["threads"]))
            timings = {
                Candidate(str(t["graph"]), int(t["threads"])): Timing(
                    float(t["query_ms"]), float(t["batch_ms_per_text"])
                )
                for t in entry["timings"]
            }
        except (TypeError, KeyError, ValueError):
            return None  # an entry someone edited into another shape
        if chosen.graph not in (INT8, PUBLISHED) or chosen.threads < 1 or chosen not in timings:
            return None
        return chosen, timings, str(entry.get("note", ""))

    def put(self, key: str, choice: EncoderChoice) -> None:
        entries = self._entries()
        entries.pop(key, None)
        entries[key] = {
            **choice.as_dict(),
            "note": choice.note,
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        entries = dict(list(entries.items())[-CACHE_ENTRIES:])
        text = json.dumps({"version": CACHE_VERSION, "entries": entries}, indent=1)
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Written whole then renamed: a server starting beside this one never reads half a file.
            fd, tmp = tempfile.mkstemp(prefix=self.path.name, suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, self.path)
        except OSError as error:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            log.info("the encoder choice is not kept (%s): the next start measures again", error)
