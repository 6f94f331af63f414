"""Extraction precision and recall over eval/data/extraction.jsonl, through the real HTTP path.

Each labelled statement goes to ``POST /v1/memory/add_turn`` (role ``user``) for a user of its
own, then ``GET /v1/memory/{tenant}/{user}/list`` reads back what the server stored. Stored facts
are compared with the labels after :func:`normalise`; an item's facts are matched one to one, so
a fact extracted twice counts once as a hit and once as an extra.

``python eval/extraction.py [--split dev|test] [--set statements|chat]`` starts a LocalServer on a temporary database and
prints the figures and every mismatch. ``eval/run.py`` imports :func:`extraction_scores`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import uuid
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx

from memorysync_server.extraction import resolve

DATA = Path(__file__).resolve().parent / "data" / "extraction.jsonl"
# Chat turns as people type them (fronted phrases, "we", vocatives, pleasantries, photo captions).
CHAT = Path(__file__).resolve().parent / "data" / "extraction_chat.jsonl"
SETS = {"statements": DATA, "chat": CHAT}

# Contractions are spelled out on both sides, so "User doesn't eat pork" and "User does not eat
# pork" are the same fact. Only unambiguous ones: "'s" stays (possessive or "is"), except after
# pronouns where it can only mean "is"; "'d" is read as "would".
_NOT = {"can't": "cannot", "won't": "will not", "shan't": "shall not", "ain't": "is not"}
_CONTRACTIONS = (
    (re.compile(r"\b(can|won|shan|ain)'t\b"), lambda m: _NOT[m.group(0)]),
    (re.compile(r"\b([a-z]+)n't\b"), lambda m: m.group(1) + " not"),
    (re.compile(r"\bcan not\b"), lambda m: "cannot"),
    (re.compile(r"\b(dont|doesnt|didnt|cant|wont|isnt|arent|wasnt)\b"), None),
    (re.compile(r"\b(it|that|he|she|there|what)'s\b"), lambda m: m.group(1) + " is"),
    (re.compile(r"\b([a-z]+)'re\b"), lambda m: m.group(1) + " are"),
    (re.compile(r"\b([a-z]+)'ve\b"), lambda m: m.group(1) + " have"),
    (re.compile(r"\b([a-z]+)'ll\b"), lambda m: m.group(1) + " will"),
    (re.compile(r"\b([a-z]+)'d\b"), lambda m: m.group(1) + " would"),
    (re.compile(r"\bi'm\b"), lambda m: "i am"),
)
_APOSTROPHE_FREE = {
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "cant": "cannot",
    "wont": "will not",
    "isnt": "is not",
    "arent": "are not",
    "wasnt": "was not",
}


def normalise(fact: str) -> str:
    """The form facts are compared in: everything but grammar and wording is forgiven.

    Case, runs of whitespace, curly apostrophes, trailing punctuation, a leading "The user"
    (read as "User") and contractions ("doesn't" = "does not", "can't" = "cannot") don't count.
    Every other word must be exactly right: "User brokes their ankle" does not match "User broke
    their ankle".
    """
    text = fact.replace("\u2019", "'").replace("\u2018", "'").lower()
    text = " ".join(text.split())
    text = text.rstrip(" .!;,:")
    text = re.sub(r"^the user\b", "user", text)
    for pattern, repl in _CONTRACTIONS:
        if repl is None:
            text = pattern.sub(lambda m: _APOSTROPHE_FREE[m.group(0)], text)
        else:
            text = pattern.sub(repl, text)
    return text


def load_items(split: str | None = None, path: Path = DATA) -> list[dict[str, Any]]:
    """The labelled items, optionally only the ``dev`` or ``test`` split."""
    if split not in (None, "dev", "test"):
        raise ValueError(f"split must be 'dev', 'test' or None, not {split!r}")
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [item for item in items if split is None or item["split"] == split]


def _match(expected: list[str], got: list[str]) -> tuple[list[str], list[str], int]:
    """(missing labels, extra facts, matched count) under one-to-one normalised matching."""
    left = Counter(normalise(f) for f in expected)
    missing, extra, matched = [], [], 0
    for fact in got:
        key = normalise(fact)
        if left[key] > 0:
            left[key] -= 1
            matched += 1
        else:
            extra.append(fact)
    for fact in expected:
        key = normalise(fact)
        if left[key] > 0:
            left[key] -= 1
            missing.append(fact)
    return missing, extra, matched


def _ratio(num: int, den: int) -> float:
    # Nothing to find or nothing claimed is perfect, not undefined: an all-"none" slice that
    # extracts nothing has precision 1.0.
    return num / den if den else 1.0


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    expected = sum(len(r["expected"]) for r in rows)
    extracted = sum(len(r["got"]) for r in rows)
    matched = sum(r["matched"] for r in rows)
    return {
        "items": len(rows),
        "expected": expected,
        "extracted": extracted,
        "matched": matched,
        "precision": _ratio(matched, extracted),
        "recall": _ratio(matched, expected),
        "exact_items": sum(1 for r in rows if not r["missing"] and not r["extra"]),
    }


def score_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures for rows of ``{"text", "kind", "split", "expected", "got"}``, overall and per kind."""
    scored = []
    for row in rows:
        missing, extra, matched = _match(row["expected"], row["got"])
        scored.append({**row, "missing": missing, "extra": extra, "matched": matched})
    by_kind = {
        kind: _figures([r for r in scored if r["kind"] == kind])
        for kind in sorted({r["kind"] for r in scored})
    }
    return {
        **_figures(scored),
        "by_kind": by_kind,
        "mismatches": [
            {k: r[k] for k in ("text", "kind", "split", "expected", "got", "missing", "extra")}
            for r in scored
            if r["missing"] or r["extra"]
        ],
    }


