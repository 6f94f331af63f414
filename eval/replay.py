"""Record every answer the evaluation gets, to show a refactoring changed none of them.

``python eval/replay.py record OUT.jsonl`` runs the conversation benchmark (eval/conversations.py:
LoCoMo's dev split and our own chats) and the recall set in every search mode (eval/recall.py),
and writes one line per search request (``/v1/memory/query``, ``/v1/memory/recall``): the
request and its answer, less what changes from run to run (timestamps, latency).
``python eval/replay.py compare A.jsonl B.jsonl`` says how many requests were compared and shows
the first that differ. Record once on the commit before a change and once after it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

SEARCHES = ("/v1/memory/query", "/v1/memory/recall")
# Differ between two runs of the same code: wall-clock times.
VOLATILE = {"created_at", "updated_at", "latency_ms", "occurred_at"}


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def record(out: Path, *, locomo: Path | None, modes: list[str]) -> int:
    from eval.conversations import evaluate_conversations
    from eval.recall import evaluate, load_data

    lines: list[str] = []
    stage = {"name": ""}
    send = httpx.Client.send

    def recorded(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = send(self, request, **kwargs)
        if request.url.path in SEARCHES:
            response.read()
            body = json.loads(request.content or b"{}")
            body.pop("tenant_id", None)
            answer = _stable(response.json()) if response.status_code == 200 else response.text
            lines.append(
                json.dumps(
                    [stage["name"], request.url.path, body, response.status_code, answer],
                    ensure_ascii=False,
                    sort_keys=True,
                )
            )
        return response

    httpx.Client.send = recorded  # type: ignore[method-assign]
    try:
        stage["name"] = "conversations"
        evaluate_conversations(locomo, baselines=False)
        data = load_data(HERE / "data")
        for mode in modes:
            stage["name"] = f"recall set, {mode}"
            evaluate([mode], data)
    finally:
        httpx.Client.send = send  # type: ignore[method-assign]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} search requests recorded in {out}")
    return 0


def compare(a: Path, b: Path, *, show: int = 3) -> int:
    left = a.read_text(encoding="utf-8").splitlines()
    right = b.read_text(encoding="utf-8").splitlines()
    if len(left) != len(right):
        print(f"different request counts: {len(left)} against {len(right)}")
    differ = [i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y]
    for i in differ[:show]:
        print(f"request {i + 1} differs:\n  {left[i][:2000]}\n  {right[i][:2000]}")
    same = len(left) == len(right) and not differ
    by_stage: dict[str, int] = {}
    for line in left:
        name = json.loads(line)[0]
        by_stage[name] = by_stage.get(name, 0) + 1
    print(
        f"{'identical' if same else f'{len(differ)} differ'}: {min(len(left), len(right))} search requests"
        f" compared ({', '.join(f'{n} {s}' for s, n in by_stage.items())})"
    )
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    from memorysync_server.model import SEARCH_MODES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the evaluation and write its answers")
    rec.add_argument("out", type=Path)
    rec.add_argument("--locomo", type=Path, default=None, help="LoCoMo-format conversations")
    rec.add_argument("--modes", default=",".join(SEARCH_MODES), help="the recall set's search modes")
    cmp_ = sub.add_parser("compare", help="compare two recordings")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        modes = [m.strip() for m in args.modes.split(",") if m.strip()]
        return record(args.out, locomo=args.locomo, modes=modes)
    return compare(args.a, args.b)


if __name__ == "__main__":
    raise SystemExit(main())
