"""A fact is searched with the turn it was read from (``metadata.said_in``) when the turn told more
than the fact holds: "User's apartment is tiny", read from a turn about the cat, is found by a
question about the cat, and is still shown as written. Over real HTTP, through ``add_turn``."""

from __future__ import annotations

from memorysync_server.services.pipeline import SAID_IN_CHARS, said_in

from ..api import Api

TURN = (
    "Just my cat Pickles, nine years old and barely tolerant of me. My girlfriend Elena keeps saying we "
    "should get a dog, but my apartment is tiny."
)
FACT = "User's apartment is tiny"
QUESTION = "Does the user's cat Pickles have much room?"
# Other things the person said, so the fact must outrank something to be found.
OTHER = [
    "I went to a pottery class yesterday, it was so calming after a long week at work.",
    "My son got into a small accident on the road trip, but thankfully he is okay now.",
    "Work has been busy, I'm leading the new design project for a museum website.",
    "I drive a 2012 Volvo estate.",
]


def _found(api: Api, user: str, prompt: str) -> list[dict]:
    return api.v1("/v1/memory/query", user, prompt=prompt, k=10)["memories"]


def _score(api: Api, user: str, prompt: str, text: str) -> float:
    return next((m["score"] for m in _found(api, user, prompt) if m["text"] == text), 0.0)


def test_a_fact_is_found_by_what_its_turn_said_beside_it(api: Api) -> None:
    for user in ("read", "alone"):
        for text in OTHER:
            api.turn(user, text)
    api.turn("read", TURN)
    api.turn("alone", "My apartment is tiny.")  # the same fact, from a turn that said nothing more
    facts = {m["text"]: m for m in api.facts("read")["memories"]}
    assert facts[FACT]["metadata"]["said_in"] == TURN
    assert "said_in" not in {m["text"]: m for m in api.facts("alone")["memories"]}[FACT]["metadata"]
    found = _found(api, "read", QUESTION)
    assert found[0]["text"] == FACT  # shown as extracted, not as the turn
    assert _score(api, "read", QUESTION, FACT) > _score(api, "alone", QUESTION, FACT) + 0.2


def test_facts_that_hold_their_whole_turn_are_searched_by_themselves(api: Api) -> None:
    api.turn("v", "I drive a 2012 Volvo estate.")
    api.turn("v", "I adopted a greyhound called Biscuit and we walk every morning by the canal.")
    # Each read with the other's clause, either would answer the other's questions.
    api.turn("v", "I am allergic to peanuts and I live in Porto.")
    assert all("said_in" not in m["metadata"] for m in api.facts("v")["memories"])
    block = api.v1("/v1/memory/recall", "v", prompt="What snack should I bring to the party tonight?")[
        "context"
    ]
    assert "allergic to peanuts" in block and "Porto" not in block


def test_a_fact_supersede_compares_by_its_vector_is_read_alone(api: Api) -> None:
    # Supersede's likeness thresholds read what a change says: "switched to a Pixel 8" read with
    # the sister's visit would have to be compared with the old phone through that visit.
    api.turn("p", "I use an old iPhone 8.")
    api.turn("p", "Big week here. I switched to a Pixel 8 and my sister Mia came to visit from Oslo.")
    facts = {m["text"]: m["metadata"] for m in api.facts("p")["memories"]}
    assert "said_in" not in facts["User switched to a Pixel 8"]
    assert "Pixel 8" in facts["User's sister Mia came to visit from Oslo"]["said_in"]
    assert facts["User uses an old iPhone 8"]["superseded_by"]
    assert _found(api, "p", "What phone does the user have?")[0]["text"] == "User switched to a Pixel 8"


def test_said_in_is_the_servers_own_key(api: Api) -> None:
    # A caller cannot choose the words a fact is found by: the key is dropped on the way in and
    # an edit leaves it as it is.
    api.turn("f", TURN, metadata={"said_in": "forged words", "channel": "web"})
    fact = next(m for m in api.facts("f")["memories"] if m["text"] == FACT)
    assert fact["metadata"]["said_in"] == TURN and fact["metadata"]["channel"] == "web"
    response = api.http.patch(
        f"/memory/{str(fact['memory_id']).removeprefix('m_')}",
        json={"metadata": {"said_in": "forged"}},
        headers={"X-End-User-ID": "f"},
    )
    assert response.status_code == 200, response.text
    fact = next(m for m in api.facts("f")["memories"] if m["text"] == FACT)
    assert fact["metadata"]["said_in"] == TURN


def test_said_in_keeps_a_long_turns_sentences_nearest_the_fact() -> None:
    filler = " ".join(f"Sentence number {n} is about nothing much at all really." for n in range(30))
    text = f"{filler} My sister Rosa had her baby, a boy called Lucas. {filler}"
    (words,) = said_in(["User's sister Rosa had her baby"], text)
    assert words is not None and len(words) <= SAID_IN_CHARS
    assert "My sister Rosa had her baby, a boy called Lucas." in words
    # The sentence before it comes first: what a clause is about is more often said before it.
    assert words.index("Rosa") > len(words) // 3
    short = "We moved to Leeds. The commute is long but the house is lovely."
    assert said_in(["User moved to Leeds"], short) == [short]
    assert said_in(["User moved to Leeds"], "We moved to Leeds!") == [None]
    # One sentence longer than the limit is cut at a word.
    rambling = "I love hiking " + "and walking and running and climbing and swimming " * 8 + "."
    (cut,) = said_in(["User loves hiking"], rambling)
    assert cut is not None and len(cut) <= SAID_IN_CHARS and rambling.startswith(cut + " ")