# Every labelled statement is sent as said at this moment, so its dated facts are reproducible.
SAID_AT = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


def extraction_scores(
    base_url: str,
    api_key: str,
    tenant: str = "default",
    split: str | None = None,
    *,
    path: Path = DATA,
    transport: httpx.BaseTransport | None = None,
) -> dict[str, Any]:
    """Send every item (of ``split``) through add_turn and score what the server stored.

    Returns ``precision``, ``recall``, counts (``items``, ``expected``, ``extracted``,
    ``matched``, ``exact_items``), ``by_kind`` (the same figures per kind) and ``mismatches``
    (each with ``expected``, ``got``, ``missing`` and ``extra``). Every item gets a fresh user,
    so nothing stored earlier (or deduplicated across items) can leak into its result.
    """
    run = uuid.uuid4().hex[:8]
    rows = []
    with httpx.Client(
        base_url=base_url, headers={"X-API-Key": api_key}, timeout=30, transport=transport
    ) as client:
        for n, item in enumerate(load_items(split, path)):
            user = f"eval-extract-{run}-{n}"
            turn = {
                "tenant_id": tenant,
                "user_id": user,
                "text": item["text"],
                "role": "user",
                "occurred_at": SAID_AT.isoformat(),
            }
            client.post("/v1/memory/add_turn", json=turn).raise_for_status()
            listed = client.get(f"/v1/memory/{tenant}/{user}/list", params={"limit": 100})
            listed.raise_for_status()
            # Stored order is newest first on some engines; the label order carries no meaning.
            got = [m["text"] for m in listed.json()["memories"]]
            rows.append(
                {
                    "text": item["text"],
                    "kind": item["kind"],
                    "split": item["split"],
                    # The labels keep "yesterday"; the pipeline dates it from when it was said.
                    "expected": [resolve(fact, SAID_AT) for fact in item["facts"]],
                    "got": got,
                }
            )
    return score_rows(rows)


def format_scores(title: str, scores: dict[str, Any]) -> str:
    lines = [
        f"{title}: precision {scores['precision']:.3f}  recall {scores['recall']:.3f}  "
        f"(items {scores['items']}, exact {scores['exact_items']}, labels {scores['expected']}, "
        f"extracted {scores['extracted']}, matched {scores['matched']})",
        f"  {'kind':<18} {'items':>5} {'prec':>6} {'recall':>6} {'exact':>6}",
    ]
    for kind, f in scores["by_kind"].items():
        lines.append(
            f"  {kind:<18} {f['items']:>5} {f['precision']:>6.3f} {f['recall']:>6.3f} {f['exact_items']:>6}"
        )
    return "\n".join(lines)


def format_mismatches(scores: dict[str, Any]) -> str:
    lines = []
    for m in scores["mismatches"]:
        lines.append(f"- [{m['split']}/{m['kind']}] {m['text']!r}")
        for fact in m["missing"]:
            lines.append(f"    missing: {fact}")
        for fact in m["extra"]:
            lines.append(f"    extra:   {fact}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--split", choices=["dev", "test"], help="only this split (default: both, reported apart)"
    )
    parser.add_argument("--set", choices=sorted(SETS), default="statements", help="which labelled set")
    parser.add_argument("--no-mismatches", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)

    if str(Path(__file__).resolve().parent.parent) not in sys.path:  # run as a script: eval.* importable
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from eval.server import eval_server

    splits = [args.split] if args.split else ["dev", "test"]
    with tempfile.TemporaryDirectory() as tmp, eval_server(Path(tmp) / "extraction.db") as server:
        for split in splits:
            scores = extraction_scores(
                server.base_url, server.api_key, server.tenant_id, split, path=SETS[args.set]
            )
            print(format_scores(f"extraction {args.set} {split}", scores))
            if not args.no_mismatches and scores["mismatches"]:
                print(f"mismatches ({len(scores['mismatches'])}):")
                print(format_mismatches(scores))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
