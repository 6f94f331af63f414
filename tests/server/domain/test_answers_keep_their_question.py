"""An answer is found by the question it answered: a kept turn that follows the listener's
question carries it (``metadata.asked``) into its vector and lexical terms, while its text, its
line in the block and the transcript stay as said. Over real HTTP, through ``add_turn`` and
``/v1/history/append``."""

from __future__ import annotations

from ..api import Api

QUESTION = "Who performed at your daughter's birthday concert?"
# The answer never names the concert: alone, nothing in it says what it is about.
ANSWER = "Thanks! It was Matt Patterson, he is so talented. His voice gave me goosebumps."
ASKED_LATER = "Who performed at the birthday concert?"
# Other things the person said, so the answer must outrank something to be found.
OTHER = [
    "I went to a pottery class yesterday, it was so calming after a long week at work.",
    "My son got into a small accident on the road trip, but thankfully he is okay now.",
    "We adopted another cat named Bailey last month, the kids adore her already.",
    "Work has been busy, I'm leading the new design project for a museum website.",
]


def _rank(api: Api, user: str) -> int | None:
    found = api.v1("/v1/memory/query", user, prompt=ASKED_LATER, k=10)["memories"]
    texts = [m["text"] for m in found]
    return texts.index(ANSWER) if ANSWER in texts else None


def _score(api: Api, user: str) -> float:
    found = api.v1("/v1/memory/query", user, prompt=ASKED_LATER, k=10)["memories"]
    return next((m["score"] for m in found if m["text"] == ANSWER), 0.0)


def _chat(api: Api, user: str, *, asked: bool) -> None:
    for text in OTHER:
        api.turn(user, text)
    if asked:
        api.turn(user, QUESTION, role="assistant")
    else:
        api.turn(user, "That's wonderful, I'm so glad the party went well.", role="assistant")
    api.turn(user, ANSWER)


def test_an_answer_is_found_by_the_question_it_answered_and_shown_as_said(api: Api) -> None:
    _chat(api, "asked", asked=True)
    _chat(api, "not-asked", asked=False)
    found = api.v1("/v1/memory/query", "asked", prompt=ASKED_LATER, k=10)["memories"]
    answer = next(m for m in found if m["text"] == ANSWER)
    assert answer["metadata"]["asked"] == QUESTION
    assert _rank(api, "asked") == 0
    # The question is what the later one matches: the same answer unasked scores far lower.
    assert _score(api, "asked") > _score(api, "not-asked") + 0.1
    block = api.v1("/v1/memory/recall", "asked", prompt=ASKED_LATER, k=5)["context"]
    assert "Matt Patterson" in block.splitlines()[0]
    assert "birthday concert" not in block  # the block quotes what the person said, not the question


def test_a_greeting_question_is_not_carried(api: Api) -> None:
    api.turn("g", "How are you doing, Grace?", role="assistant")
    api.turn("g", "Tired, haha. Noor is eight months now and she's decided sleep is optional.")
    kept = api.v1("/v1/memory/query", "g", prompt="How old is Noor?", k=5)["memories"]
    assert kept and all("asked" not in m["metadata"] for m in kept)


def test_a_transcript_carries_the_question_too(api: Api) -> None:
    for text in OTHER:
        api.turn("t", text)
    api.v1(
        "/v1/history/append",
        "t",
        session_id="s1",
        turns=[
            {"role": "assistant", "content": QUESTION, "seq": 0},
            {"role": "user", "content": ANSWER, "seq": 1},
        ],
    )
    assert _rank(api, "t") == 0
    items = api.v1("/v1/history/list", "t", session_id="s1")["items"]
    assert [i["content"] for i in items] == [QUESTION, ANSWER]  # the transcript is as said
