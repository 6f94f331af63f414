"""The add_turn pipeline (openapi.yaml, add_turn): role, low-value filter, 30-day replay receipts, extraction.

Every path that turns text into facts (add_turn, history append, state put, /memory/add) goes
through :class:`Pipeline`, so the same turn is treated the same way wherever it arrives.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import traceback
from collections import OrderedDict, deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import groupby
from typing import Any

import numpy as np

from ..domain import ASKED, KEPT_TURN, SAID_IN, NewFact, Origin, read_time
from ..extraction import (
    EMPTY_WORDS,
    Extractor,
    is_low_value,
    question_asked,
    resolve,
    resolve_referents,
    stands_alone,
    tells,
    unnamed,
)
from ..extraction.any_language import tells_in_any_language
from ..language.detect import reads_as_english
from ..language.scripts import nfc
from ..language.words import content_words, searched_text, stem
from ..model import Embedder
from ..retrieval import PENDING, Backfill
from ..storage import Storage
from .supersede import Superseder

log = logging.getLogger("memorysync_server")

USER_ROLES = frozenset({"human", "user", "customer", "caller"})
OTHER_ROLES = frozenset(
    {"ai", "assistant", "bot", "system", "tool", "function", "agent", "model", "developer"}
)
RESERVED_KEYS = frozenset(
    {
        "write_origin",
        "distilled_from",
        "turn_role",
        "history_id",
        "episodic",
        "superseded_by",
        "occurred_at",
        SAID_IN,
    }
)
REPLAY_WINDOW = timedelta(days=30)

# Texts longer than this (a large state value, a long turn) take tens to hundreds of ms of pure
# Python to extract and embed. Such work runs one at a time: requests share one interpreter lock,
# and several of them at once would starve every quick request (a recall) of it.
HEAVY_CHARS = 8_000

_ROLE_PREFIX = re.compile(
    r"^\s*(human|user|customer|caller|ai|assistant|bot|system|tool|function|agent|model)\s*:\s*",
    re.IGNORECASE,
)


def resolve_role(
    role: str | None, text: str, speaker: str | None, metadata: dict[str, Any]
) -> tuple[bool, str]:
    """(is_user, content): the first source naming a known role wins; a used `role:` prefix is stripped."""
    known = USER_ROLES | OTHER_ROLES
    if role and role.lower() in known:
        return role.lower() in USER_ROLES, text
    m = _ROLE_PREFIX.match(text)
    if m:
        return m.group(1).lower() in USER_ROLES, text[m.end() :]
    if speaker and "@" in speaker and speaker.split("@", 1)[0].lower() in known:
        return speaker.split("@", 1)[0].lower() in USER_ROLES, text
    meta_role = metadata.get("role")
    if isinstance(meta_role, str) and meta_role.lower() in known:
        return meta_role.lower() in USER_ROLES, text
    return True, text


def fact_metadata(metadata: dict[str, Any] | None, **server: Any) -> dict[str, Any]:
    """The caller's scalar metadata minus reserved keys, plus the server's own tags."""
    out = {
        k: v
        for k, v in (metadata or {}).items()
        if k not in RESERVED_KEYS and (v is None or isinstance(v, (str, int, float, bool)))
    }
    out.update({k: v for k, v in server.items() if v is not None})
    return out


@dataclass
class Outcome:
    processing_status: str
    already_exists: bool = False
    fact_ids: list[int] = field(default_factory=list)

    @property
    def extracted(self) -> bool:
        return self.processing_status == "completed"


@dataclass(frozen=True)
class Drafts:
    """Facts extracted (and embedded where the write needs it), ready to store: built before any
    transaction opens. A fact whose vector waits for the background embedder has ``PENDING``."""

    texts: list[str]
    vectors: list[np.ndarray]
    # The words of its turn each fact's vector and lexical terms read (``said_in``); empty: none.
    said_in: list[str | None] = field(default_factory=list)


@dataclass(frozen=True)
class Labels:
    """What a caller may set on the facts of an explicit write besides their metadata."""

    tags: tuple[str, ...] = ()
    importance: float | None = None
    event_type: str = "fact"
    actor: str | None = None  # None: the server's own extraction


@dataclass(frozen=True)
class TurnPlan:
    """What ingesting one turn will do, decided and computed outside the transaction."""

    skipped: str | None  # the processing_status of a turn that stores nothing
    digest: str = ""
    drafts: Drafts | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    turn: Drafts | None = None  # the turn itself, kept as a KEPT_TURN memory
    asked: str | None = None  # the listener's question the turn answers (its vector reads it)
    said_at: str | None = None  # when it was said: occurred_at, else when it arrived (UTC, ISO)


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
# A turn whose telling sentences hold this many words its facts leave out is kept beside them.
UNTOLD_WORDS = 2
_SAYS_NOTHING = frozenset(stem(word) for word in EMPTY_WORDS)


def worth_keeping(text: str, facts: list[str]) -> bool:
    """Whether a turn is kept as a memory beside its facts: when it tells more than its facts hold.
    Not when no sentence tells anything (questions, requests to the assistant, greetings,
    reactions to the listener): kept, such a turn would outrank what the person did tell ("What
    snack should I bring?" or "Book me a flight, please" beside "User is allergic to peanuts" when
    they next ask). Not when its facts hold the words it told ("Hi! I'm vegan." -> "User is
    vegan"): keeping it too would double the cost of the write. Kept when it tells in two
    sentences, or its facts leave words out ("Fieldnote offered me the job, I start on Monday!"
    gives only "User starts on Monday")."""
    telling = [m.group(0) for m in _SENTENCE.finditer(text) if tells(m.group(0))]
    if len(telling) != 1 or not facts:
        # Two telling sentences hold what neither fact does: how one bears on the other
        # ("Been busy keeping fit. Just started aerial yoga" answers "what workout class?").
        return bool(telling)
    held = {stem(word) for fact in facts for word in content_words(fact)}
    untold = {stem(word) for word in content_words(telling[0])} - held - _SAYS_NOTHING
    return len(untold) >= UNTOLD_WORDS


# A fact's vector and lexical terms read at most this many characters of the turn it came from:
# against 400, LoCoMo dev hit@5 0.787 vs 0.777 and block holds evidence 0.766 vs 0.756 (answer
# tokens 0.666 vs 0.672), our chats' answer tokens 0.729 vs 0.727, at half the added ingest CPU.
SAID_IN_CHARS = 200


def said_in(facts: Sequence[str], text: str) -> list[str | None]:
    """The words of the turn ``text`` each of its ``facts`` is searched with
    (``metadata.said_in``): None when the turn tells nothing the fact leaves out ("I drive a
    Volvo" -> "User drives a Volvo"), else the turn, or for a long one its sentences nearest the
    fact's own, in SAID_IN_CHARS. The turn is read once for all its facts.

    A fact is one clause of what was said, and a question often names what the clause beside it
    did: "User's apartment is tiny", read from "Just my cat Pickles. She's 9 ... but my apartment
    is tiny", is found by a question about the cat. Read with its turn, a fact is a better search
    key than either alone (LoCoMo dev hit@5 0.764 -> 0.787, our chats 0.918 -> 0.928); it is still
    shown as written."""
    told = {stem(word) for word in content_words(text)} - _SAYS_NOTHING
    text = " ".join(text.split())
    sentences: list[str] = []
    sentence_words: list[set[str]] = []
    out: list[str | None] = []
    for fact in facts:
        held = {stem(word) for word in content_words(fact)}
        if len(told - held) < UNTOLD_WORDS:
            out.append(None)
        elif len(text) <= SAID_IN_CHARS:
            out.append(text)
        else:
            if not sentences:
                sentences = [m.group(0).strip() for m in _SENTENCE.finditer(text) if m.group(0).strip()]
                sentence_words = [{stem(word) for word in content_words(s)} for s in sentences]
            out.append(_nearest(sentences, [len(held & words) for words in sentence_words]))
    return out


def _nearest(sentences: list[str], shared: list[int]) -> str:
    """The sentences around the one sharing the most words with a fact, in SAID_IN_CHARS."""
    first = last = shared.index(max(shared))
    size = len(sentences[first])
    # Neighbours join while they fit, the sentence before first: what a clause is about was more
    # often said before it than after.
    while True:
        before = len(sentences[first - 1]) + 1 if first > 0 else None
        after = len(sentences[last + 1]) + 1 if last + 1 < len(sentences) else None
        if before is not None and size + before <= SAID_IN_CHARS:
            first, size = first - 1, size + before
        elif after is not None and size + after <= SAID_IN_CHARS:
            last, size = last + 1, size + after
        else:
            break
    words = " ".join(sentences[first : last + 1])
    # One sentence longer than the limit is cut at a word.
    return words if len(words) <= SAID_IN_CHARS else words[:SAID_IN_CHARS].rsplit(" ", 1)[0]


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class RecentTurns:
    """The last few turns of each person's chat, both sides, kept in this process's memory only
    (never stored: a turn that is not the person's stores nothing): what a turn's "it" or "them"
    refers to is often in the question just before it. Turns further apart than WINDOW are not
    context; the least recently active people are forgotten first."""

    TURNS = 3
    WINDOW = timedelta(hours=6)
    PEOPLE = 10_000

    def __init__(self) -> None:
        # (when, text, whether the person said it) of each turn noted.
        self._turns: OrderedDict[tuple[str, str], deque[tuple[datetime, str, bool]]] = OrderedDict()
        self._lock = threading.Lock()

    def before(self, scope: tuple[str, str], said: datetime) -> list[str]:
        """The turns noted for ``scope`` within WINDOW before ``said``, oldest first."""
        with self._lock:
            turns = list(self._turns.get(scope, ()))
        return [text for at, text, _ in turns if timedelta(0) <= said - at <= self.WINDOW]

    def asked(self, scope: tuple[str, str], said: datetime) -> str | None:
        """The question the listener's turn just before ``said`` asked (``question_asked``), if
        the turn just before was theirs and within WINDOW."""
        with self._lock:
            turns = self._turns.get(scope)
            last = turns[-1] if turns else None
        if last is None or last[2] or not timedelta(0) <= said - last[0] <= self.WINDOW:
            return None
        return question_asked(last[1])

    def note(self, scope: tuple[str, str], said: datetime, text: str, *, by_person: bool = True) -> None:
        with self._lock:
            turns = self._turns.pop(scope, None) or deque(maxlen=self.TURNS)
            turns.append((said, text, by_person))
            self._turns[scope] = turns
            while len(self._turns) > self.PEOPLE:
                self._turns.popitem(last=False)


class Pipeline:
    """With ``backfill``, facts are stored without their vectors and embedded after the write
    answered (see retrieval/backfill.py); only a fact that supersede compares by likeness is
    embedded inline."""

    def __init__(
        self,
        store: Storage,
        extractor: Extractor,
        embedder: Embedder,
        superseder: Superseder | None = None,
        backfill: Backfill | None = None,
    ) -> None:
        self.store = store
        self.extractor = extractor
        self.embedder = embedder
        self.superseder = superseder
        self.backfill = backfill
        self._heavy = threading.Lock()
        # Texts the extractor failed on (each kept verbatim, with no facts): a health figure.
        self.extraction_failures = 0
        self._failures = threading.Lock()
        self.recent = RecentTurns()

    @contextmanager
    def _work(self, chars: int) -> Iterator[None]:
        if chars <= HEAVY_CHARS:
            yield
            return
        with self._heavy:
            yield

    def embed(
        self, texts: list[str], *, asked: str | None = None, said_in: Sequence[str | None] = ()
    ) -> np.ndarray:
        """The embedder's rows for ``texts``, each read after ``asked`` when given, or after its
        own words in ``said_in`` (large inputs wait for each other, see HEAVY_CHARS)."""
        reads = list(said_in) if said_in else [asked] * len(texts)
        searched = [searched_text(text, words) for text, words in zip(texts, reads, strict=True)]
        with self._work(sum(map(len, searched))):
            return self.embedder.embed(searched)

    def drafts(
        self,
        facts: list[str],
        *,
        scope: tuple[str, str] | None = None,
        asked: str | None = None,
        known: Mapping[str, np.ndarray] | None = None,
        said_in: Sequence[str | None] = (),
    ) -> Drafts:
        """``facts`` with their vectors, or PENDING ones when a background embedder gives them
        later. ``scope`` (tenant, user), given outside any unit of work, lets a fact that is
        compared with the user's older facts see those still pending. ``asked``: the question
        the texts answer, which their vectors read (a kept turn's ``metadata.asked``). ``known``:
        vectors the caller already has, by text (read without ``asked``): a state record's, whose
        text is the fact's, is the fact's too, and is not embedded twice. ``said_in``: the words
        of its turn each fact is read with (``said_in``), kept for its metadata."""
        reads = list(said_in) or [None] * len(facts)
        known = {} if known is None or asked is not None else known
        vectors = [
            PENDING if words else known.get(fact, PENDING) for fact, words in zip(facts, reads, strict=True)
        ]
        if self.backfill is None:
            wanted = [i for i, vector in enumerate(vectors) if vector is PENDING]
        else:
            compared = [bool(self.superseder and self.superseder.needs_vector(fact)) for fact in facts]
            if scope is not None and any(compared):
                self.backfill.flush(*scope)
            # A write finding a long backlog embeds its own facts, as every write did before.
            behind = self.backfill.behind()
            wanted = [i for i, vector in enumerate(vectors) if vector is PENDING and (compared[i] or behind)]
        if wanted:
            embedded = self.embed(
                [facts[i] for i in wanted],
                asked=asked,
                said_in=[reads[i] for i in wanted] if any(reads) else (),
            )
            for i, vector in zip(wanted, embedded, strict=True):
                vectors[i] = vector
        return Drafts(list(facts), vectors, reads if any(reads) else [])

    def echoes(self, prompt: str) -> set[str]:
        """The texts of the facts ``prompt`` gives when it arrives now as the person's turn."""
        _, content = resolve_role(None, prompt, None, {})
        if is_low_value(content):
            return set()
        facts, _ = self._facts(content, self.store.clock())
        return set(facts)

    def _facts(
        self, text: str, said: datetime, *, explicit: bool = False, context: Sequence[str] = ()
    ) -> tuple[list[str], bool]:
        """The facts of ``text``, their "it"/"them" read from ``text`` and the turns before it
        (``context``), dated against ``said``, and whether extraction failed.

        No text is lost to an extractor error: a failure is logged (its kind and place, never the
        text) and counted, and the caller keeps what the person wrote verbatim instead."""
        try:
            with self._work(len(text)):
                found = (
                    self.extractor.extract(text, explicit=True) if explicit else self.extractor.extract(text)
                )
            # "yesterday" in a fact read a year later is wrong: facts carry the date it meant.
            read = [resolve_referents(fact, text, context) for fact in found]
            # A fact of a chat still told of a bare "he" or "she" names no one: the kept turn says
            # it better. What the caller asked to store is stored as asked.
            return [resolve(fact, said) for fact in read if explicit or unnamed(fact) is None], False
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            log.error(
                "extraction failed (%s at %s:%d) on a %d-character text; kept verbatim with no facts",
                type(exc).__name__,
                where.filename.rsplit("/", 1)[-1],
                where.lineno or 0,
                len(text),
            )
            with self._failures:
                self.extraction_failures += 1
            return [], True

    def extract(self, text: str, *, explicit: bool = False, scope: tuple[str, str] | None = None) -> Drafts:
        """The facts of an explicit write, ready to store. When extraction fails, an explicit write
        stores its text as given (the caller chose to remember exactly that)."""
        text = nfc(text)
        facts, failed = self._facts(text, self.store.clock(), explicit=explicit)
        if failed and explicit and text.strip():
            facts = [text.strip()]
        return self.drafts(facts, scope=scope)

    def store_facts(
        self,
        tenant: str,
        user_id: str,
        drafts: Drafts,
        *,
        source: str,
        metadata: dict[str, Any],
        origin: Origin | None = None,
        labels: Labels | None = None,
    ) -> list[int]:
        """Stores each fact once per user: a fact the user already has is not stored again."""
        labels = labels or Labels()
        reads = drafts.said_in or [None] * len(drafts.texts)
        new = [
            NewFact(
                text=text,
                source=source,
                metadata=metadata if words is None else {**metadata, SAID_IN: words},
                vector=vector,
                origin=origin,
                tags=list(labels.tags),
                importance=labels.importance,
                event_type=labels.event_type,
                actor=labels.actor,
            )
            for text, vector, words in zip(drafts.texts, drafts.vectors, reads, strict=True)
        ]
        if self.superseder is None or not new:
            return self._add(tenant, user_id, new)
        with self.store.transaction():
            ids = self._add(tenant, user_id, new)
            # Every fact new (the usual case): the ids are theirs, in order, without a lookup.
            texts = [fact.text for fact in new]
            fresh = dict(zip(texts, ids, strict=True)) if len(ids) == len(set(texts)) == len(texts) else {}
            for fact in new:
                # A fact said again (already stored) is current again, as a new one is.
                stored_id = fresh.get(fact.text)
                if stored_id is None:
                    stored = self.store.facts.find_by_text(tenant, user_id, fact.text)
                    stored_id = None if stored is None else stored.id
                if stored_id is not None:
                    self.superseder.fact_stored(tenant, user_id, stored_id, fact.text, fact.vector)
        return ids

    def _add(self, tenant: str, user_id: str, facts: list[NewFact]) -> list[int]:
        # A storage call takes vectors of one width: pending and embedded facts go in turn, in order.
        ids: list[int] = []
        for _, run in groupby(facts, key=lambda fact: len(fact.vector)):
            ids += self.store.facts.add(tenant, user_id, list(run))
        return ids

    def plan_turn(
        self,
        *,
        text: str,
        role: str | None,
        speaker: str | None,
        occurred_at: str | None,
        metadata: dict[str, Any] | None,
        scope: tuple[str, str] | None = None,
        context: Sequence[str] | None = None,
        asked: str | None = None,
    ) -> TurnPlan:
        """What ingesting one turn will do. ``context``: the turns said just before it (a
        transcript gives them, with ``asked``, the question the turn answers); None takes those
        this process saw for ``scope`` (add_turn)."""
        meta = metadata or {}
        is_user, content = resolve_role(role, text, speaker, meta)
        content = nfc(content)  # one form of each character: stored, shown and matched alike
        said = read_time(occurred_at) or self.store.clock()
        if context is None:
            context = self.recent.before(scope, said) if scope is not None else []
            if scope is not None:
                asked = self.recent.asked(scope, said)
                self.recent.note(scope, said, content, by_person=is_user)
        if not is_user:
            return TurnPlan("skipped_non_user_turn")
        if is_low_value(content):
            return TurnPlan("skipped_low_value")
        digest = hashlib.sha256(
            json.dumps([speaker or "", occurred_at or "", text], ensure_ascii=False).encode("utf-8")
        ).hexdigest()
        english = reads_as_english(content)
        # The rules read English; a turn in another language is what was said, kept as it was.
        facts, failed = self._facts(content, said, context=context) if english else ([], False)
        # A fact that lost what it is about ("User will send it") is no memory of its own: the
        # turn, which names it, is kept in its place.
        fragments = [fact for fact in facts if not stands_alone(fact)]
        facts = [fact for fact in facts if fact not in fragments]
        kept = (
            failed
            or bool(fragments)
            or (self._worth_keeping(content, facts) if english else tells_in_any_language(content))
        )
        return TurnPlan(
            None,
            digest,
            self.drafts(facts, scope=scope, said_in=self._said_in(facts, content) if kept else ()),
            meta,
            turn=self.drafts([content.strip()], asked=asked) if kept else None,
            asked=asked if kept else None,
            said_at=iso(said),
        )

    def _said_in(self, facts: list[str], content: str) -> list[str | None]:
        """The words of the kept turn ``content`` each of its facts is searched with
        (``said_in``). Only a kept turn's: where the facts together hold what the turn told ("I'm
        allergic to peanuts and I live in Porto"), each read with the other's clause would answer
        the other's questions ("User lives in Porto" for a snack). None for a fact that
        supersede compares with older facts by its vector: its thresholds read what a fact says,
        and "User is single now" read with its turn found the wrong fact to replace (our update
        pairs: 100% -> 96% newer over older)."""
        return [
            None if self.superseder is not None and self.superseder.needs_vector(fact) else words
            for fact, words in zip(facts, said_in(facts, content), strict=True)
        ]

    def _worth_keeping(self, content: str, facts: list[str]) -> bool:
        try:
            return worth_keeping(content, facts)
        except Exception:
            log.error(
                "deciding whether to keep a %d-character turn failed; kept", len(content), exc_info=False
            )
            return True

    def commit_turn(
        self,
        tenant: str,
        user_id: str,
        plan: TurnPlan,
        *,
        source: str,
        session_id: str | None = None,
        origin: Origin | None = None,
    ) -> Outcome:
        """The writes of a planned turn: its replay receipt and its facts, in one unit of work."""
        if plan.skipped is not None or plan.drafts is None:
            return Outcome(plan.skipped or "skipped_low_value")
        with self.store.transaction():
            since = self.store.clock() - REPLAY_WINDOW
            if not self.store.receipts.claim_turn(tenant, user_id, plan.digest, since=since):
                return Outcome("skipped_replay", already_exists=True)
            tags = fact_metadata(
                plan.metadata,
                session_id=session_id,
                history_id=f"h_{origin[1]}" if origin and origin[0] == "history" else None,
                turn_role="user",
                occurred_at=plan.said_at,
            )
            kept = self._keep_turn(tenant, user_id, plan, source=source, metadata=tags, origin=origin)
            ids = self.store_facts(
                tenant,
                user_id,
                plan.drafts,
                source=source,
                metadata={
                    **tags,
                    "write_origin": "turn-extraction",
                    **({} if kept is None else {"distilled_from": f"m_{kept}"}),
                },
                origin=origin,
            )
        return Outcome("completed", fact_ids=([] if kept is None else [kept]) + ids)

    def _keep_turn(
        self,
        tenant: str,
        user_id: str,
        plan: TurnPlan,
        *,
        source: str,
        metadata: dict[str, Any],
        origin: Origin | None,
    ) -> int | None:
        """Stores the turn as a KEPT_TURN memory (once per text, like any memory); its id.

        What was said stays findable when extraction finds no fact in it (most chat turns) or
        loses a detail; listings of a person's facts leave this kind out unless asked."""
        if plan.turn is None or not plan.turn.texts:
            return None
        text = plan.turn.texts[0]
        new = NewFact(
            text=text,
            source=source,
            metadata={**metadata, "write_origin": "turn", **({ASKED: plan.asked} if plan.asked else {})},
            vector=plan.turn.vectors[0],
            origin=origin,
            event_type=KEPT_TURN,
        )
        ids = self.store.facts.add(tenant, user_id, [new])
        if ids:
            return ids[0]
        said_before = self.store.facts.find_by_text(tenant, user_id, text)
        return None if said_before is None else said_before.id
