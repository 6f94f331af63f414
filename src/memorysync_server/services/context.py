"""Recall's ``context``: the block an agent pastes into its prompt, one line per memory.

Every line starts with the day the memory was said, so a model asked "when did she go?" can
answer from the block. A kept turn (what the person said, verbatim) shows as a quote with its
relative time phrases dated in brackets, and is cut to a few lines: a long message's gist is
enough to answer from, and the block stays small for the model.

    - [8 May 2023] User went to a LGBTQ support group on 7 May 2023
    - [8 May 2023] User said: "I went to a LGBTQ support group yesterday (7 May 2023) and ..."
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from datetime import date

from ..domain import KEPT_TURN, Fact
from ..extraction import day, resolve
from ..language.scripts import CAPITALISED
from ..language.words import content_words, stem

__all__ = ["FILL", "SHORT_FACT", "block", "fit", "in_their_words", "widened"]

# A recall ranks this many places for each one asked for (``k``): the k best take their lines
# first, and while the character budget has room the next best follow. Short facts leave much
# of a budget unused otherwise (LoCoMo dev: 564 of 700 characters a question).
FILL = 2
# A kept turn longer than this is cut at a word boundary in the block.
TURN_CHARS = 360
# When the budget has less room left, a kept turn is cut to fit if this much of it still can.
MIN_QUOTE = 100
QUOTE_FRAME = len('- [30 September 2023] User said: "" …')
# A fact of at most this many words shows as its kept turn when the block has room (``fit``).
# LoCoMo dev answer tokens 0.702 at none, 0.702 / 0.704 / 0.706 / 0.700 at 4 / 6 / 8 / 10 words;
# our chats 0.767, then 0.777 / 0.777 / 0.779 / 0.782; blocks hold the evidence less often past 8
# (dev 0.795, 0.790 at 8, 0.774 at 10): a whole turn takes the room of the next memories.
SHORT_FACT = 8


def _cut(text: str, limit: int = TURN_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def line(fact: Fact, limit: int = TURN_CHARS, *, of: str | None = None) -> str:
    """The memory as the model reads it (a kept turn quoted in at most ``limit`` characters; ``of``:
    whom it speaks of, when it only calls them "he" or "she")."""
    said = fact.said_at
    if fact.event_type == KEPT_TURN:
        # Only what the line can show is dated: resolving all of a 16,000-character turn took
        # 13 ms, for a line of at most ``limit`` characters (twice that leaves room for the dates
        # added and keeps a phrase at the cut whole).
        shown = fact.text if len(fact.text) <= 2 * limit else " ".join(fact.text.split())[: 2 * limit]
        who = f" (of {of})" if of else ""
        return f'- [{day(said)}] User said{who}: "{_cut(_dated(shown, said.date()), limit)}"'
    return f"- [{day(said)}] {fact.text}"


# Whom a fact is told of, when that is not the person: "Rui" of "Rui is an architect", "User's
# dad" of "User's dad needs a knee replacement", "Hana" of "User's sister Hana starts in May".
_TOLD_OF = re.compile(
    rf"^(?:User's\s+(?:[a-z-]+\s+)*?(?P<rel>[a-z-]+)(?:\s+(?P<name>{CAPITALISED}))?|(?!User\b)(?P<other>{CAPITALISED}))\b"
)


@functools.lru_cache(maxsize=4096)
def _dated(text: str, said: date) -> str:
    """A kept turn's words with their time phrases dated. A person's turns come back recall after
    recall, and dating one took about 0.1 ms of a 6 ms recall; a turn is read at most
    ``2 * TURN_CHARS`` characters here, so the cache holds at most a few megabytes."""
    return resolve(text, said, style="annotate")


def unnamed_in(fact: Fact, said: Fact) -> str | None:
    """Whom ``fact`` is told of when its turn ``said`` never names them: "Rui is an architect"
    came from "He's an architect" after "What does Rui do?", so the turn quoted in the fact's place
    says whom it is about ("User said (of Rui): ...")."""
    m = _TOLD_OF.match(fact.text)
    if m is None:
        return None  # told of the person: their "I"
    word = m["name"] or m["rel"] or m["other"]
    if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", said.text, re.IGNORECASE):
        return None
    return m.group(0)


def block(facts: Iterable[Fact]) -> str:
    return "\n".join(line(fact) for fact in facts)


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_CHATTER = re.compile(
    r"^\W*(?:hi|hey|hello|heya|yo|wow|aw+|oh|omg|thanks|thank\s+you|thx|cheers|congrats|congratulations|"
    r"bye|see\s+you|take\s+care|talk\s+(?:to\s+you\s+)?soon|catch\s+you|good\s+(?:luck|night|morning)|"
    r"haha|lol|yeah|yep|yes|no|sure|ok|okay|cool|nice|great|awesome|amazing|glad|sorry)\b",
    re.IGNORECASE,
)


# A capitalised word set off by a comma at either end of a sentence: how a chat addresses the listener.
_ADDRESSED = re.compile(rf"^\W*({CAPITALISED})(?=\s*,)|,\s*({CAPITALISED})\W*$")
_TO_THEM = re.compile(r"\b(?:you|your|you're|yours|yourself)\b", re.IGNORECASE)
_OF_ME = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|us)\b", re.IGNORECASE)
# How a reaction to what the listener said opens ("That's great news, Caroline!").
_REACTION = re.compile(r"^\W*(?:that'?s|that\s+is|what\s+an?|how|so|sounds|it'?s|you'?re)\b", re.IGNORECASE)


# A turn longer than this is never only talk to the listener: nobody greets for 2,000 characters,
# and reading a 16,000-character turn sentence by sentence took up to 7 ms a line.
CHATTER_CHARS = 2000


def chatter(text: str, prompt: str) -> bool:
    """Whether a kept turn only talks to the listener: every sentence a question to them, a
    greeting, thanks or a short reaction ("Take care, Maria. Catch you soon!"), or about them and
    not the speaker ("Love seeing your dedication to helping others."). A sentence of the speaker's
    own that shares a word with the prompt makes it more; a question never does ("Any projects
    or activities you're looking forward to?" tells nothing of the speaker's activities)."""
    if len(text) > CHATTER_CHARS:
        return False
    asked = {stem(w) for w in content_words(prompt)}
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0).strip()
        if not sentence:
            continue
        if sentence.endswith("?"):
            continue
        words = [stem(w) for w in content_words(sentence)]
        if not _OF_ME.search(sentence) and (
            _TO_THEM.search(sentence) or (_REACTION.match(sentence) and len(words) <= 3)
        ):
            continue
        # The name it calls the listener by ("Take care, Maria.") is no word shared with a
        # question that names them.
        named = {stem(w.lower()) for pair in _ADDRESSED.findall(sentence) for w in pair if w}
        if asked & (set(words) - named):
            return False
        if not (_CHATTER.match(sentence) and len(words) <= 3):
            return False
    return True


def _overlap(asked: set[str], text: str) -> int:
    return len(asked & {stem(w) for w in content_words(text)})


def _its_turn(fact: Fact, prompt: str, turn: Callable[[Fact], Fact | None]) -> Fact | None:
    """The kept turn ``fact`` was distilled from, when a block may show it instead (None: none).
    Never the prompt itself: recall leaves out the turn it answers (retrieval/said.py), and a
    fact of it that extraction in context worded otherwise must not bring it back whole."""
    said = turn(fact)
    if said is None or said.event_type != KEPT_TURN or said.text.strip() == prompt.strip():
        return None
    return said


def in_their_words(
    ranked: list[tuple[Fact, float]], prompt: str, budget: int, turn: Callable[[Fact], Fact | None]
) -> list[tuple[Fact, float]]:
    """``ranked`` with the best match in the person's own words: a fact gives way to the kept
    turn it was distilled from (``turn``: that turn, or None) when the turn shares more of the
    prompt's words than the fact does (extraction dropped what the question asks about) or
    fits in a third of the block. A fact is one clause of what was said; the answer is often in
    the clause beside it. Only the best match: each turn shown whole takes the room of two or
    three facts, and the next matches are what a question about several things needs; room the
    block leaves unused goes to the others' turns afterwards (``widened``)."""
    if not ranked or ranked[0][0].event_type == KEPT_TURN:
        return ranked
    best, score = ranked[0]
    said = _its_turn(best, prompt, turn)
    if said is None or unnamed_in(best, said):
        return ranked  # the fact names whom the turn calls "he"; its own line says so
    asked = {stem(w) for w in content_words(prompt)}
    third = budget // 3
    # A line is never shorter than its turn's words: dating a long turn's phrases is skipped.
    if _overlap(asked, said.text) > _overlap(asked, best.text) or (
        len(" ".join(said.text.split())) <= third and len(line(said)) <= third
    ):
        return [(said, score), *ranked[1:]]
    return ranked


