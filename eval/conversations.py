"""The conversation benchmark: long multi-session chats between two people, in LoCoMo's format.

Every turn goes in through ``/v1/memory/add_turn`` twice, as an adapter would send it: to the
speaker's own memory as ``user`` and to the listener's as ``assistant``, with ``occurred_at`` = the
session's time and ``metadata.dia_id`` = the turn's id (copied onto what the turn yields, which is
how a returned memory maps back to its turn). Each question (categories 1-4) then goes to
``/v1/memory/query`` (k=10) and ``/v1/memory/recall`` (k=5) for the person it is about.

Measures, per category and overall: evidence hit@5/@10 for query (a top-k item came from one of
the question's evidence turns), "recall block holds evidence", empty blocks, mean block size in
characters; for temporal questions answered by a date, the share of recall blocks holding that
date. Baselines over the same questions in the same run: BM25 and MiniLM over the person's raw
turns, and MiniLM over the conversation's gold observations where the file has them.

Sources: LoCoMo's dev split, read from ``../shared/data/locomo-dev`` (or ``--locomo DIR`` /
``$MEMORYSYNC_LOCOMO``), never copied into this repository; and ``eval/data/chats``, chats
written for this project.
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import numpy as np

if str(Path(__file__).resolve().parent.parent) not in sys.path:  # run as a script: eval.* importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eval.answerability import coverage, dated_lines, names_both
from eval.server import ENCODER, eval_server
from memorysync_server import LocalServer
from memorysync_server.extraction import day
from memorysync_server.language import asked_days

HERE = Path(__file__).resolve().parent
CHATS = HERE / "data" / "chats"
LOCOMO_DEFAULT = HERE.parent.parent / "shared" / "data" / "locomo-dev"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
QUERY_K = 10
RECALL_K = 5

MONTHS = {
    name: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}


@dataclass
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: int
    when: datetime


@dataclass
class Question:
    text: str
    answer: str
    evidence: list[str]
    category: int
    person: str


@dataclass
class Conversation:
    name: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]
    observations: dict[str, list[str]]  # dia_id -> gold facts written for that turn

    def user(self, speaker: str) -> str:
        return f"{self.name}-{speaker}".lower()


# --- reading ---------------------------------------------------------------------------------


def parse_session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> an aware datetime (UTC: the data names no zone)."""
    m = re.match(r"\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", text, re.I)
    if not m:
        raise ValueError(f"unreadable session time {text!r}")
    hour, minute, half, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    return datetime(int(year), MONTHS[month.lower()], int(day), h, int(minute), tzinfo=timezone.utc)


