"""Memory in every language: one person per language tells twelve things, then asks eight questions.

The data (``eval/data/languages/<code>.json``, hand-written) has, per language: twelve first-person
statements (three of them distractors: a sibling's town, a neighbour's pet, a birth place), three
turns of small talk in that language (a greeting, thanks, "ok"), eight questions whose answer is
a word of one statement and of no other, and four impersonal prompts (trivia, a translation,
arithmetic, an explanation).

Everything goes through a real ``LocalServer`` over HTTP, in the server's default search mode:

- statements kept: ``add_turn`` answered ``completed`` and a memory tagged with the statement is
  found again (``/v1/memory/query`` with the statement's own text);
- small talk left out: no memory is tagged with it afterwards (``skipped_low_value``, or
  ``completed`` with nothing stored, as English "Hi there!" is);
- questions answered: the answer word is in the ``context`` block of ``/v1/memory/recall``
  (compared in NFC, case-folded), the check issue 35 names; "memory recalled" is the stricter
  twin: the expected statement's memory is among the recalled ones;
- unrelated prompts quiet: their recall block is empty.

``python eval/languages.py`` prints the table; ``make eval`` prints it after the other tables.
"""

from __future__ import annotations

import json
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "languages"
RECALL_K = 5
QUERY_K = 20
# Every turn is said on its own day, so a block's dates can be read back.
SAID_ON = "2024-03-{day:02d}T10:00:00Z"


def folded(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


@dataclass
class Language:
    code: str
    name: str
    statements: list[dict[str, Any]]
    small_talk: list[str]
    questions: list[dict[str, Any]]
    unrelated: list[str]


def load_languages(directory: Path = DATA) -> list[Language]:
    """Every language file, English first; refuses a question whose answer word is not in its
    statement alone (the check would then pass on the wrong memory)."""
    out = []
    for path in sorted(directory.glob("*.json"), key=lambda p: (p.stem != "en", p.stem)):
        raw = json.loads(path.read_text(encoding="utf-8"))
        language = Language(
            raw["language"],
            raw["name"],
            raw["statements"],
            raw["small_talk"],
            raw["questions"],
            raw["unrelated"],
        )
        texts = {s["id"]: folded(s["text"]) for s in language.statements}
        for q in language.questions:
            holding = [i for i, text in texts.items() if folded(q["answer"]) in text]
            if holding != [q["expects"]]:
                raise SystemExit(
                    f"{path.name}: the answer of {q['question']!r} is in {holding}, not only in its statement"
                )
        out.append(language)
    if not out:
        raise SystemExit(f"No language files in {directory}")
    return out


@dataclass
class LanguageResult:
    code: str
    name: str
    statements: int = 0
    kept: int = 0
    small_talk: int = 0
    small_talk_skipped: int = 0
    questions: int = 0
    answered: int = 0  # the answer word is in the recall block
    recalled: int = 0  # the expected statement's memory is among the recalled ones
    empty_blocks: int = 0
    unrelated: int = 0
    unrelated_quiet: int = 0
    block_chars: list[int] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)

    def row(self) -> list[str]:
        chars = sum(self.block_chars) / len(self.block_chars) if self.block_chars else 0.0
        return [
            self.name,
            f"{self.kept} of {self.statements}",
            f"{self.small_talk_skipped} of {self.small_talk}",
            f"{self.answered} of {self.questions}",
            f"{self.recalled} of {self.questions}",
            f"{self.empty_blocks}",
            f"{self.unrelated_quiet} of {self.unrelated}",
            f"{chars:.0f}",
        ]


HEADER = [
    "language",
    "statements kept",
    "small talk left out",
    "answer in the block",
    "memory recalled",
    "empty blocks",
    "unrelated prompts quiet",
    "block chars",
]


