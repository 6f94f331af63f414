"""The default embedder and the recall relevance threshold, with the numbers behind the choice."""

from __future__ import annotations

import numpy as np
import pytest

from memorysync_server.model import HashingEmbedder
from memorysync_server.retrieval.ranking import NOISE_FLOOR, RELEVANCE_THRESHOLD

FACTS = [
    "User is vegan",
    "User moved to Oslo",
    "User always takes the window seat",
    "User's name is Ada",
    "User plays the cello",
]


def _scores(prompt: str) -> dict[str, float]:
    embedder = HashingEmbedder()
    matrix = embedder.embed(FACTS)
    return dict(zip(FACTS, (matrix @ embedder.embed([prompt])[0]).tolist(), strict=True))


@pytest.mark.parametrize(
    ("prompt", "facts"),
    [
        # A flight to Oslo concerns both the move (shared word) and the seat (travel topic).
        ("Book me a flight to Oslo", {"User moved to Oslo", "User always takes the window seat"}),
        ("What should I eat tonight?", {"User is vegan"}),
        ("Any seat preference?", {"User always takes the window seat"}),
        ("What is my name?", {"User's name is Ada"}),
        ("Which instrument do I play?", {"User plays the cello"}),
    ],
)
def test_related_prompts_clear_the_threshold_and_only_they_do(prompt: str, facts: set[str]) -> None:
    scores = _scores(prompt)
    assert {fact for fact, score in scores.items() if score >= RELEVANCE_THRESHOLD} == facts


@pytest.mark.parametrize("prompt", ["Tell me a joke", "What is the weather like?", "hello", "2 + 2 = ?"])
def test_unrelated_prompts_stay_below_the_noise_floor(prompt: str) -> None:
    assert max(_scores(prompt).values()) < NOISE_FLOOR < RELEVANCE_THRESHOLD


def test_vectors_are_unit_length_or_zero_and_deterministic() -> None:
    embedder = HashingEmbedder()
    rows = embedder.embed(["User is vegan", "", "!!!"])
    assert np.isclose(np.linalg.norm(rows[0]), 1.0)
    assert not rows[1].any() and not rows[2].any()
    assert np.array_equal(rows[0], HashingEmbedder().embed(["User is vegan"])[0])
