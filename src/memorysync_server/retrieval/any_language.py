"""Recall's judgement of a prompt the English gate cannot read: is it about the person?

The gate (``gate.py``) compares a prompt with English examples through an English encoder. A
prompt in another language lands near every memory in that language alike, so a trivia question
in Spanish would bring back the person's whole life. Such a prompt is judged here instead: when it
speaks of the person (``language.persons``) the gate goes on as usual; otherwise only the memories
sharing a content word with it (a lexical term that is not a function word) may follow, and none
when there is none: "¿Cuál es la capital de Australia?" concerns nothing the person said, while
"¿Qué instrumento toco?" shares "toco" with "Toco la guitarra".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..domain import Fact
from ..language.detect import FUNCTION_WORDS
from ..language.persons import speaks_of_person
from ..language.scripts import CJK, has_letters, query_terms, terms
from ..language.words import STOPWORDS

__all__ = ["about_the_person"]

T = TypeVar("T", bound=tuple[Fact, float])

# Words that carry no topic, in the folded form ``terms`` gives them (Arabic and Hebrew ones too).
_FUNCTION = frozenset(
    t
    for word in STOPWORDS.union(
        *FUNCTION_WORDS.values(),
        [
            "في",
            "من",
            "إلى",
            "الى",
            "على",
            "عن",
            "مع",
            "هذا",
            "هذه",
            "ذلك",
            "تلك",
            "التي",
            "الذي",
            "ما",
            "ماذا",
            "هل",
            "كم",
            "كيف",
            "أين",
            "متى",
            "لماذا",
            "أي",
            "هو",
            "هي",
            "كان",
            "و",
            "أو",
            "ثم",
            "قد",
            "لا",
            "لم",
            "لن",
            "كل",
            "بعض",
            "של",
            "את",
            "על",
            "עם",
            "זה",
            "זו",
            "מה",
            "מי",
            "איך",
            "איפה",
            "מתי",
            "למה",
            "כן",
            "לא",
            "גם",
        ],
    )
    for t in terms(word)
)
# Chinese and Japanese pairs made only of these say nothing of a topic ("什么", "是的").
_PARTICLES = frozenset(
    "的是了在我你他她它们吗呢吧啊么什哪里这那个一不有和也都就很会能要说怎样多少请把成以于为与之"
)


def _han(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _weight(term: str) -> float:
    """How much sharing ``term`` says that two texts share a topic: a word or a pair holding a
    Chinese character (kanji) 1, a pair of katakana 0.5 (loanwords are long: "トラ" is in both
    トランペット and オーストラリア), a pair of hiragana (grammar: して, ます) or particles 0."""
    if not has_letters(term, CJK):
        return 0.0 if term in _FUNCTION or (len(term) < 2 and not term.isdigit()) else 1.0
    if any(_han(ch) and ch not in _PARTICLES for ch in term):
        return 1.0
    if all("\u30a0" <= ch <= "\u30ff" for ch in term):
        return 0.5
    return 1.0 if not any("\u3040" <= ch <= "\u30ff" for ch in term) and not set(term) <= _PARTICLES else 0.0


def about_the_person(prompt: str, ranked: Sequence[T]) -> list[T]:
    """``ranked`` when ``prompt`` speaks of the person; else those of its memories that share a
    content term with it."""
    if speaks_of_person(prompt):
        return list(ranked)
    asked = {t: w for t in query_terms(prompt) if (w := _weight(t))}
    return [pair for pair in ranked if sum(asked.get(t, 0.0) for t in set(terms(pair[0].text))) >= 1.0]
