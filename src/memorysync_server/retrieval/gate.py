"""The recall relevance gate: is this prompt about the person, and is this fact about the prompt?

A fixed cosine cut cannot tell "Can the user have milk?" (a personal question whose fact,
"User is lactose intolerant", scores ~0.3) from "Translate 'I like coffee' into French" (an
impersonal task that scores ~0.3 against "User drinks four espressos a day"). So the cut moves
with the prompt: ``threshold = BASE - SLOPE * personal(prompt)``, where ``personal`` is how much
closer the prompt is to questions about a person than to impersonal requests (maths, code,
trivia, translation, writing). Both example sets below are written for this purpose (none is
taken from the evaluation data); a prompt is compared with its nearest few of each.

The gate judges the prompt as written, yet recall encodes only its third-person reading (what
facts are ranked against, ``text.third_person``): "How do I sort a list?" is a task, while "How
do the user sort a list?" sounds like a question about someone. So for a retold prompt the gate
first takes the retelling back out of the vector (``RelevanceGate.threshold``, ``retold``).
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from typing import Any

import numpy as np

from ..domain import KEPT_TURN, Fact
from ..language.words import third_person
from ..model import Embedder
from .ranking import companion_threshold

__all__ = ["RelevanceGate", "passed"]

BASE = 0.35
SLOPE = 1.0
NEAREST = 5

PERSONAL = (
    "What do you know about me?",
    "What does the user like to eat?",
    "Where is she from?",
    "Does he have any kids?",
    "Recommend a restaurant for my birthday dinner.",
    "Plan a weekend trip for us.",
    "What should I get my partner for our anniversary?",
    "Which hotel would suit him best?",
    "Can you suggest a gift for my mother?",
    "Is there anything I can't eat?",
    "What time do I usually wake up?",
    "Remind me what my sister's name is.",
    "Book a table for the user tonight.",
    "What kind of music does she enjoy?",
    "Suggest a workout that fits my schedule.",
    "What languages does the user speak?",
    "Which airline does he prefer?",
    "Help me pick a phone that suits me.",
    "Does the user have any allergies?",
    "What are my plans for next month?",
    "How should I budget for my holiday given my savings goal?",
    "What does his wife do?",
    "Does she own a car?",
    "What sports does the user follow?",
    "Pick a movie I would like.",
    "What is the user's job?",
    "Where did I go on holiday last year?",
    "Which seat does the user want?",
    "What medication is she taking?",
    "Is the user married?",
    "Suggest a dessert he can have.",
    "How does the user get to work?",
    "What pets does the user have?",
    "What's my favourite food?",
    "Would the user enjoy a hiking trip?",
    "Where does he live now?",
    "Which bank do I use?",
    "Who is my doctor?",
    "What did the user study?",
    "Any dietary restrictions I should know about for her?",
)
IMPERSONAL = (
    "What is the capital of Canada?",
    "Calculate 48 divided by 6.",
    "Write a short poem about the sea.",
    "How do I sort a dictionary by value in Python?",
    "Translate 'where is the train station' into German.",
    "Who painted the Mona Lisa?",
    "Explain how photosynthesis works.",
    "What year did the Berlin Wall fall?",
    "Write a JavaScript function that debounces another function.",
    "What is the derivative of x squared?",
    "Give me a synonym for happy.",
    "How far is the Moon from the Earth?",
    "Summarise the theory of relativity in one paragraph.",
    "What's the difference between TCP and UDP?",
    "Write a cover letter template for a software job.",
    "How many bones are in the human body?",
    "Translate 'good night' into Italian.",
    "What is 15 percent of 240?",
    "Explain recursion with an example.",
    "Who won the football World Cup in 2010?",
    "Write a tweet announcing a product launch.",
    "What does the acronym NASA stand for?",
    "How do I centre a div in CSS?",
    "What is the chemical symbol for gold?",
    "Tell me a fun fact about octopuses.",
    "Convert 100 Fahrenheit to Celsius.",
    "Write a regular expression that matches an email address.",
    "What causes the seasons on Earth?",
    "Compose a short story opening about a lighthouse.",
    "How many continents are there?",
    "What is the time complexity of binary search?",
    "Proofread this sentence: their going to the park.",
    "Name three prime numbers greater than 50.",
    "What's the tallest mountain in Africa?",
    "How do I undo the last git commit?",
    "Translate 'I love reading books' into Portuguese.",
    "Write a limerick about a frog.",
    "What is the population of Japan?",
    "Explain what an API is to a beginner.",
    "What is the square of 19?",
)


# (personal examples, impersonal examples, the retelling's shift): the embedder's vectors.
Examples = tuple[np.ndarray, np.ndarray, np.ndarray]
_EXAMPLES: weakref.WeakKeyDictionary[Any, Examples] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _retelling_shift(embedder: Embedder, written: np.ndarray) -> np.ndarray:
    """How far retelling a prompt in the third person moves its vector, on average: the mean of
    (retold - as written) over the examples that have first-person words ("my", "I", "me")."""
    texts = PERSONAL + IMPERSONAL
    changed = [i for i, text in enumerate(texts) if third_person(text) != text]
    retold = embedder.embed([third_person(texts[i]) for i in changed])
    return np.asarray((retold - written[changed]).mean(axis=0), dtype=np.float32)


def _examples(embedder: Embedder) -> Examples:
    # Once per embedder and process: every server in the process shares the vectors, also those
    # whose model loaded in the background (model_loading.BackgroundEmbedder.wait: the model).
    wait = getattr(embedder, "wait", None)
    embedder = wait() if wait is not None else embedder
    with _LOCK:
        try:
            cached = _EXAMPLES.get(embedder)
        except TypeError:  # an embedder that cannot be weakly referenced
            cached = None
        if cached is None:
            personal, impersonal = embedder.embed(list(PERSONAL)), embedder.embed(list(IMPERSONAL))
            shift = _retelling_shift(embedder, np.vstack([personal, impersonal]))
            cached = (personal, impersonal, shift)
            with contextlib.suppress(TypeError):
                _EXAMPLES[embedder] = cached
        return cached


def warm_up(embedder: Embedder) -> None:
    """Build ``embedder``'s example vectors now, so the first recall does not pay for them."""
    _examples(embedder)


