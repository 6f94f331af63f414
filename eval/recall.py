"""Recall quality of one search mode, measured end to end through a real LocalServer.

Statements go in through ``/v1/memory/add_turn`` (role ``user``, so the real extraction path
runs), tagged with ``metadata.eval_statement``; every fact extracted from a statement carries
that tag, which is how a returned memory is mapped back to the statement it came from.

Per persona (``user_id`` = persona), in this order:
1. ingest the persona's statements in file order;
2. ask its questions through ``/v1/memory/query`` (hit@1, hit@5, MRR over the top 10) and
   ``/v1/memory/recall`` (does the gated context keep the expected fact);
3. ask every unrelated prompt through ``/v1/memory/recall`` (the context must be empty);
4. ask each update's question: the fact from the newer statement must rank above the fact
   from the older one (both are statements, the old one ingested first).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from eval.server import eval_server
from memorysync_server import LocalServer

QUERY_K = 10
RECALL_K = 5


@dataclass
class EvalData:
    statements: list[dict[str, Any]]
    questions: list[dict[str, Any]]
    unrelated: list[dict[str, Any]]
    updates: list[dict[str, Any]]

    @property
    def personas(self) -> list[str]:
        return list(dict.fromkeys(s["persona"] for s in self.statements))


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_data(directory: Path) -> EvalData:
    data = EvalData(
        statements=_jsonl(directory / "statements.jsonl"),
        questions=_jsonl(directory / "questions.jsonl"),
        unrelated=_jsonl(directory / "unrelated.jsonl"),
        updates=_jsonl(directory / "updates.jsonl"),
    )
    if not data.statements or not data.questions:
        raise SystemExit(
            f"No evaluation data in {directory}: statements.jsonl and questions.jsonl are needed."
        )
    return data


@dataclass
class ModeResult:
    mode: str
    ranks: list[int | None] = field(default_factory=list)  # 1-based rank of the expected fact in query
    recall_kept: list[bool] = field(default_factory=list)
    context_sizes: list[int] = field(default_factory=list)
    unrelated_empty: list[bool] = field(default_factory=list)
    update_query: list[bool] = field(default_factory=list)
    update_recall: list[bool] = field(default_factory=list)
    statements_with_facts: float = 0.0
    query_ms: list[float] = field(default_factory=list)
    recall_ms: list[float] = field(default_factory=list)
    ingest_s: float = 0.0
    misses: list[dict[str, Any]] = field(default_factory=list)
    noisy: list[dict[str, Any]] = field(default_factory=list)

    def metrics(self) -> dict[str, float]:
        n = len(self.ranks) or 1
        return {
            "hit@1": sum(1 for r in self.ranks if r == 1) / n,
            "hit@5": sum(1 for r in self.ranks if r is not None and r <= 5) / n,
            "MRR": sum(1 / r for r in self.ranks if r is not None) / n,
            "recall keeps the right fact": _share(self.recall_kept),
            "facts in a question's recall context (mean)": statistics.mean(self.context_sizes)
            if self.context_sizes
            else float("nan"),
            "unrelated prompts without context": _share(self.unrelated_empty),
            "newer over older (query)": _share(self.update_query),
            "newer over older (recall)": _share(self.update_recall),
            "statements that gave a fact": self.statements_with_facts,
            "query p50 ms": statistics.median(self.query_ms) if self.query_ms else float("nan"),
            "recall p50 ms": statistics.median(self.recall_ms) if self.recall_ms else float("nan"),
        }


def _share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else float("nan")


class _Client:
    def __init__(self, server: LocalServer) -> None:
        self.tenant = server.tenant_id
        self.http = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=60)

    def post(self, path: str, body: dict[str, Any], timings: list[float] | None = None) -> dict[str, Any]:
        started = time.perf_counter()
        response = self.http.post(path, json={"tenant_id": self.tenant, **body})
        if timings is not None:
            timings.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
        return response.json()

    def add(self, user: str, text: str, **tags: str) -> None:
        self.post("/v1/memory/add_turn", {"user_id": user, "text": text, "role": "user", "metadata": tags})

    def close(self) -> None:
        self.http.close()


def _tag(memory: dict[str, Any], key: str) -> Any:
    return (memory.get("metadata") or {}).get(key)


def _first_rank(memories: list[dict[str, Any]], key: str, value: str) -> int | None:
    for rank, memory in enumerate(memories, start=1):
        if _tag(memory, key) == value:
            return rank
    return None


def _newer_first(memories: list[dict[str, Any]], update: dict[str, Any]) -> bool:
    new = _first_rank(memories, "eval_statement", update["new"])
    old = _first_rank(memories, "eval_statement", update["old"])
    return new is not None and (old is None or new < old)


def evaluate_mode(
    mode: str, data: EvalData, workdir: Path, *, server_options: dict[str, Any] | None = None
) -> ModeResult:
    """Runs the whole recall set against a fresh LocalServer started with ``server_options``
    (default ``{"search": mode}``)."""
    result = ModeResult(mode)
    options = server_options if server_options is not None else {"search": mode}
    with eval_server(workdir / f"eval-{mode}.db", **options) as server:
        client = _Client(server)
        try:
            _run(client, data, result)
        finally:
            client.close()
    return result


def _run(client: _Client, data: EvalData, result: ModeResult) -> None:
    by_persona: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for statement in data.statements:
        by_persona[statement["persona"]].append(statement)
    started = time.perf_counter()
    for persona, statements in by_persona.items():
        for statement in statements:
            client.add(persona, statement["text"], eval_statement=statement["id"])
    result.ingest_s = time.perf_counter() - started
    seen: set[str] = set()
    for persona in by_persona:
        # limit 0: every fact of the persona
        listed = client.http.get(f"/v1/memory/{client.tenant}/{persona}/list", params={"limit": 0})
        listed.raise_for_status()
        seen |= {_tag(m, "eval_statement") for m in listed.json()["memories"]}
    result.statements_with_facts = sum(1 for s in data.statements if s["id"] in seen) / len(data.statements)
    texts = {s["id"]: s["text"] for s in data.statements}
    for question in data.questions:
        user = question["persona"]
        found = client.post(
            "/v1/memory/query",
            {"user_id": user, "prompt": question["question"], "k": QUERY_K},
            result.query_ms,
        )["memories"]
        rank = _first_rank(found, "eval_statement", question["expects"])
        result.ranks.append(rank)
        recalled = client.post(
            "/v1/memory/recall",
            {"user_id": user, "prompt": question["question"], "k": RECALL_K},
            result.recall_ms,
        )["memories"]
        kept = _first_rank(recalled, "eval_statement", question["expects"]) is not None
        result.context_sizes.append(len(recalled))
        result.recall_kept.append(kept)
        if rank is None or rank > 1 or not kept:
            result.misses.append(
                {
                    "persona": user,
                    "question": question["question"],
                    "expects": texts.get(question["expects"]),
                    "rank": rank,
                    "recall_kept": kept,
                    "top": [(m["text"], m["score"]) for m in found[:3]],
                }
            )
    for persona in by_persona:
        for prompt in data.unrelated:
            recalled = client.post(
                "/v1/memory/recall", {"user_id": persona, "prompt": prompt["prompt"], "k": RECALL_K}
            )
            empty = recalled["context"] == ""
            result.unrelated_empty.append(empty)
            if not empty:
                result.noisy.append(
                    {
                        "persona": persona,
                        "prompt": prompt["prompt"],
                        "got": [(m["text"], m["score"]) for m in recalled["memories"]],
                    }
                )
    for update in data.updates:
        user = update["persona"]
        found = client.post("/v1/memory/query", {"user_id": user, "prompt": update["question"], "k": QUERY_K})
        result.update_query.append(_newer_first(found["memories"], update))
        recalled = client.post(
            "/v1/memory/recall", {"user_id": user, "prompt": update["question"], "k": RECALL_K}
        )
        result.update_recall.append(_newer_first(recalled["memories"], update))


def evaluate(
    modes: list[str], data: EvalData, *, options: dict[str, dict[str, Any]] | None = None
) -> dict[str, ModeResult]:
    with tempfile.TemporaryDirectory(prefix="memorysync-eval-") as tmp:
        return {
            mode: evaluate_mode(mode, data, Path(tmp), server_options=(options or {}).get(mode))
            for mode in modes
        }