def parse_evidence(items: Iterable[str]) -> list[str]:
    """LoCoMo writes some ids loosely ('D8:6; D9:17', 'D:11:26', 'D30:05'): read them all."""
    out: list[str] = []
    for item in items:
        for m in re.finditer(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", str(item)):
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return out


def turn_text(raw: dict[str, Any]) -> str:
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def _person(question: str, speakers: tuple[str, str], evidence: list[str], turns: dict[str, Turn]) -> str:
    lowered = question.lower()
    named = [(lowered.find(s.lower()), s) for s in speakers if s.lower() in lowered]
    if named:
        return min(named)[1]
    for dia in evidence:
        if dia in turns:
            return turns[dia].speaker
    return speakers[0]


def load_conversation(path: Path) -> Conversation:
    raw = json.loads(path.read_text(encoding="utf-8"))
    conv = raw.get("conversation", raw)
    speakers = (conv["speaker_a"], conv["speaker_b"])
    turns: list[Turn] = []
    n = 1
    while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
        if conv.get(f"session_{n}"):
            when = parse_session_time(conv[f"session_{n}_date_time"])
            turns += [
                Turn(t["dia_id"], t["speaker"], turn_text(t), n, when)
                for t in conv[f"session_{n}"]
                if turn_text(t)
            ]
        n += 1
    by_id = {t.dia_id: t for t in turns}
    questions = []
    for q in raw.get("qa", []):
        if q.get("category") not in CATEGORIES:
            continue
        evidence = parse_evidence(q.get("evidence", []))
        questions.append(
            Question(
                q["question"],
                str(q.get("answer", "")),
                evidence,
                q["category"],
                _person(q["question"], speakers, evidence, by_id),
            )
        )
    observations: dict[str, list[str]] = defaultdict(list)
    for key, value in raw.items():
        if key.startswith("session_") and key.endswith("_observation") and isinstance(value, dict):
            for facts in value.values():
                for fact in facts:
                    if isinstance(fact, list) and len(fact) == 2:
                        for dia in parse_evidence([fact[1]]):
                            observations[dia].append(str(fact[0]))
    return Conversation(path.stem, speakers, turns, questions, dict(observations))


def locomo_dir(explicit: Path | None = None) -> Path | None:
    for candidate in (explicit, os.environ.get("MEMORYSYNC_LOCOMO"), LOCOMO_DEFAULT):
        if candidate and Path(candidate).is_dir() and any(Path(candidate).glob("*.json")):
            return Path(candidate)
    return None


def load_sets(locomo: Path | None = None, *, chats: Path = CHATS) -> dict[str, list[Conversation]]:
    sets: dict[str, list[Conversation]] = {}
    found = locomo_dir(locomo)
    if found:
        sets["locomo-dev"] = [load_conversation(p) for p in sorted(found.glob("*.json"))]
    if chats.is_dir() and any(chats.glob("*.json")):
        sets["own chats"] = [load_conversation(p) for p in sorted(chats.glob("*.json"))]
    return sets


# --- dates in answers and blocks --------------------------------------------------------------

_DMY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_MDY = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_MY = re.compile(r"\b([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})(?:-(\d{2}))?\b")
_YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")


def dates_in(text: str) -> list[tuple[int, int | None, int | None]]:
    """Every (year, month, day) a text names, at the precision it names it."""
    found: list[tuple[int, int | None, int | None]] = []
    spans: list[tuple[int, int]] = []

    def add(m: re.Match[str], value: tuple[int, int | None, int | None]) -> None:
        if any(a <= m.start() < b for a, b in spans):
            return
        spans.append(m.span())
        found.append(value)

    for m in _ISO.finditer(text):
        add(m, (int(m.group(1)), int(m.group(2)), int(m.group(3)) if m.group(3) else None))
    for m in _DMY.finditer(text):
        if m.group(2).lower() in MONTHS:
            add(m, (int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1))))
    for m in _MDY.finditer(text):
        if m.group(1).lower() in MONTHS:
            add(m, (int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2))))
    for m in _MY.finditer(text):
        if m.group(1).lower() in MONTHS:
            add(m, (int(m.group(2)), MONTHS[m.group(1).lower()], None))
    for m in _YEAR.finditer(text):
        add(m, (int(m.group(1)), None, None))
    return found


def _days(value: tuple[int, int | None, int | None]) -> date | None:
    year, month, day = value
    if month is None or day is None:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def block_has_date(answer: str, block: str) -> bool:
    """The block names the answer's date at the answer's precision. An answer relative to a date
    ('The week before 9 June 2023') is met by a date up to 7 days on the side it names."""
    wanted = dates_in(answer)
    have = dates_in(block)
    if not wanted or not have:
        return False
    lowered = answer.lower()
    window = 7 if ("before" in lowered or "after" in lowered or "week" in lowered) else 0
    for w in wanted:
        target = _days(w)
        for h in have:
            if w[1] is None and h[0] == w[0]:
                return True
            if w[2] is None and w[1] is not None and (h[0], h[1]) == (w[0], w[1]):
                return True
            got = _days(h)
            if target and got:
                delta = (target - got).days
                if delta == 0 or (window and ("after" in lowered) == (delta < 0) and abs(delta) <= window):
                    return True
    return False


def date_answer(question: Question) -> bool:
    return question.category == 2 and bool(dates_in(question.answer))


# --- baselines over raw text ------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9']+")


def _tokens(text: str) -> list[str]:
    # Stop words out and words stemmed, as a tuned BM25 would (0.613 hit@5 on the dev split,
    # against 0.506 on raw tokens): the baseline to beat is a good one.
    from memorysync_server.language.words import STOPWORDS, stem

    return [stem(w) for w in _TOKEN.findall(text.lower()) if w not in STOPWORDS]