def fit(
    ranked: list[tuple[Fact, float]],
    prompt: str,
    budget: int,
    turn: Callable[[Fact], Fact | None] | None = None,
) -> list[tuple[Fact, float, str]]:
    """The memories of the recall block and their lines, best first, in at most ``budget``
    characters: each memory that fits in what is left takes a line (the first always does, cut to
    the budget). A kept turn that only talks to the listener (``chatter``) takes no line unless
    nothing else does: the budget goes to what the person told, and a question they once asked in
    the words of today's prompt ("Any other hobbies you're picking up this year?") would otherwise
    lead the block.

    A short fact (``SHORT_FACT`` words or fewer: "User coaches them every
    Saturday", "User could not let her go") takes the line of the kept turn it came from
    (``turn``) when that fits in what is left: so few words rarely hold what a question about
    them asks ("the Kirkstall Comets", "a little black cat with only one eye" are in the turn).
    A fact whose turn already has a line takes none: its words are there."""
    told = [
        (fact, score)
        for fact, score in ranked
        if not (fact.event_type == KEPT_TURN and chatter(fact.text, prompt))
    ]
    out: list[tuple[Fact, float, str]] = []
    shown: set[int] = set()
    left = budget
    for fact, score in told or ranked[:1]:
        said = _its_turn(fact, prompt, turn) if turn is not None and fact.event_type != KEPT_TURN else None
        if said is not None and said.id in shown:
            continue
        text = line(fact)
        if said is not None and len(fact.text.split()) <= SHORT_FACT:
            quoted = line(said, of=unnamed_in(fact, said))  # dates the turn's phrases: once
            if len(quoted) <= left:
                fact, text = said, quoted
        if fact.id in shown:
            continue
        if len(text) > left and fact.event_type == KEPT_TURN and left - QUOTE_FRAME >= MIN_QUOTE:
            text = line(fact, left - QUOTE_FRAME)  # a turn's first words rather than none
        if len(text) > left:
            if out:
                continue
            text = text[: max(left - 2, 0)].rsplit(" ", 1)[0] + " …"
        out.append((fact, score, text))
        shown.add(fact.id)
        left -= len(text) + 1
        if left <= 0:
            break
    return out