def table(results: list[LanguageResult]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|---" * len(HEADER) + "|"]
    lines += ["| " + " | ".join(r.row()) + " |" for r in results]
    return "\n".join(lines)


def _tag(memory: dict[str, Any]) -> Any:
    return (memory.get("metadata") or {}).get("eval_statement")


def _run_language(http: httpx.Client, tenant: str, language: Language) -> LanguageResult:
    result = LanguageResult(language.code, language.name)
    user = f"person-{language.code}"

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = http.post(path, json={"tenant_id": tenant, "user_id": user, **body})
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer

    # Small talk opens, sits in the middle of and closes the conversation, as it does in chat.
    turns: list[tuple[str, dict[str, Any] | None]] = [(language.small_talk[0], None)]
    middle = len(language.statements) // 2
    turns += [(s["text"], s) for s in language.statements[:middle]]
    turns += [(text, None) for text in language.small_talk[1:-1]]
    turns += [(s["text"], s) for s in language.statements[middle:]]
    turns.append((language.small_talk[-1], None))
    for day, (text, statement) in enumerate(turns, start=1):
        tag = statement["id"] if statement else f"{language.code}-small-talk-{day}"
        status = post(
            "/v1/memory/add_turn",
            {
                "text": text,
                "role": "user",
                "occurred_at": SAID_ON.format(day=day),
                "metadata": {"eval_statement": tag},
            },
        )["processing_status"]
        found = post("/v1/memory/query", {"prompt": text, "k": QUERY_K})["memories"]
        stored = any(_tag(m) == tag for m in found)
        if statement is None:
            result.small_talk += 1
            result.small_talk_skipped += not stored
            if stored:
                result.misses.append({"small talk kept": text, "status": status})
            continue
        result.statements += 1
        if status == "completed" and stored:
            result.kept += 1
        else:
            result.misses.append({"statement lost": text, "status": status})
    for question in language.questions:
        recalled = post("/v1/memory/recall", {"prompt": question["question"], "k": RECALL_K})
        block = recalled["context"]
        result.questions += 1
        result.block_chars.append(len(block))
        result.empty_blocks += block == ""
        holds = folded(question["answer"]) in folded(block)
        result.answered += holds
        result.recalled += any(_tag(m) == question["expects"] for m in recalled["memories"])
        if not holds:
            result.misses.append(
                {"question": question["question"], "answer": question["answer"], "block": block}
            )
    for prompt in language.unrelated:
        block = post("/v1/memory/recall", {"prompt": prompt, "k": RECALL_K})["context"]
        result.unrelated += 1
        result.unrelated_quiet += block == ""
        if block:
            result.misses.append({"unrelated": prompt, "block": block})
    return result


def evaluate_languages(
    languages: list[Language] | None = None, *, server_options: dict[str, Any] | None = None
) -> list[LanguageResult]:
    """One fresh server (``server_options``), one user per language."""
    from eval.server import eval_server  # here: run as a script, eval.* is importable only once main runs

    languages = languages if languages is not None else load_languages()
    with (
        tempfile.TemporaryDirectory(prefix="memorysync-eval-lang-") as tmp,
        eval_server(Path(tmp) / "languages.db", **(server_options or {})) as server,
        httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=60) as http,
    ):
        return [_run_language(http, server.tenant_id, language) for language in languages]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", default=None, help="the server's search mode (default: its default)")
    parser.add_argument("--misses", action="store_true", help="print what each language missed")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results = evaluate_languages(server_options={"search": args.search} if args.search else None)
    text = table(results)
    print(text)
    print(f"\n(language benchmark took {time.perf_counter() - started:.0f} s)")
    if args.misses:
        for r in results:
            for miss in r.misses:
                print(r.code, json.dumps(miss, ensure_ascii=False))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "languages.md").write_text(text + "\n", encoding="utf-8")
    (args.out / "languages.json").write_text(
        json.dumps({r.code: r.misses for r in results}, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    import sys

    if str(HERE.parent) not in sys.path:
        sys.path.insert(0, str(HERE.parent))
    raise SystemExit(main())
