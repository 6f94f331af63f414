"""What the model receives: a recall block within its character budget, chatter to the listener
left out, facts that keep their topic, and a gate that does not care about names. Over real
HTTP, on both engines."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from memorysync_server import LocalServer
from memorysync_server.domain import KEPT_TURN, Fact
from memorysync_server.services.context import (
    SHORT_FACT,
    TURN_CHARS,
    chatter,
    fit,
    in_their_words,
    line,
    widened,
)

from ..api import Api

MAY = "2023-05-08T13:56:00Z"


def _recall(api: Api, user: str, prompt: str, k: int = 5) -> dict:
    return api.v1("/v1/memory/recall", user, prompt=prompt, k=k)


def test_the_block_fits_its_budget_and_keeps_one_line_per_memory(db: str | Path) -> None:
    server = LocalServer(db, recall_chars=260)
    server.start()
    try:
        api = Api(server)
        for text in (
            "I run every morning before work, usually along the river for about ten kilometres.",
            "I ran the Oslo marathon last spring and finished in three hours and fifty minutes, my best so far.",
            "I'm training for a trail race in the mountains this autumn with my running club.",
            "My running shoes are Hokas, I buy a new pair every six months because my knees hurt otherwise.",
        ):
            api.turn("u", text, occurred_at=MAY)
        recalled = _recall(api, "u", "Tell me about my running.")
        block = recalled["context"]
        assert 0 < len(block) <= 260
        lines = block.split("\n")
        assert len(lines) == len(recalled["memories"]) >= 2  # the contract: one line per memory
        # Without the budget the same memories take more room.
        assert (
            sum(len(m["text"]) for m in api.v1("/v1/memory/query", "u", prompt="running", k=10)["memories"])
            > 260
        )
    finally:
        server.stop()


def test_room_left_in_the_budget_goes_to_the_next_best_memories(api: Api) -> None:
    # Short facts: two asked for leave most of the 700 characters unused.
    for text in (
        "I'm allergic to peanuts.",
        "I'm allergic to shellfish.",
        "I'm allergic to penicillin.",
        "I'm allergic to cats.",
        "I'm allergic to bee stings.",
        "I'm allergic to latex.",
    ):
        api.turn("u", text, occurred_at=MAY)
    prompt = "What am I allergic to?"
    ranked = [m["text"] for m in api.v1("/v1/memory/query", "u", prompt=prompt, k=10)["memories"]]
    recalled = _recall(api, "u", prompt, k=2)
    texts = [m["text"] for m in recalled["memories"]]
    assert 2 < len(texts) <= 4  # the k best, then the next best while there is room, at most 2k
    assert texts[:2] == ranked[:2]  # the k best come first, in their order
    assert len(recalled["context"]) <= 700


def test_a_turn_that_only_talks_to_the_listener_takes_no_line(api: Api) -> None:
    api.turn("u", "I adopted a greyhound called Juno from the shelter last week.", occurred_at=MAY)
    api.turn("u", "Thanks so much, Maria! How was your week? How are the kids?", occurred_at=MAY)
    api.turn("u", "Take care! Talk soon?", occurred_at=MAY)
    block = _recall(api, "u", "How is my week going with the new greyhound Juno?")["context"]
    assert "Juno" in block
    assert "Talk soon" not in block and "How are the kids" not in block


def test_a_question_to_the_listener_in_the_prompts_words_does_not_lead_the_block(api: Api) -> None:
    echo = (
        "That's great news, Sam! Love seeing your dedication to your hobbies."
        " Any other hobbies you're picking up this year?"
    )
    prompt = "Which hobbies have I picked up this year?"
    api.turn("u", echo, occurred_at=MAY)
    # With nothing else to say, what matches is better than an empty block.
    assert _recall(api, "u", prompt)["memories"][0]["text"] == echo
    api.turn(
        "u",
        "I picked up bouldering this year, twice a week at the hall, and I started learning the cello"
        " in March as a new hobby.",
        occurred_at=MAY,
    )
    # The question they asked Sam shares the most words with today's prompt and tells nothing.
    assert api.v1("/v1/memory/query", "u", prompt=prompt, k=5)["memories"][0]["text"] == echo
    recalled = _recall(api, "u", prompt)
    assert "bouldering" in recalled["context"]
    assert echo not in [m["text"] for m in recalled["memories"]]
    assert "dedication" not in recalled["context"]


@pytest.mark.parametrize(
    ("said", "talks_to_them"),
    [
        ("Any other hobbies you're picking up this year?", True),
        ("That's great news, Sam! Love seeing your dedication to your hobbies.", True),
        ("Wow, so proud of you! Take care.", True),
        ("It's my first hobby in years, so I'm picking it up slowly.", False),
        ("That's the hobby I picked up this year: bouldering.", False),
        ("Your cello teacher sounds great. I picked up bouldering this year.", False),
    ],
)
def test_what_only_talks_to_the_listener(said: str, talks_to_them: bool) -> None:
    assert chatter(said, "Which hobbies have I picked up this year?") is talks_to_them
    # Nobody greets for pages: a turn that long is read as telling, not scanned sentence by sentence.
    assert chatter((said + " ") * 200, "Which hobbies have I picked up this year?") is False


def test_calling_the_listener_by_name_is_no_match_for_a_question_naming_them(api: Api) -> None:
    # "Take care, Maria." shares only the name it calls her by with a question about her.
    api.turn("u", "I adopted a greyhound called Juno from the shelter last week.", occurred_at=MAY)
    api.turn("u", "Take care, Maria. Catch you soon!", occurred_at=MAY)
    block = _recall(api, "u", "What did I tell Maria about the greyhound Juno?")["context"]
    assert "Juno" in block and "Catch you soon" not in block


# Names with accents too: "Tomás" was read as no name at all.
@pytest.mark.parametrize(
    "name", ["Caroline", "Xu", "Calvin", "Melanie", "Aiko", "Omar", "Tomás", "Zoë", "Björn", "Łukasz"]
)
def test_a_question_naming_the_person_is_answered_whatever_the_name(api: Api, name: str) -> None:
    api.turn(
        "u", "I researched adoption agencies all week; it has been a dream to have a family.", occurred_at=MAY
    )
    assert "adoption" in _recall(api, "u", f"What did {name} research?")["context"]
    for question in (
        f"What is {name} hoping for?",
        f"Would {name} make a good parent?",
        f"How is {name}'s week?",
    ):
        # Recall is never stricter than search for a question about a person.
        searched = api.v1("/v1/memory/query", "u", prompt=question, k=5)["memories"]
        assert bool(_recall(api, "u", question)["context"]) == bool(searched), question


@pytest.mark.parametrize(
    "question",
    [
        "Where did she grow up?",  # the home town, not named
        "Tell me about her life: work, family and hobbies.",  # several parts of a life at once
        "Anything I should know before planning her birthday?",
    ],
)
def test_recall_is_never_empty_when_search_finds_a_fact_for_a_personal_question(
    api: Api, question: str
) -> None:
    api.turn("u", "I grew up in Tromsø, way up north, and moved to Bergen for work.", occurred_at=MAY)
    api.turn("u", "I work as a nurse and I play the cello in an amateur orchestra.", occurred_at=MAY)
    searched = api.v1("/v1/memory/query", "u", prompt=question, k=5)["memories"]
    assert searched
    assert _recall(api, "u", question)["context"] != ""


def test_a_fact_keeps_what_it_is_about_from_the_question_before_it(api: Api) -> None:
    api.turn("u", "Wow! How is your novel manuscript going?", role="assistant", occurred_at=MAY)
    api.turn("u", "I finally sent it off to the publisher last week.", occurred_at=MAY)
    assert api.texts("u") == [
        "User finally sent the novel manuscript off to the publisher in the week before 8 May 2023"
    ]
    # What the other side said is context only: nothing of it is stored.
    assert api.v1("/v1/memory/query", "u", prompt="Wow", k=10, types=["conversation"])["memories"] == []


def test_he_or_she_is_the_person_the_question_before_asked_about(api: Api) -> None:
    api.turn("u", "That's true love. What does Rui do?", role="assistant", occurred_at=MAY)
    api.turn("u", "He's an architect. He designs mostly schools and libraries.", occurred_at=MAY)
    api.turn("u", "How's your dad's knee? Did he see the doctor?", role="assistant", occurred_at=MAY)
    api.turn("u", "He did. He needs a knee replacement, and it's scheduled for August.", occurred_at=MAY)
    assert api.texts("u") == [
        "User's dad needs a knee replacement, and it's scheduled for August 2023",
        "Rui designs mostly schools and libraries",
        "Rui is an architect",
    ]
    assert "knee replacement" in _recall(api, "u", "What surgery does my dad need?")["context"]


def test_she_is_the_one_both_sides_went_on_about(api: Api) -> None:
    # The person's own turn named her; the assistant's only says "she"; so does the reply.
    api.turn("u", "My cousin lost her flat, so I'm helping her find a new place.", occurred_at=MAY)
    api.turn("u", "That's kind of you. How is she doing now?", role="assistant", occurred_at=MAY)
    api.turn("u", "She found a studio in Leith and starts a nursing course in June.", occurred_at=MAY)
    assert "User's cousin found a studio in Leith and starts a nursing course in June 2023" in api.texts("u")
    assert "Leith" in _recall(api, "u", "Where does my cousin live now?")["context"]


def test_he_or_she_that_nothing_names_gives_no_fact_and_the_turn_is_kept(api: Api) -> None:
    api.turn("u", "He's an architect and she designs gardens for hotels.", occurred_at=MAY)
    assert api.texts("u") == []
    kept = api.v1("/v1/memory/query", "u", prompt="architect gardens", k=5, types=["conversation"])
    assert [m["text"] for m in kept["memories"]] == ["He's an architect and she designs gardens for hotels."]


def test_a_there_after_going_names_the_place_the_sentence_before_named(api: Api) -> None:
    api.turn(
        "u",
        "I still don't own a car. But I'll rent one when I'm back from Osaka. "
        "I'm flying there next month to visit my grandmother for the holidays.",
        occurred_at=MAY,
    )
    texts = api.texts("u")
    assert "User is flying to Osaka in June 2023 to visit their grandmother for the holidays" in texts
    assert not any(" there " in text for text in texts)


def test_what_a_turn_goes_on_to_say_stays_with_its_fact_and_a_time_said_before_dates_it(api: Api) -> None:
    api.turn(
        "u",
        "Last week was really eye-opening. I visited a veteran's hospital and met some amazing people. "
        "It made me appreciate what we have and the need to give back.",
        occurred_at=MAY,
    )
    (fact,) = api.texts("u")
    assert fact.startswith(
        "User visited a veteran's hospital and met some amazing people in the week before 8 May 2023"
    )
    assert "appreciate" in fact and "give back" in fact


def test_the_best_line_never_brings_back_the_prompt_or_a_turn_that_is_gone() -> None:
    when = datetime(2023, 5, 8, tzinfo=timezone.utc)
    prompt = "My time was 4 hours and 12 minutes. I finally ran my first marathon!"
    turn = Fact(id=1, text=prompt, source="turn", metadata={}, created_at=when, event_type=KEPT_TURN)
    fact = Fact(
        id=2,
        text="User finally ran their first marathon",
        source="turn",
        metadata={"distilled_from": "m_1"},
        created_at=when,
    )
    ranked = [(fact, 0.9)]
    # A fact of the prompt's own turn that extraction in context worded otherwise than the
    # prompt's echo: it may rank, but the prompt does not come back whole.
    assert in_their_words(ranked, prompt, 700, lambda f: turn) == ranked
    assert in_their_words(ranked, "What was the marathon time?", 700, lambda f: None) == ranked
    assert in_their_words(ranked, "What was the marathon time?", 700, lambda f: turn) == [(turn, 0.9)]


def test_a_fact_gives_way_to_its_whole_turn_with_room_the_block_leaves(api: Api) -> None:
    said = (
        "I finished the pottery course at the community college last week, twelve Thursday evenings in"
        " a row. Honestly, it taught me to be patient with myself, and now I want to keep a wheel at"
        " home in the garage once we clear out all the old bikes."
    )
    api.turn("u", said, occurred_at=MAY)
    api.turn("u", "My sister lives in Lisbon with her two cats.", occurred_at=MAY)
    prompt = "What did the pottery course teach me?"
    (best, *_) = api.v1("/v1/memory/query", "u", prompt=prompt, k=5)["memories"]
    # Extraction kept the course and dropped what it taught; the turn is too long to stand in
    # for the best fact up front (in_their_words), but the block has room for it.
    assert "pottery course" in best["text"] and "patient" not in best["text"]
    recalled = _recall(api, "u", prompt)
    lines = recalled["context"].splitlines()
    assert len(lines) == len(recalled["memories"])
    assert "taught me to be patient with myself" in lines[0]
    assert recalled["memories"][0]["text"] == said
    assert len(recalled["context"]) <= 700


def fact(n: int, text: str, turn: int | None = None, kept: bool = False) -> Fact:
    """A memory said on 8 May 2023: a kept turn, or a fact distilled from turn ``turn``."""
    return Fact(
        id=n,
        text=text,
        source="turn",
        metadata={"distilled_from": f"m_{turn}"} if turn else {},
        created_at=datetime(2023, 5, 8, tzinfo=timezone.utc),
        event_type=KEPT_TURN if kept else "fact",
    )


def test_widening_keeps_the_budget_the_order_and_what_the_gate_passed() -> None:

    long_turn = fact(
        1, "I moved to Porto in March, " + "and the flat is small but bright " * 8 + ".", kept=True
    )
    short_turn = fact(2, "I adopted a cat called Miso. She is ginger and very loud.", kept=True)
    a, b = fact(3, "User moved to Porto in March", 1), fact(4, "User adopted a cat called Miso", 2)
    alone = fact(5, "User is vegan")
    turns = {3: long_turn, 4: short_turn}
    lines = [(f, 0.9 - n / 10, line(f)) for n, f in enumerate((a, b, alone))]
    used = sum(len(text) + 1 for _, _, text in lines) - 1
    # Room for the short turn only: the long one's fact keeps its line, and the next fact widens.
    budget = used + len(line(short_turn)) - len(line(b))
    out = widened(lines, "Where do I live and what pet do I have?", budget, lambda f: turns.get(f.id))
    assert [f for f, _, _ in out] == [a, short_turn, alone]
    assert [score for _, score, _ in out] == [score for _, score, _ in lines]
    assert sum(len(text) + 1 for _, _, text in out) - 1 <= budget
    # No room: nothing changes. The prompt's own turn never comes back whole.
    assert widened(lines, "pets?", used, lambda f: turns.get(f.id)) == lines
    assert widened(lines, short_turn.text, budget, lambda f: turns.get(f.id))[1] == lines[1]


def test_a_turn_shown_for_a_fact_says_whom_it_only_calls_he_or_she() -> None:
    architect = fact(1, "He's an architect. He designs mostly schools and libraries.", kept=True)
    rui = fact(2, "Rui is an architect", 1)
    knee = fact(3, "He needs a knee replacement, and it's scheduled for August.", kept=True)
    dad = fact(4, "User's dad needs a knee replacement, and it's scheduled for August 2023", 3)
    hana = fact(5, "My sister Hana quit her job. She starts at the bakery in May.", kept=True)
    sister = fact(6, "User's sister Hana starts there in May 2023", 5)
    turns = {2: architect, 4: knee, 6: hana}
    out = fit([(rui, 0.9), (sister, 0.8)], "What does Rui do?", 700, lambda f: turns.get(f.id))
    assert [text.split(": ", 1)[0] for _, _, text in out] == [
        "- [8 May 2023] User said (of Rui)",
        "- [8 May 2023] User said",  # the turn names Hana itself
    ]
    lines = [(dad, 0.9, line(dad))]
    assert widened(lines, "What surgery?", 700, lambda f: turns.get(f.id))[0][2].startswith(
        "- [8 May 2023] User said (of User's dad): \"He needs a knee replacement"
    )
    # The best match keeps its own line rather than a turn that never names whom it is about.
    assert in_their_words([(rui, 0.9)], "What does Rui do for a living?", 700, lambda f: turns.get(f.id)) == [
        (rui, 0.9)
    ]


def test_a_short_fact_shows_as_the_turn_it_came_from_when_it_fits() -> None:

    football = fact(
        1,
        "This morning my under-12s, the Kirkstall Comets, won 3-1 in the mud. I coach them every Saturday.",
        kept=True,
    )
    coaches = fact(2, "User coaches them every Saturday", 1)
    won = fact(3, "User's under-12s, the Kirkstall Comets, won 3-1 in the mud on 6 May 2023", 1)
    cat = fact(4, "I have a one-eyed cat called Pimenta who sleeps on the balcony all day long.", kept=True)
    long_fact = fact(5, "User has a one-eyed cat called Pimenta who sleeps on the balcony all day", 4)
    alone = fact(6, "User works at a vet clinic")
    turns = {2: football, 3: football, 5: cat}
    prompt = "What is the name of the team I coach?"
    assert len(coaches.text.split()) <= SHORT_FACT < len(long_fact.text.split())
    ranked = [(coaches, 0.8), (won, 0.7), (long_fact, 0.6), (alone, 0.5)]
    out = fit(ranked, prompt, 700, lambda f: turns.get(f.id))
    # The short fact takes its turn's line, which names the team; the other fact of that turn
    # takes none (its words are in the block); a longer fact and one with no turn keep theirs.
    assert [f for f, _, _ in out] == [football, long_fact, alone]
    assert "Kirkstall Comets" in out[0][2] and [s for _, s, _ in out] == [0.8, 0.6, 0.5]
    # No room for the turn: the fact keeps its own line. Without turns, nothing changes.
    tight = len(line(coaches)) + 5
    assert [f for f, _, _ in fit([(coaches, 0.8)], prompt, tight, lambda f: turns.get(f.id))] == [coaches]
    assert [f for f, _, _ in fit([(coaches, 0.8), (won, 0.7)], prompt, 700)] == [coaches, won]
    # The prompt's own turn never comes back whole.
    assert fit([(coaches, 0.8)], football.text, 700, lambda f: turns.get(f.id))[0][0] == coaches


def test_a_full_block_shows_a_short_facts_turn_in_its_place(api: Api) -> None:
    # The block fills up with the cat's other memories, leaving no room to widen afterwards:
    # the short fact takes its turn's line itself, and the turn says what the cat looks like.
    api.turn(
        "ines", "A vet nurse, that's a hard job. What's your cat called?", role="assistant", occurred_at=MAY
    )
    api.turn(
        "ines",
        "Pimenta! She's a little black cat with only one eye. She came into the clinic as a stray two"
        " years ago and I couldn't let her go. Here she is on our sofa.",
        occurred_at=MAY,
    )
    assert "User could not let her go" in api.texts("ines")
    for text in (
        "Pimenta hid under the bed for three days after we moved, but now she sits on the balcony"
        " judging the seagulls all afternoon.",
        "My cat hisses at every animal she meets, she's a real diva, even at the big dogs that come"
        " into the clinic for their shots.",
        "We sat in traffic for an hour on the bridge with Pimenta meowing in her box the whole way"
        " to the new flat in Almada.",
        "I bought Pimenta a new scratching post last week because she destroyed the old one and the"
        " sofa is next on her list.",
        "Our greyhound Farol is terrified of the cat, a 30-kilo dog scared of a 3-kilo cat, it's"
        " hilarious to watch every evening.",
    ):
        api.turn("ines", text, occurred_at="2023-07-02T10:00:00Z")
    recalled = _recall(api, "ines", "What does my cat Pimenta look like?")
    block = recalled["context"]
    assert "little black cat with only one eye" in block
    assert "User could not let her go" not in block
    assert len(block.splitlines()) == len(recalled["memories"]) >= 3 and len(block) <= 700


def test_a_long_turns_line_dates_what_it_shows() -> None:
    # Only the words a line can show are dated (resolving all 16,000 characters took 13 ms).
    said = "Last week I went to Paris with my sister and yesterday we came back.   On Friday we saw a show. "
    long_turn = Fact(
        id=1,
        text=(said * 200)[:16000],
        source="turn",
        metadata={},
        created_at=datetime(2023, 5, 8, tzinfo=timezone.utc),
        event_type=KEPT_TURN,
    )
    shown = line(long_turn)
    assert shown.startswith(
        '- [8 May 2023] User said: "Last week (the week before 8 May 2023) I went to Paris with my sister'
        " and yesterday (7 May 2023) we came back. On Friday (5 May 2023) we saw a show."
    )
    assert shown.endswith(' …"') and len(shown) <= TURN_CHARS + len('- [8 May 2023] User said: "" …')
