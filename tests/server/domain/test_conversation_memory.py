"""What a person said stays findable: each turn is kept as a memory of its own kind (``conversation``)
beside the facts distilled from it, with when it was said; recall's block dates every line.
Over real HTTP, on both engines."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from memorysync_server import LocalServer
from memorysync_server.extraction import resolve
from memorysync_server.language.words import searched_text

from ..api import Api

MARCH = "2026-03-10T12:00:00Z"  # a Tuesday


def _query(api: Api, user: str, prompt: str, **body: object) -> list[dict]:
    return api.v1("/v1/memory/query", user, prompt=prompt, k=10, **body)["memories"]


def test_a_turn_without_a_fact_is_still_found_and_listings_show_facts_only(api: Api) -> None:
    # Chat that yields no fact: before, nothing of it could be found again.
    said = "Haha, the karaoke night at Lucy's was wild, Priya sang Bohemian Rhapsody twice!"
    api.turn("u", said, occurred_at=MARCH)
    api.turn("u", "Long day. I'm vegan, so the office barbecue was a struggle.", occurred_at=MARCH)
    found = _query(api, "u", "Who sang Bohemian Rhapsody at karaoke?")
    assert found[0]["text"] == said and found[0]["metadata"]["write_origin"] == "turn"
    # The person's facts: the v1 list, the SDK's export and the inspector's count leave turns out.
    assert api.texts("u") == ["User is vegan, so the office barbecue was a struggle"]
    export = api.http.get("/memory/export", headers={"X-End-User-ID": "u"}).json()
    assert [m["text"] for m in export["memories"]] == api.texts("u")
    # ...and `types` asks for them.
    turns = _query(api, "u", "What does the user eat?", types=["conversation"])
    assert turns[0]["text"].startswith("Long day.") and {m["metadata"]["write_origin"] for m in turns} == {
        "turn"
    }


def test_a_fact_and_the_turn_it_came_from_take_one_place(api: Api) -> None:
    api.turn("u", "I'm allergic to penicillin.")
    api.turn("u", "I play the cello in an amateur orchestra.")
    for prompt in ("Which medicines must the user avoid?", "What does the user do in their free time?"):
        found = _query(api, "u", prompt)
        sources = [m["metadata"].get("distilled_from") or m["memory_id"] for m in found]
        assert len(sources) == len(set(sources)), prompt  # never a turn beside its own fact
    # The fact stands for its turn when it matches about as well: short, dated, kept current.
    assert (
        _query(api, "u", "Which medicines must the user avoid?")[0]["text"]
        == "User is allergic to penicillin"
    )


def test_an_edited_event_type_regroups_the_memory_in_the_next_search(api: Api) -> None:
    # Searches group a turn with its facts from marks kept in memory (retrieval/index.py): an
    # edit of a memory's kind must reach them, as it reaches a fresh read.
    # "just started": a fact supersede compares by its vector, searched by its own words only
    # (not with its turn's, pipeline.said_in), so the turn can match better than it.
    said = (
        "Honestly the commute is brutal. I just started as a nurse at the city hospital, night shifts mostly."
    )
    api.turn("u", said)
    prompt = "The brutal commute to the hospital where the user works as a nurse"
    # The turn matches best, and its fact nearly as well: the fact stands for it.
    assert [m["text"] for m in _query(api, "u", prompt)] == [
        "User just started as a nurse at the city hospital, night shifts mostly"
    ]
    (kept,) = _query(api, "u", prompt, types=["conversation"])
    response = api.http.patch(
        f"/memory/{kept['memory_id'][2:]}", json={"event_type": "fact"}, headers={"X-End-User-ID": "u"}
    )
    assert response.status_code == 200, response.text
    # Now both are facts of that turn: the best of them, the former turn, takes its place.
    assert [m["text"] for m in _query(api, "u", prompt)] == [said]


def test_facts_carry_when_they_were_said_and_relative_times_are_resolved(api: Api) -> None:
    api.turn(
        "u",
        "I went to a support group yesterday and I'm running a charity race next month.",
        occurred_at=MARCH,
    )
    facts = api.facts("u")["memories"]
    assert {m["metadata"]["occurred_at"] for m in facts} == {"2026-03-10T12:00:00Z"}
    assert "User went to a support group on 9 March 2026" in api.texts("u")
    recalled = api.v1("/v1/memory/recall", "u", prompt="When did the user go to the support group?")
    lines = recalled["context"].splitlines()
    assert lines[0] == "- [10 March 2026] User went to a support group on 9 March 2026"


def test_a_kept_turn_is_quoted_with_its_dates_in_the_block(api: Api) -> None:
    said = "Ugh, long week. The good news: my sister Ana visited last weekend with her twins."
    api.turn("u", said, occurred_at=MARCH)
    recalled = api.v1("/v1/memory/recall", "u", prompt="Who visited the user last weekend?")
    quoted = [line for line in recalled["context"].splitlines() if "said:" in line]
    assert quoted == [
        '- [10 March 2026] User said: "Ugh, long week. The good news: my sister Ana visited last weekend'
        ' (the weekend of 7 March 2026) with her twins."'
    ]


def test_the_best_match_is_shown_in_the_persons_words_when_they_carry_more(api: Api) -> None:
    said = "I finally ran my first marathon last Sunday! My time was 4 hours and 12 minutes, and my legs still hurt."
    api.turn("u", said, occurred_at=MARCH)
    recalled = api.v1("/v1/memory/recall", "u", prompt="What was the user's marathon time?")
    # The best fact ("User finally ran their first marathon on 8 March 2026") lost the time, which
    # sits in the clause beside it: the turn it came from takes its line, dated, and only once.
    assert recalled["context"].splitlines()[0] == (
        '- [10 March 2026] User said: "I finally ran my first marathon last Sunday (8 March 2026)! '
        'My time was 4 hours and 12 minutes, and my legs still hurt."'
    )
    first = recalled["memories"][0]
    assert first["text"] == said and first["metadata"]["write_origin"] == "turn"
    behind = {m["metadata"].get("distilled_from") for m in recalled["memories"][1:]}
    assert first["memory_id"] not in behind


def test_a_long_turn_stays_behind_its_fact_when_the_block_has_no_room_for_it(db: str | Path) -> None:
    said = (
        "I work as a nurse at the city hospital, mostly night shifts on the cardiac ward. It is exhausting,"
        " honestly, and the commute across town takes forever, but my colleagues are wonderful and the"
        " patients are mostly lovely, so I am staying for now."
    )
    fact = "- [10 March 2026] User works as a nurse at the city hospital, mostly night shifts on the cardiac ward"
    prompt = "Where does the user work as a nurse?"
    for budget, first in ((700, f'- [10 March 2026] User said: "{said}"'), (240, fact)):
        server = LocalServer(db, recall_chars=budget)
        server.start()
        api = Api(server)
        try:
            if budget == 700:
                api.turn("u", said, occurred_at=MARCH)
            lines = api.v1("/v1/memory/recall", "u", prompt=prompt)["context"].splitlines()
            # A whole turn takes the room of two or three facts: it stands in for the fact that
            # says what was asked only with room the block leaves unused (context.widened).
            assert lines[0] == first
            assert sum(len(line) + 1 for line in lines) - 1 <= budget
        finally:
            api.close()
            server.stop()


def test_recall_leaves_out_the_turn_it_answers(api: Api) -> None:
    # Adapters capture the person's message before they recall for it: its own words (and their
    # facts) must not come back and push out what was said before.
    api.turn("u", "I'm allergic to peanuts.")
    prompt = "I'm hosting a party on Saturday and want to bake a nutty cake for it."
    api.turn("u", prompt)
    recalled = api.v1("/v1/memory/recall", "u", prompt=prompt)
    assert "User is allergic to peanuts" in [m["text"] for m in recalled["memories"]]
    assert all("party" not in m["text"] for m in recalled["memories"])


def test_questions_requests_and_one_sentence_facts_are_not_kept_as_turns(api: Api) -> None:
    # A question or a request tells nothing about the person; a greeting does not count; one
    # sentence that gave a fact is all in the fact.
    api.turn("u", "What snack should I bring to the party?")
    api.turn("u", "Book me a table and a flight for Friday, please.")
    api.turn("u", "Hi! I play the cello.")
    assert _query(api, "u", "snack for the party, table, flight, cello", types=["conversation"]) == []
    assert api.texts("u") == ["User plays the cello"]


def test_reactions_to_the_listener_are_not_kept_and_a_turn_its_facts_leave_words_of_is(api: Api) -> None:
    # Nothing of the speaker: kept, they would take places in the block from what was told.
    for said in (
        "You're a gem, Omar. Goodnight.",
        "Wow, Caroline, that looks amazing! What inspired it?",
        "I bet!",
        "See you Monday, rock star.",
    ):
        api.turn("u", said)
    assert (
        _query(api, "u", "gem, goodnight, amazing, inspired, bet, Monday rock star", types=["conversation"])
        == []
    )
    # One telling sentence whose fact leaves out what starts (the senior role at Fieldnote, said
    # of "they"): the turn is kept beside it.
    said = "DANIEL. I got it!!! They offered me the senior role at Fieldnote, I start on Monday!"
    api.turn("u", said, occurred_at="2023-06-10T09:00:00Z")
    assert "User starts on 12 June 2023" in api.texts("u")
    (turn,) = _query(api, "u", "Where does the user start the new job?", types=["conversation"])
    assert turn["text"] == said


def test_a_riddle_about_the_speaker_gives_a_dated_fact(api: Api) -> None:
    api.turn(
        "u",
        "Good morning! Guess who walked to the corner bakery all by herself yesterday?",
        occurred_at=MARCH,
    )
    assert api.texts("u") == ["User walked to the corner bakery all by themselves on 9 March 2026"]


def test_a_long_turn_does_not_push_the_facts_out_of_the_block(api: Api) -> None:
    # The turn shares many words with the request (0.80); the facts it needs score ~0.4. Measured
    # against the turn, 0.6 of it would cut them all; they are measured against the best fact.
    api.turn("u", "Hi! I'm vegan, and I moved to Oslo last spring.", occurred_at=MARCH)
    api.turn("u", "Oslo was lovely. The vegan place by the harbour, the fjord, the weekend flight home!")
    prompt = "Plan my weekend back in Oslo: a vegan dinner spot and a flight with a good seat, please."
    recalled = [m["text"] for m in api.v1("/v1/memory/recall", "u", prompt=prompt)["memories"]]
    assert {"User is vegan", "User moved to Oslo in spring 2025"} <= set(recalled)


def test_a_replaced_fact_and_the_turn_it_came_from_rank_below_the_new_one(api: Api) -> None:
    api.turn("u", "I live in Oslo, by the harbour.")
    api.turn("u", "I moved to Bergen last month.", occurred_at=MARCH)
    ranked = [m["text"] for m in _query(api, "u", "Which city does the user live in?")]
    assert ranked[0] == "User moved to Bergen in February 2026"
    assert ranked.index("User moved to Bergen in February 2026") < min(
        ranked.index(t) for t in ranked if "Oslo" in t
    )


def test_a_second_fact_a_question_needs_is_not_cut(api: Api) -> None:
    api.turn("u", "I hate rain.")
    api.turn("u", "I live in Oslo.")
    api.turn("u", "I'm allergic to penicillin.")
    recalled = [
        m["text"]
        for m in api.v1("/v1/memory/recall", "u", prompt="What is the weather like in my city today?")[
            "memories"
        ]
    ]
    assert {"User hates rain", "User lives in Oslo"} <= set(recalled)
    assert "User is allergic to penicillin" not in recalled


def test_a_thing_said_in_many_sessions_does_not_fill_every_place(api: Api) -> None:
    # People repeat themselves across sessions; the question also needs what they said once.
    repeated = [
        "I'm looking into counseling jobs.",
        "I'm still looking into counseling and mental health jobs.",
        "I've been researching counseling careers lately.",
        "I'm thinking about a career in counseling.",
    ]
    for month, text in enumerate([*repeated, "I'm a barista at a small cafe downtown."], start=1):
        api.turn("u", text, occurred_at=f"2026-0{month}-10T12:00:00Z")
    prompt = "What work does the user do or want to do?"
    found = api.v1("/v1/memory/query", "u", prompt=prompt, k=3)["memories"]
    texts = [m["text"] for m in found]
    assert "User is a barista at a small cafe downtown" in texts
    assert texts[0] == "User is looking into counseling jobs"
    assert [m["score"] for m in found] == sorted((m["score"] for m in found), reverse=True)
    recalled = api.v1("/v1/memory/recall", "u", prompt=prompt, k=3)["memories"]
    assert "User is a barista at a small cafe downtown" in [m["text"] for m in recalled]


def test_the_name_a_turn_calls_the_listener_by_does_not_make_it_about_them(api: Api) -> None:
    # "Thanks so much, Priya!" says nothing about Priya: before, the turn came back for any
    # question naming her, beside what the person did tell about her.
    flat = (
        "Thanks so much, Priya! Honestly the new flat is tiny, but the view over the harbour makes up for it."
    )
    api.turn("u", flat)
    api.turn("u", "My cousin Priya is a commercial pilot for Emirates.")
    recalled = api.v1("/v1/memory/recall", "u", prompt="What do you know about Priya?", k=5)["memories"]
    assert [m["text"] for m in recalled] == ["User's cousin Priya is a commercial pilot for Emirates"]
    # The turn keeps its words as said, and is still found by what it tells.
    found = api.v1("/v1/memory/query", "u", prompt="Is the new flat big?", k=1)["memories"]
    assert found[0]["text"] == flat


def test_history_turns_are_kept_too_and_deleting_them_takes_their_memories(api: Api) -> None:
    said = "My brother Tomas and I are restoring a 1972 Volvo in his garage. The engine came from Sweden."
    api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        turns=[{"role": "user", "content": said, "occurred_at": MARCH}],
    )
    (turn,) = _query(api, "u", "What car is being restored?", types=["conversation"])
    assert turn["text"] == said and turn["metadata"]["session_id"] == "s"
    gone = api.v1("/v1/history/delete", "u", session_id="s", delete_derived_facts=True)
    assert turn["memory_id"] in gone["deleted_fact_ids"]
    assert _query(api, "u", "What car is being restored?") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("User went there yesterday", "User went there on 9 March 2026"),
        ("User ran a race last Sunday", "User ran a race on 8 March 2026"),
        ("User visits next Friday", "User visits on 13 March 2026"),
        ("User moved last month", "User moved in February 2026"),
        ("User has lived there since last year", "User has lived there since 2025"),
        ("User adopted a cat two weeks ago", "User adopted a cat around 24 February 2026"),
        ("User spoke at a school last week", "User spoke at a school in the week before 10 March 2026"),
        ("User started 3 years ago", "User started in 2023"),
        ("User goes camping next month", "User goes camping in April 2026"),
        ("User had an interview on Friday", "User had an interview on 6 March 2026"),
        ("User starts the new job on Monday", "User starts the new job on 16 March 2026"),
        (
            "User is excited about the gig on Friday",
            "User is excited about the gig on Friday",
        ),  # unclear: as said
        ("User went there recently", "User went there recently"),
        ("User joined a club last Tues", "User joined a club on 3 March 2026"),
        (
            "User moved in on Thursday and they're surrounded by boxes",
            "User moved in on 5 March 2026 and they're surrounded by boxes",
        ),
        ("User's interview is this Thursday", "User's interview is on 12 March 2026"),
        ("User booked a trip to Spain for September", "User booked a trip to Spain for September 2026"),
        ("User moved here in January", "User moved here in January 2026"),
        ("User visited Rome in December", "User visited Rome in December 2025"),
        ("User closes on the house on April 1st", "User closes on the house on 1 April 2026"),
        ("User has surgery on the 5th", "User has surgery on 5 April 2026"),
        ("User lives on the 5th floor", "User lives on the 5th floor"),
        ("User may go in May", "User may go in May 2026"),
        ("User went to Spain last summer", "User went to Spain in summer 2025"),
        ("User goes skiing next winter", "User goes skiing in winter 2026-2027"),
        ("User was born on 7 May 1990", "User was born on 7 May 1990"),
        ("User saw it a couple weeks back", "User saw it around 24 February 2026"),
        ("User drove two days back home", "User drove two days back home"),
        ("User quit a fortnight ago", "User quit around 24 February 2026"),
        ("User met her the week before last", "User met her around 24 February 2026"),
        ("User ran a 10K two weekends ago", "User ran a 10K on the weekend of 28 February 2026"),
        # a timetable's present looks ahead, whatever the tense of the clause beside it
        (
            "User's lease ends December 31st, and their sister found them a house",
            "User's lease ends 31 December 2026, and their sister found them a house",
        ),
        (
            "User's visa expires in January, and they applied",
            "User's visa expires in January 2027, and they applied",
        ),
        # a date one signs up, books or registers for is the nearer one, though the verb is past
        (
            "User signed up for the half marathon on July 23",
            "User signed up for the half marathon on 23 July 2026",
        ),
        (
            "User found a race on May 2nd, and they already registered",
            "User found a race on 2 May 2026, and they already registered",
        ),
        ("User booked the venue on March 3rd", "User booked the venue on 3 March 2026"),
        (
            "User got us tickets for the show on August 26",
            "User got us tickets for the show on 26 August 2026",
        ),
        ("User registered for the triathlon in June", "User registered for the triathlon in June 2026"),
        ("User's parents decided to retire in May", "User's parents decided to retire in May 2026"),
        # a clause in the present has a tense of its own: the one beside it does not date it
        (
            "We have the awards night in June, and I think Danny has earned a prize",
            "We have the awards night in June 2026, and I think Danny has earned a prize",
        ),
        # ... and so has a fact's, beside the sentence joined to it
        (
            "User and others have the awards night in June; User thinks Danny has earned a prize",
            "User and others have the awards night in June 2026; User thinks Danny has earned a prize",
        ),
        # let into an event: the event's month, the nearer way
        ("User entered the Harbor City Open in April", "User entered the Harbor City Open in April 2026"),
        (
            "Felix got his band a spot in the talent show in May",
            "Felix got his band a spot in the talent show in May 2026",
        ),
        ("User entered the relay in February", "User entered the relay in February 2026"),
        ("User ran the 10K on July 23", "User ran the 10K on 23 July 2025"),
        # a month named with "last", "next" or "this"
        ("User moved in with them last August", "User moved in with them in August 2025"),
        ("User got married last March", "User got married in March 2025"),
        ("User starts college next September", "User starts college in September 2026"),
        ("User is moving this August", "User is moving in August 2026"),
        # a duration up to the day it was said becomes its start (a quoted turn keeps its words
        # and gains the start: test_a_quoted_duration_keeps_its_words_and_gains_its_start)
        ("User has been painting for seven years", "User has been painting since 2019"),
        (
            "User has worked there for 3 months now",
            "User has worked there since December 2025",
        ),
        ("User lived in Oslo for two years", "User lived in Oslo for two years"),
        ("User has been at it for a couple of years", "User has been at it for a couple of years"),
        # a holiday named for a day is that day, read by the tense as a month is
        ("User got engaged on Christmas Day", "User got engaged on Christmas Day (25 December 2025)"),
        ("User will fly home for Easter", "User will fly home for Easter (5 April 2026)"),
        ("User saw them last Thanksgiving", "User saw them last Thanksgiving (27 November 2025)"),
        (
            "User booked a cabin for New Year’s Eve",
            "User booked a cabin for New Year’s Eve (31 December 2026)",
        ),
        (
            "User crashed the car on the Fourth of July",
            "User crashed the car on the Fourth of July (4 July 2025)",
        ),
        # a bare "is" compares as often as it plans: the nearer one, unless something says ahead
        (
            "User's dad is thinner than at Christmas",
            "User's dad is thinner than at Christmas (25 December 2025)",
        ),
        ("User is flying home for Christmas", "User is flying home for Christmas (25 December 2026)"),
        # ... and names no day when it is liked, or comes every year
        ("User loves Halloween", "User loves Halloween"),
        ("User's birthday is on Valentine's Day", "User's birthday is on Valentine's Day"),
    ],
)
def test_relative_time_phrases(text: str, expected: str) -> None:
    assert resolve(text, datetime(2026, 3, 10, 12, 0)) == expected
    assert resolve(text, date(2026, 3, 10)) == expected


def test_a_quoted_duration_keeps_its_words_and_gains_its_start() -> None:
    said = "I've been vegan for five years now, and I have known Sam for 3 months."
    assert resolve(said, date(2026, 3, 10), style="annotate") == (
        "I've been vegan for five years now (since 2021), and I have known Sam for 3 months (since December 2025)."
    )


def test_a_duration_said_roughly_or_as_a_bare_answer_gains_its_start() -> None:
    said = date(2023, 9, 13)
    # A hedged count is dated as roughly as it was said, in a quote and in a fact.
    assert resolve(
        "I've been doing board games with friends for like three years now.", said, style="annotate"
    ) == ("I've been doing board games with friends for like three years now (since about 2020).")
    assert resolve("User has been vegan for about five years", said) == "User has been vegan since about 2018"
    # "How long have you been painting?" - "Seven years now, and ...": the answer has no verb.
    assert resolve("Seven years now, and I've finally found my muses.", said, style="annotate") == (
        "Seven years now (since 2016), and I've finally found my muses."
    )
    assert resolve("Wow. 3 months now!", said, style="annotate") == "Wow. 3 months now (since June 2023)!"
    # Only at the head of a sentence: an age, or "now and then", is no duration up to today.
    for text in ("Noor is eight months now and sleeps less.", "We meet two years now and then."):
        assert resolve(text, said, style="annotate") == text
    # A fact keeps such a fragment as said: it seldom makes one, and has no verb to date.
    assert resolve("Seven years now.", said) == "Seven years now."


def test_this_season_said_in_winter_is_the_one_of_that_calendar_year() -> None:
    # February belongs to the winter that began in December, but "this summer" is the coming one.
    assert resolve("User will travel this summer", date(2023, 2, 18)) == "User will travel in summer 2023"
    assert resolve("User skis a lot this winter", date(2023, 2, 18)) == "User skis a lot in winter 2022-2023"
    assert resolve("User will travel this summer", date(2023, 12, 5)) == "User will travel in summer 2023"


def test_last_weekend_said_on_a_sunday_is_the_weekend_before() -> None:
    assert (
        resolve("User broke up last weekend", date(2023, 7, 2))
        == "User broke up on the weekend of 24 June 2023"
    )
    assert (
        resolve("User broke up last weekend", date(2023, 7, 1))
        == "User broke up on the weekend of 24 June 2023"
    )
    assert (
        resolve("User broke up last weekend", date(2023, 7, 3))
        == "User broke up on the weekend of 1 July 2023"
    )


def test_a_kept_turn_is_annotated_not_rewritten() -> None:
    said = "Fieldnote offered me the job, I start on Monday! We fly out for September."
    assert resolve(said, date(2023, 6, 10), style="annotate") == (
        "Fieldnote offered me the job, I start on Monday (12 June 2023)! We fly out for September (September 2023)."
    )


@pytest.mark.parametrize(
    ("text", "searched"),
    [
        ("Glad you agree, Caroline. Appreciate it.", "Glad you agree. Appreciate it."),
        ("Wow Caroline, that looks amazing!", "Wow, that looks amazing!"),
        ("That's so cool, Mel!", "That's so cool!"),
        # names that are not an address stay: places, days
        ("I love Paris, Texas.", "I love Paris, Texas."),
        ("Yes, Sunday!", "Yes, Sunday!"),
        ("Anthony and I went hiking.", "Anthony and I went hiking."),
    ],
)
def test_a_memory_is_searched_without_the_names_it_addresses(text: str, searched: str) -> None:
    assert searched_text(text) == searched
