"""``make eval``: every search mode side by side on the recall set, extraction quality, memory in
seven languages (eval/languages.py), and the conversation benchmark (eval/conversations.py: long
multi-session chats).

Prints one markdown table (rows = metrics, columns = search modes) and writes it, with the
misses of each mode, to ``eval/out/``. ``python eval/run.py --modes semantic`` runs a subset;
``--data DIR`` reads another copy of the data files. Every server runs one MiniLM graph,
``MEMORYSYNC_EVAL_ENCODER`` (default ``published``; eval/server.py says why).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from eval.recall import EvalData, ModeResult, evaluate, load_data  # noqa: E402
from eval.server import ENCODER, eval_server  # noqa: E402
from memorysync_server.model import DEFAULT_SEARCH, SEARCH_MODES  # noqa: E402

OUT = HERE / "out"
# Percentages in the table; the rest are plain figures.
SHARES = (
    "hit@1",
    "hit@5",
    "recall keeps the right fact",
    "unrelated prompts without context",
    "newer over older (query)",
    "newer over older (recall)",
    "statements that gave a fact",
    "extraction precision",
    "extraction recall",
)


def extraction_figures() -> dict[str, float]:
    """Extraction precision/recall from the labelled extraction set (mode-independent)."""
    try:
        from eval.extraction import extraction_scores
    except ImportError:
        return {}
    with (
        tempfile.TemporaryDirectory(prefix="memorysync-eval-x-") as tmp,
        eval_server(Path(tmp) / "extraction.db", search="lexical") as server,
    ):
        scores = extraction_scores(server.base_url, server.api_key, tenant=server.tenant_id)
    return {f"extraction {k}": float(v) for k, v in scores.items() if k in ("precision", "recall")}


def _cell(metric: str, value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "n/a"
    if metric in SHARES or metric == "MRR":
        return f"{value:.3f}" if metric == "MRR" else f"{100 * value:.1f}%"
    return f"{value:.1f}"


def table(results: dict[str, ModeResult], extraction: dict[str, float], data: EvalData) -> str:
    columns = list(results)
    metrics = {mode: {**r.metrics(), **extraction} for mode, r in results.items()}
    rows = list(next(iter(metrics.values())))
    header = (
        "| metric | " + " | ".join(f"{m} (default)" if m == DEFAULT_SEARCH else m for m in columns) + " |"
    )
    lines = [header, "|---|" + "---|" * len(columns)]
    lines += [
        "| " + row + " | " + " | ".join(_cell(row, metrics[m][row]) for m in columns) + " |" for row in rows
    ]
    lines.append("")
    lines.append(
        f"{len(data.personas)} personas, {len(data.statements)} statements, {len(data.questions)} questions, "
        f"{len(data.unrelated)} unrelated prompts x {len(data.personas)} personas, {len(data.updates)} updates. "
        "hit@k/MRR from /v1/memory/query (top 10); recall figures from /v1/memory/recall (k=5)."
    )
    return "\n".join(lines)


def quality_table(modes: list[str] | None = None) -> str:
    """The whole `make eval` table (every mode, plus extraction), for other reports."""
    data = load_data(HERE / "data")
    return table(evaluate(modes or list(SEARCH_MODES), data), extraction_figures(), data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default=",".join(SEARCH_MODES), help="comma-separated search modes")
    parser.add_argument("--data", type=Path, default=HERE / "data")
    parser.add_argument("--no-extraction", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--locomo",
        type=Path,
        default=None,
        help="LoCoMo-format conversations (default: ../shared/data/locomo-dev)",
    )
    parser.add_argument("--no-conversations", action="store_true", help="skip the conversation benchmark")
    parser.add_argument("--no-languages", action="store_true", help="skip the language benchmark")
    args = parser.parse_args(argv)
    data = load_data(args.data)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    started = time.perf_counter()
    results = evaluate(modes, data)
    extraction = {} if args.no_extraction else extraction_figures()
    text = table(results, extraction, data)
    print(text)
    print(f"\n(eval took {time.perf_counter() - started:.0f} s; text encoder: the {ENCODER} MiniLM graph)")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.md").write_text(text + "\n", encoding="utf-8")
    details: dict[str, Any] = {
        mode: {"metrics": r.metrics(), "misses": r.misses, "noisy_unrelated": r.noisy}
        for mode, r in results.items()
    }
    details["extraction"] = extraction
    (args.out / "details.json").write_text(
        json.dumps(details, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    if not args.no_languages:
        # One person per language, twelve statements and eight questions each (eval/languages.py).
        from eval.languages import evaluate_languages
        from eval.languages import table as language_table

        started = time.perf_counter()
        text = language_table(evaluate_languages())
        print("\n" + text)
        print(f"\n(language benchmark took {time.perf_counter() - started:.0f} s)")
        (args.out / "languages.md").write_text(text + "\n", encoding="utf-8")
    if not args.no_extraction:
        # The facts our own chats give, judged by a person (eval/facts.py, eval/data/chat_facts.jsonl).
        from eval.facts import fact_figures

        figures = fact_figures()
        text = "| chat facts | value |\n|---|---|\n" + "\n".join(
            f"| {name} | {value:.3f} |" if isinstance(value, float) else f"| {name} | {value} |"
            for name, value in figures.items()
        )
        print("\n" + text)
        (args.out / "facts.md").write_text(text + "\n", encoding="utf-8")
    if not args.no_conversations:
        # Long multi-session chats (eval/conversations.py): LoCoMo's dev split and our own chats.
        from eval.conversations import evaluate_conversations, report

        started = time.perf_counter()
        conversations, samples = evaluate_conversations(args.locomo)
        text = report(conversations, samples)
        print("\n" + text)
        print(f"\n(conversation benchmark took {time.perf_counter() - started:.0f} s)")
        (args.out / "conversations.md").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