class RelevanceGate:
    """Per-prompt relevance threshold for one embedder (its example vectors are built at once,
    so the first recall does not pay for them)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._cached: Examples | None = None
        # A model still loading in the background (model_loading.BackgroundEmbedder) must not
        # hold up the server's start: its loader builds the vectors, or the first recall does.
        if getattr(embedder, "state", "loaded") == "loaded":
            self._cached = _examples(embedder)

    def _vectors(self) -> Examples:
        if self._cached is None:
            self._cached = _examples(self.embedder)
        return self._cached

    def personal(self, query: np.ndarray, *, retold: bool = False) -> float:
        """Mean cosine to the nearest personal examples minus that to the nearest impersonal ones.
        ``retold``: ``query`` encodes the prompt's third-person reading, not the prompt as written."""
        personal, impersonal, shift = self._vectors()
        if retold:
            # "the user" where the prompt said "I" pulls every task towards the personal examples
            # (read as is, 13 of the eval's 104 retold unrelated prompts got context: quiet 93.4%
            # -> 91.4%). The swap moves a vector by about the same amount whatever the sentence
            # says, so the mean move, taken back out, estimates the prompt as written without a
            # second encode (on the eval's retold prompts the personal score's mean error
            # 0.046 -> 0.031).
            query = query - shift
            query = query / max(float(np.linalg.norm(query)), 1e-9)
        near = min(NEAREST, len(PERSONAL), len(IMPERSONAL))
        return float(np.sort(personal @ query)[-near:].mean() - np.sort(impersonal @ query)[-near:].mean())

    def threshold(self, query: np.ndarray, *, retold: bool = False) -> float:
        """The score a fact needs to reach the recall context for this prompt (``retold``: see
        ``personal``)."""
        return BASE - SLOPE * self.personal(query, retold=retold)


def passed(
    ranked: list[tuple[Fact, float]],
    likeness: float,
    threshold: float,
    *,
    companions: bool,
    personal: bool = False,
) -> list[tuple[Fact, float]]:
    """The ``ranked`` memories (best first) that reach the recall context at ``threshold``: none
    unless the best score and the best ``likeness`` (before any lexical boost) reach it. No cut
    relative to the best score: a question often needs a second fact that scores well below the
    first ("What's the weather in my city?" needs where the person lives, below "User hates
    rain"): once the best memory passes, with ``companions`` the others need
    ``companion_threshold``. For a ``personal`` prompt the best score alone decides: recall is
    never stricter than search there, word matches included."""
    if not ranked:
        return []
    best = ranked[0][1]
    # For other prompts the likeness before any word match decides too: sharing a word with a
    # fact does not make a prompt about the person.
    if (best if personal else min(best, likeness)) < threshold:
        return []
    if companions:
        # A kept turn's many words often score above any fact: the others are measured
        # against the best fact, or one such turn would push every fact out of the block.
        facts = [score for fact, score in ranked if fact.event_type != KEPT_TURN]
        threshold = companion_threshold(threshold, max(facts, default=best))
    return [(fact, score) for fact, score in ranked if score >= threshold]