def widened(
    lines: list[tuple[Fact, float, str]], prompt: str, budget: int, turn: Callable[[Fact], Fact | None]
) -> list[tuple[Fact, float, str]]:
    """``lines`` (from ``fit``) with each fact, best first, giving way to the kept turn it was
    distilled from while the budget has room for the whole turn. The room is what the block left
    unused: a gate that passed few memories leaves a short block, and the clause beside a fact
    often holds what the question asks ("I'm starting to realize that self-care is really
    important ... I'm able to better look after my family" stored as two facts, one shown).
    No memory is added, so the gate still decides what the block is about.

    Measured (eval/conversations.py): LoCoMo dev answer tokens 0.692 -> 0.702 at 676 characters,
    our chats 0.750 -> 0.774. Letting the k best widen before the next best fill the budget
    measured 0.698 / 0.778; widening only a turn that shares more of the prompt's words than its
    fact 0.697 / 0.753: the clause beside a fact answers without repeating the question."""
    left = budget - sum(len(text) + 1 for _, _, text in lines) + 1
    out = list(lines)
    shown = {fact.id for fact, _, _ in lines if fact.event_type == KEPT_TURN}
    for n, (fact, score, text) in enumerate(out):
        if left <= 0:
            break
        if fact.event_type == KEPT_TURN:
            continue
        said = _its_turn(fact, prompt, turn)
        if said is None or said.id in shown:
            continue
        wider = line(said, of=unnamed_in(fact, said))
        if len(wider) - len(text) <= left:
            out[n] = (said, score, wider)
            shown.add(said.id)
            left -= len(wider) - len(text)
    return out
