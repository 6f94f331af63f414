"""The person's next turn after one that matches a question rises toward it: "Honestly I'm a
nervous wreck" says how they feel about the opening the turn before named, without naming it
(``ranking.followed``). Over real HTTP on both engines; what rises and what does not is pinned
on the arrays below."""

from __future__ import annotations

import numpy as np

from memorysync_server.retrieval.index import FACT, TURN, UNKNOWN
from memorysync_server.retrieval.ranking import FOLLOW_WEIGHT, followed

from ..api import Api

OPENING_DAY, EARLIER, LATER = "2024-05-03T18:00:00Z", "2024-04-20T10:00:00Z", "2024-05-10T09:00:00Z"
# Feelings and openings of other days, each nearer the question than the nervous turn on its own.
OTHERS = [
    (EARLIER, "I teach a hip-hop class for teenagers every Saturday morning."),
    (LATER, "Work has been calm this week, I'm feeling relaxed."),
    (EARLIER, "The opening of the new mall downtown was chaotic."),
    (LATER, "I felt nervous before my driving test."),
    (EARLIER, "I loved the energy at the art gallery opening on Friday."),
    (EARLIER, "I feel great after my morning runs along the river."),
]
OPENING = "The grand opening of my dance studio is tomorrow night!"
NERVOUS = "Honestly I'm a nervous wreck, I haven't slept properly in two days."
ASKED = "How did Jon feel before the grand opening of his studio?"


def _ranked(api: Api, user: str) -> list[str]:
    return [m["text"] for m in api.v1("/v1/memory/query", user, prompt=ASKED, k=10)["memories"]]


def test_the_turn_after_a_match_rises_with_it(api: Api) -> None:
    for when, text in OTHERS:
        api.turn("jon", text, occurred_at=when)
    api.turn("jon", OPENING, occurred_at=OPENING_DAY)
    api.turn("jon", NERVOUS, occurred_at=OPENING_DAY)
    ranked = _ranked(api, "jon")
    # Alone, the nervous turn ranks sixth, below every feeling and opening of the other days;
    # lifted, second (third where the encoder's graph reads the gallery's opening a hair closer).
    assert "opening of my dance studio" in ranked[0], ranked
    assert any("nervous wreck" in text for text in ranked[1:3]), ranked
    # k=2: two lines, and up to two more while the budget has room (context.FILL).
    block = api.v1("/v1/memory/recall", "jon", prompt=ASKED, k=2)["context"]
    assert "dance studio" in block and "nervous wreck" in block, block


def test_a_turn_said_another_day_does_not_rise(api: Api) -> None:
    for when, text in OTHERS:
        api.turn("ana", text, occurred_at=when)
    api.turn("ana", OPENING, occurred_at=OPENING_DAY)
    api.turn("ana", NERVOUS, occurred_at=LATER)  # stored next, said a week later: another talk
    ranked = _ranked(api, "ana")
    nervous = next(i for i, text in enumerate(ranked) if "nervous wreck" in text)
    assert nervous > ranked.index("User felt nervous before their driving test"), ranked


def test_only_the_next_kept_turn_of_the_same_day_rises_and_nothing_chains() -> None:
    # Rows in stored order: turn 10 (kept, with a fact), turn 12 (kept), turn 13 (kept), fact 14
    # stored without its turn, turn 15 (kept) said the next day.
    turns = np.array([10, 10, 12, 13, 14, 15], dtype=np.int64)
    kinds = np.array([TURN, FACT, TURN, TURN, FACT, TURN], dtype=np.int8)
    days = np.array([5, 5, 5, 5, 5, 6], dtype=np.int32)
    scores = np.array([0.8, 0.6, 0.1, 0.05, 0.02, 0.01], dtype=np.float32)
    rows = np.arange(6)
    out = followed(scores, rows, turns, kinds, days, leaders=6)
    lifted = 0.1 + FOLLOW_WEIGHT * (0.8 - 0.1)
    assert np.isclose(out[2], lifted)  # the turn after the match rises toward it
    assert np.isclose(out[3], 0.05 + FOLLOW_WEIGHT * (0.1 - 0.05))  # led by turn 12's own 0.1, not its lift
    assert out[4] == scores[4]  # a fact stored without its turn does not rise
    assert out[5] == scores[5]  # said another day
    assert np.array_equal(out[:2], scores[:2])
    # The coarse stage scored only some rows: a follower it left out is not added.
    some = np.array([0, 1, 3])
    out = followed(scores[some], some, turns, kinds, days, leaders=3)
    assert np.array_equal(out, scores[some])
    # A row edited since the index read it (UNKNOWN) leads nothing and is not lifted.
    edited = kinds.copy()
    edited[0] = edited[1] = UNKNOWN
    assert np.array_equal(followed(scores, rows, turns, edited, days, leaders=1), scores)