class BM25:
    def __init__(self, docs: list[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.docs = [_tokens(d) for d in docs]
        self.k1, self.b = k1, b
        self.avg = statistics.mean(len(d) for d in self.docs) if self.docs else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(set(d))
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.tf = [Counter(d) for d in self.docs]

    def top(self, query: str, k: int) -> list[int]:
        terms = set(_tokens(query))
        scores = []
        for i, tf in enumerate(self.tf):
            length = len(self.docs[i])
            s = 0.0
            for t in terms:
                f = tf.get(t)
                if f:
                    s += (
                        self.idf[t]
                        * f
                        * (self.k1 + 1)
                        / (f + self.k1 * (1 - self.b + self.b * length / self.avg))
                    )
            scores.append(s)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [i for i in order[:k] if scores[i] > 0]


class DenseIndex:
    def __init__(self, docs: list[str], embed: Callable[[list[str]], np.ndarray]) -> None:
        self.embed = embed
        self.matrix = embed(docs) if docs else np.zeros((0, 384), dtype=np.float32)

    def top(self, query: str, k: int) -> list[int]:
        if not len(self.matrix):
            return []
        scores = self.matrix @ self.embed([query])[0]
        return [int(i) for i in np.argsort(-scores)[:k]]


# --- the run ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    question: Question
    conversation: str
    query_rank: int | None = None  # 1-based rank of the first evidence item in query
    block_holds: bool = False
    block: str = ""
    block_date: bool | None = None
    baselines: dict[str, int | None] = field(default_factory=dict)
    # Answer tokens in the block handed to the model (both people's blocks when the question
    # names both), and the same for each raw-text baseline: label -> (coverage, characters).
    tokens: float | None = None
    handed_chars: int = 0
    answer_baselines: dict[str, tuple[float | None, int]] = field(default_factory=dict)


def _first_evidence_rank(ids: list[str | None], evidence: list[str]) -> int | None:
    for rank, dia in enumerate(ids, start=1):
        if dia in evidence:
            return rank
    return None


def _dia(memory: dict[str, Any]) -> str | None:
    return (memory.get("metadata") or {}).get("dia_id")


@dataclass
class SetResult:
    name: str
    outcomes: list[Outcome]
    turns: int
    turns_with_memory: float
    evidence_turns_with_memory: float
    observation_turns_with_fact: float
    ingest_s: float
    recall_ms: list[float]
    # Facts or the turn kept verbatim (the list route shows facts only).
    evidence_turns_with_any_memory: float = float("nan")

    def table(self) -> str:
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for o in self.outcomes:
            groups[CATEGORIES[o.question.category]].append(o)
        groups["overall"] = list(self.outcomes)
        cols = [c for c in (*CATEGORIES.values(), "overall") if groups.get(c)]
        baselines = sorted({b for o in self.outcomes for b in o.baselines})
        answer_baselines = list(dict.fromkeys(b for o in self.outcomes for b in o.answer_baselines))

        def mean_of(items: list[Outcome], value: Callable[[Outcome], float | None]) -> str:
            got = [v for v in (value(o) for o in items) if v is not None]
            return f"{statistics.mean(got):.3f}" if got else "n/a"

        def share(items: list[Outcome], test: Callable[[Outcome], bool | None]) -> str:
            flags = [v for v in (test(o) for o in items) if v is not None]
            return f"{sum(flags) / len(flags):.3f}" if flags else "n/a"

        def hit(k: int, pick: Callable[[Outcome], int | None]) -> Callable[[Outcome], bool]:
            return lambda o: (r := pick(o)) is not None and r <= k

        rows: list[tuple[str, Callable[[list[Outcome]], str]]] = [
            ("questions", lambda xs: str(len(xs))),
            ("query evidence hit@5", lambda xs: share(xs, hit(5, lambda o: o.query_rank))),
            ("query evidence hit@10", lambda xs: share(xs, hit(10, lambda o: o.query_rank))),
            ("recall block holds evidence", lambda xs: share(xs, lambda o: o.block_holds)),
            ("empty recall blocks", lambda xs: share(xs, lambda o: o.block == "")),
            ("mean block chars", lambda xs: f"{statistics.mean(len(o.block) for o in xs):.0f}"),
            ("date answers: block holds the date", lambda xs: share(xs, lambda o: o.block_date)),
        ]
        rows.append(("answer tokens in the block", lambda xs: mean_of(xs, lambda o: o.tokens)))
        rows.append(
            (
                "questions naming a day: answer tokens",
                lambda xs: mean_of(xs, lambda o: o.tokens if names_a_day(o.question) else None),
            )
        )
        rows.append(
            ("chars handed to the model", lambda xs: f"{statistics.mean(o.handed_chars for o in xs):.0f}")
        )
        for name in answer_baselines:
            rows.append(
                (
                    f"answer tokens: {name} (chars)",
                    lambda xs, n=name: (
                        f"{mean_of(xs, lambda o: o.answer_baselines[n][0])} "
                        f"({statistics.mean(o.answer_baselines[n][1] for o in xs):.0f})"
                    ),
                )
            )
        for b in baselines:
            rows.append((f"{b} hit@5", lambda xs, b=b: share(xs, hit(5, lambda o: o.baselines.get(b)))))
            rows.append((f"{b} hit@10", lambda xs, b=b: share(xs, hit(10, lambda o: o.baselines.get(b)))))
        lines = [f"| {self.name} | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
        lines += ["| " + label + " | " + " | ".join(fn(groups[c]) for c in cols) + " |" for label, fn in rows]
        lines.append("")
        lines.append(
            f"{self.turns} turns; {100 * self.turns_with_memory:.1f}% of a speaker's turns left a fact "
            f"(evidence turns {100 * self.evidence_turns_with_memory:.1f}%; with the turns kept verbatim "
            f"{100 * self.evidence_turns_with_any_memory:.1f}%); gold-observation turns "
            f"that gave a fact: {100 * self.observation_turns_with_fact:.1f}%; ingest {self.ingest_s:.0f} s; "
            f"recall p50 {statistics.median(self.recall_ms) if self.recall_ms else float('nan'):.1f} ms."
        )
        return "\n".join(lines)

    def metrics(self) -> dict[str, float]:
        def share(values: list[bool]) -> float:
            return sum(values) / len(values) if values else float("nan")

        out = self.outcomes
        dated = [o.block_date for o in out if o.block_date is not None]
        figures = {
            "hit@5": share([o.query_rank is not None and o.query_rank <= 5 for o in out]),
            "hit@10": share([o.query_rank is not None and o.query_rank <= 10 for o in out]),
            "block holds evidence": share([o.block_holds for o in out]),
            "empty blocks": share([o.block == "" for o in out]),
            "date in block": share(dated),
            "turns with memory": self.turns_with_memory,
            "answer tokens in the block": _mean([o.tokens for o in out]),
            "questions naming a day: answer tokens": _mean(
                [o.tokens for o in out if names_a_day(o.question)]
            ),
            "chars handed": statistics.mean(o.handed_chars for o in out) if out else float("nan"),
        }
        for name in dict.fromkeys(b for o in out for b in o.answer_baselines):
            figures[f"answer tokens: {name}"] = _mean([o.answer_baselines[name][0] for o in out])
        for cat, name in CATEGORIES.items():
            xs = [o for o in out if o.question.category == cat]
            figures[f"{name} answer tokens"] = _mean([o.tokens for o in xs])
        for cat, name in CATEGORIES.items():
            xs = [o for o in out if o.question.category == cat]
            figures[f"{name} hit@5"] = share([o.query_rank is not None and o.query_rank <= 5 for o in xs])
        for b in sorted({b for o in out for b in o.baselines}):
            figures[f"{b} hit@5"] = share([(r := o.baselines.get(b)) is not None and r <= 5 for o in out])
        return figures


def names_a_day(question: Question) -> bool:
    """Whether the question asks about what was said on a day it names ("... on 16 August 2023?")."""
    return asked_days(question.text, date.today()) is not None


def _mean(values: list[float | None]) -> float:
    got = [v for v in values if v is not None]
    return statistics.mean(got) if got else float("nan")


class _Client:
    def __init__(self, server: LocalServer) -> None:
        self.tenant = server.tenant_id
        self.http = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=120)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.post(path, json={"tenant_id": self.tenant, **body})
        response.raise_for_status()
        return response.json()

    def listed(self, user: str, **params: Any) -> list[dict[str, Any]]:
        response = self.http.get(f"/v1/memory/{self.tenant}/{user}/list", params={"limit": 0, **params})
        response.raise_for_status()
        return response.json()["memories"]


def ingest(client: _Client, conversation: Conversation) -> None:
    for turn in conversation.turns:
        for speaker in conversation.speakers:
            client.post(
                "/v1/memory/add_turn",
                {
                    "user_id": conversation.user(speaker),
                    "text": turn.text[:16000],
                    "role": "user" if speaker == turn.speaker else "assistant",
                    "occurred_at": turn.when.isoformat().replace("+00:00", "Z"),
                    "metadata": {"dia_id": turn.dia_id, "session": turn.session},
                },
            )


def _fact_dias(client: _Client, conversation: Conversation) -> set[str]:
    dias: set[str] = set()
    for speaker in conversation.speakers:
        dias |= {d for d in (_dia(m) for m in client.listed(conversation.user(speaker))) if d}
    return dias


def _memory_dias(server: LocalServer, conversation: Conversation) -> set[str]:
    """The turns that left any memory, kept turns too (read from the store: no route lists them)."""
    store = server.app.services.store
    dias: set[str] = set()
    for speaker in conversation.speakers:
        facts, _ = store.facts.page(server.tenant_id, conversation.user(speaker), 0, 0, kept_turns=True)
        dias |= {d for d in ((f.metadata or {}).get("dia_id") for f in facts) if isinstance(d, str)}
    return dias


def run_set(
    name: str,
    conversations: list[Conversation],
    workdir: Path,
    *,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    server_options: dict[str, Any] | None = None,
    samples: list[dict[str, Any]] | None = None,
) -> SetResult:
    outcomes: list[Outcome] = []
    recall_ms: list[float] = []
    own_turns = own_with = ev_turns = ev_with = ev_any = obs_turns = obs_with = 0
    ingest_s = 0.0
    db = workdir / f"conversations-{re.sub(r'[^a-z0-9]+', '-', name.lower())}.db"
    with eval_server(db, **(server_options or {})) as server:
        client = _Client(server)
        try:
            for conversation in conversations:
                t0 = time.perf_counter()
                ingest(client, conversation)
                ingest_s += time.perf_counter() - t0
                with_fact = _fact_dias(client, conversation)
                with_memory = _memory_dias(server, conversation)
                evidence = {d for q in conversation.questions for d in q.evidence}
                own_turns += len(conversation.turns)
                own_with += sum(1 for t in conversation.turns if t.dia_id in with_fact)
                ev_turns += sum(1 for t in conversation.turns if t.dia_id in evidence)
                ev_with += sum(
                    1 for t in conversation.turns if t.dia_id in evidence and t.dia_id in with_fact
                )
                ev_any += sum(
                    1 for t in conversation.turns if t.dia_id in evidence and t.dia_id in with_memory
                )
                obs_turns += sum(1 for t in conversation.turns if t.dia_id in conversation.observations)
                obs_with += sum(
                    1
                    for t in conversation.turns
                    if t.dia_id in conversation.observations and t.dia_id in with_fact
                )
                indexes = _baselines(conversation, embed)
                for question in conversation.questions:
                    user = conversation.user(question.person)
                    found = client.post(
                        "/v1/memory/query", {"user_id": user, "prompt": question.text, "k": QUERY_K}
                    )["memories"]
                    t0 = time.perf_counter()
                    recalled = client.post(
                        "/v1/memory/recall", {"user_id": user, "prompt": question.text, "k": RECALL_K}
                    )
                    recall_ms.append((time.perf_counter() - t0) * 1000)
                    block = recalled["context"]
                    outcome = Outcome(
                        question,
                        conversation.name,
                        query_rank=_first_evidence_rank([_dia(m) for m in found], question.evidence),
                        block_holds=bool(block)
                        and _first_evidence_rank([_dia(m) for m in recalled["memories"]], question.evidence)
                        is not None,
                        block=block,
                        block_date=block_has_date(question.answer, block) if date_answer(question) else None,
                    )
                    for label, (index, ids) in indexes[question.person].items():
                        outcome.baselines[label] = _first_evidence_rank(
                            [ids[i] for i in index.top(question.text, QUERY_K)], question.evidence
                        )
                    people = (
                        list(conversation.speakers)
                        if names_both(question.text, conversation.speakers)
                        else [question.person]
                    )
                    handed = [block] + [
                        client.post(
                            "/v1/memory/recall",
                            {"user_id": conversation.user(other), "prompt": question.text, "k": RECALL_K},
                        )["context"]
                        for other in people
                        if other != question.person
                    ]
                    handed_text = "\n".join(b for b in handed if b)
                    outcome.tokens = coverage(question.answer, handed_text)
                    outcome.handed_chars = len(handed_text)
                    outcome.answer_baselines = _raw_blocks(conversation, question, people, indexes)
                    outcomes.append(outcome)
        finally:
            client.http.close()
    result = SetResult(
        name,
        outcomes,
        own_turns,
        own_with / own_turns if own_turns else float("nan"),
        ev_with / ev_turns if ev_turns else float("nan"),
        obs_with / obs_turns if obs_turns else float("nan"),
        ingest_s,
        recall_ms,
        ev_any / ev_turns if ev_turns else float("nan"),
    )
    if samples is not None:
        samples.extend(_samples(outcomes))
    return result


def _baselines(
    conversation: Conversation, embed: Callable[[list[str]], np.ndarray] | None
) -> dict[str, dict[str, tuple[Any, list[str]]]]:
    out: dict[str, dict[str, tuple[Any, list[str]]]] = {}
    for speaker in conversation.speakers:
        own = [t for t in conversation.turns if t.speaker == speaker]
        ids = [t.dia_id for t in own]
        texts = [t.text for t in own]
        indexes: dict[str, tuple[Any, list[str]]] = {"BM25 over raw turns": (BM25(texts), ids)}
        if embed is not None:
            indexes["MiniLM over raw turns"] = (DenseIndex(texts, embed), ids)
            gold = [
                (dia, fact)
                for t in own
                for dia, fact in ((t.dia_id, f) for f in conversation.observations.get(t.dia_id, []))
            ]
            if gold:
                indexes["MiniLM over gold observations"] = (
                    DenseIndex([f for _, f in gold], embed),
                    [d for d, _ in gold],
                )
        out[speaker] = indexes
    return out


def _raw_blocks(
    conversation: Conversation,
    question: Question,
    people: list[str],
    indexes: dict[str, dict[str, tuple[Any, list[str]]]],
) -> dict[str, tuple[float | None, int]]:
    """Answer tokens and characters of each raw-turn baseline, each turn handed with its day."""
    by_id = {t.dia_id: t for t in conversation.turns}

    def handed(dias: Iterable[str]) -> str:
        return dated_lines((day(by_id[d].when), by_id[d].speaker, by_id[d].text) for d in dias if d in by_id)

    blocks: dict[str, str] = {}
    for label, name, k in (
        ("BM25 over raw turns", "BM25 top 5 raw turns", 5),
        ("BM25 over raw turns", "BM25 top 10 raw turns", 10),
        ("MiniLM over raw turns", "MiniLM top 5 raw turns", 5),
    ):
        picked: list[str] = []
        for person in people:
            found = indexes[person].get(label)
            if found is not None:
                index, ids = found
                picked += [ids[i] for i in index.top(question.text, k)]
        if label in indexes[people[0]]:
            blocks[name] = handed(picked)
    blocks["evidence turns"] = handed(dict.fromkeys(question.evidence))
    blocks["whole conversation"] = handed(t.dia_id for t in conversation.turns)
    return {name: (coverage(question.answer, text), len(text)) for name, text in blocks.items()}


SAMPLE_QUESTIONS = 5


def _samples(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """The block an agent receives for a few fixed questions (the first of each category, then
    the first temporal one answered by a date), for the before/after in a change's note."""
    picked: list[Outcome] = []
    for cat in CATEGORIES:
        picked += [o for o in outcomes if o.question.category == cat][:1]
    picked += [o for o in outcomes if date_answer(o.question) and o not in picked][:1]
    return [
        {
            "conversation": o.conversation,
            "question": o.question.text,
            "answer": o.question.answer,
            "evidence": o.question.evidence,
            "block": o.block,
        }
        for o in picked[:SAMPLE_QUESTIONS]
    ]


def minilm_embed() -> Callable[[list[str]], np.ndarray] | None:
    try:
        from memorysync_server.model.embedding import minilm
    except ImportError:
        return None
    model = minilm(ENCODER)  # the servers' graph: the baselines and the memories read alike
    return lambda texts: np.asarray(model.embed(texts), dtype=np.float32)


def evaluate_conversations(
    locomo: Path | None = None,
    *,
    chats: Path = CHATS,
    server_options: dict[str, Any] | None = None,
    baselines: bool = True,
) -> tuple[dict[str, SetResult], list[dict[str, Any]]]:
    sets = load_sets(locomo, chats=chats)
    embed = minilm_embed() if baselines else None
    samples: list[dict[str, Any]] = []
    results: dict[str, SetResult] = {}
    with tempfile.TemporaryDirectory(prefix="memorysync-eval-conv-") as tmp:
        for name, conversations in sets.items():
            results[name] = run_set(
                name,
                conversations,
                Path(tmp),
                embed=embed,
                server_options=server_options,
                samples=samples if name == "locomo-dev" else None,
            )
    return results, samples


def report(results: dict[str, SetResult], samples: list[dict[str, Any]]) -> str:
    parts = [r.table() for r in results.values()]
    if samples:
        parts.append("Recall blocks for five dev questions:\n")
        for s in samples:
            parts.append(f"- Q: {s['question']} (answer: {s['answer']}; evidence {', '.join(s['evidence'])})")
            parts.append("  ```\n  " + (s["block"] or "(empty)").replace("\n", "\n  ") + "\n  ```")
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="The conversation benchmark (LoCoMo dev + own chats).")
    parser.add_argument("--locomo", type=Path, default=None, help="folder of LoCoMo-format JSON files")
    parser.add_argument("--chats", type=Path, default=CHATS)
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--search", default=None, help="the server's search mode (default: its default)")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results, samples = evaluate_conversations(
        args.locomo,
        chats=args.chats,
        baselines=not args.no_baselines,
        server_options={"search": args.search} if args.search else None,
    )
    if not results:
        print("No conversations found: pass --locomo DIR (LoCoMo's format) or add eval/data/chats/*.json.")
        return 1
    text = report(results, samples)
    print(text)
    print(f"\n(conversation benchmark took {time.perf_counter() - started:.0f} s)")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "conversations.md").write_text(text + "\n", encoding="utf-8")
    details = {
        name: {
            "metrics": r.metrics(),
            "misses": [
                {
                    "conversation": o.conversation,
                    "question": o.question.text,
                    "category": o.question.category,
                    "evidence": o.question.evidence,
                    "query_rank": o.query_rank,
                    "block": o.block,
                    "answer": o.question.answer,
                    "tokens": o.tokens,
                }
                for o in r.outcomes
                if o.query_rank is None or o.query_rank > 5 or not o.block_holds
            ],
            "questions": [
                {
                    "conversation": o.conversation,
                    "question": o.question.text,
                    "answer": o.question.answer,
                    "category": o.question.category,
                    "evidence": o.question.evidence,
                    "query_rank": o.query_rank,
                    "block_holds": o.block_holds,
                    "tokens": o.tokens,
                    "chars": o.handed_chars,
                    "baselines": o.answer_baselines,
                    "block": o.block,
                }
                for o in r.outcomes
            ],
        }
        for name, r in results.items()
    }
    (args.out / "conversations.json").write_text(
        json.dumps(details, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
