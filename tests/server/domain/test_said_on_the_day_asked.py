"""A question that names a day finds what was said that day: "Where did I go hiking on 10 March
2024?" or "Who did I have lunch with yesterday?" raise the memories said then (``occurred_at`` as
written, else the day they were stored), over real HTTP, on both engines, whether the index was
grown by the writes or read back from the store. What the phrases mean is pinned in
``test_asked_days`` below."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from memorysync_server.language import asked_days
from memorysync_server.language.when import READ_CHARS
from memorysync_server.launcher import LocalServer

from ..api import Api

HIKES = [
    ("2024-03-03T10:00:00Z", "We went hiking at Mount Tamalpais with the kids, the views were beautiful."),
    ("2024-03-10T10:00:00Z", "I went hiking alone at Point Reyes and saw a colony of elephant seals."),
    ("2024-03-17T10:00:00Z", "We went hiking in Muir Woods with my parents, the redwoods were huge."),
]


def _ranked(api: Api, user: str, prompt: str) -> list[tuple[str, float]]:
    found = api.v1("/v1/memory/query", user, prompt=prompt, k=10)["memories"]
    return [(m["text"], m["score"]) for m in found]


def _first_hike(api: Api, user: str, prompt: str) -> str:
    return next(text for text, _ in _ranked(api, user, prompt) if "hiking" in text)


def test_a_question_naming_a_day_finds_what_was_said_that_day(db, api: Api) -> None:
    api.turn("h", "I work as a nurse at the children's hospital.")
    _ranked(api, "h", "Where did I go hiking?")  # the index is in memory now: the writes below grow it
    for when, text in HIKES:
        api.turn("h", text, occurred_at=when)
    for asked, place in [
        ("Where did I go hiking on 10 March 2024?", "Point Reyes"),
        ("Where did I go hiking on March 17th, 2024?", "Muir Woods"),
        ("Where did I go hiking on 2024-03-03?", "Mount Tamalpais"),
    ]:
        assert place in _first_hike(api, "h", asked), asked
    block = api.v1("/v1/memory/recall", "h", prompt="Where did I go hiking on 10 March 2024?")["context"]
    assert block.splitlines()[0].startswith("- [10 March 2024]") and "Point Reyes" in block.splitlines()[0]
    # Read back from the store by a new server, the index knows the same days.
    with LocalServer(db) as again:
        other = Api(again)
        try:
            assert "Muir Woods" in _first_hike(other, "h", "Where did I go hiking on 17 March 2024?")
        finally:
            other.close()


def test_only_the_days_asked_about_rise(api: Api) -> None:
    for when, text in HIKES:
        api.turn("n", text, occurred_at=when)
    april = dict(_ranked(api, "n", "Where did I go hiking in April 2024?"))  # nothing said in April
    march = dict(_ranked(api, "n", "Where did I go hiking in March 2024?"))
    hikes = [text for text in march if "hiking" in text]
    assert len(hikes) == 3 and all(march[text] > april[text] + 0.05 for text in hikes)
    # A date in a statement asks about nothing: the same as not naming it.
    told = dict(_ranked(api, "n", "I went hiking on 10 March 2024."))
    plain = dict(_ranked(api, "n", "I went hiking."))
    reyes = next(text for text in plain if "Point Reyes" in text)
    assert told[reyes] < plain[reyes] + 0.1


def test_yesterday_is_counted_from_the_servers_clock(db) -> None:
    # Without occurred_at a memory was said when it was stored: the clock the server was given.
    now = [datetime(2026, 5, 4, 12, 0, tzinfo=timezone.utc)]
    with LocalServer(db, clock=lambda: now[0]) as server:
        api = Api(server)
        try:
            api.turn("y", "I had lunch with my sister Ana at the Thai place downtown.")
            now[0] += timedelta(days=3)
            api.turn("y", "I had lunch with my coworker Raj at the taco truck by the office.")
            now[0] += timedelta(days=1)
            first = [t for t, _ in _ranked(api, "y", "Who did I have lunch with yesterday?")]
            assert "Raj" in first[0]
            first = [t for t, _ in _ranked(api, "y", "Who did I have lunch with four days ago?")]
            assert "Ana" in first[0]
            # Neither was said last month: the ranking is the vectors' own.
            assert len(_ranked(api, "y", "Who did I have lunch with last month?")) == 2
        finally:
            api.close()


def test_asked_days() -> None:
    today = date(2026, 12, 4)  # a Friday

    def days(prompt: str) -> tuple[str, str] | None:
        span = asked_days(prompt, today)
        return None if span is None else (span[0].isoformat(), span[1].isoformat())

    # A named day stands for the days beside it too (clocks disagree at midnight).
    assert days("What did I do on 16 August 2023?") == ("2023-08-15", "2023-08-17")
    assert days("What did Maria donate on May 3, 2023?") == ("2023-05-02", "2023-05-04")
    assert days("what happened on the 16th of Aug, 2023?") == ("2023-08-15", "2023-08-17")
    assert days("What did we discuss on 2023-08-16?") == ("2023-08-15", "2023-08-17")
    assert days("What did John volunteer for in August 2023?") == ("2023-08-01", "2023-08-31")
    assert days("What did I do in December, 2023?") == ("2023-12-01", "2023-12-31")
    # A date with its year wins over a phrase counted from today.
    assert days("What did she do last weekend before April 10, 2023?") == ("2023-04-09", "2023-04-11")
    # The past, counted from today.
    assert days("What did I tell you yesterday?") == ("2026-12-02", "2026-12-04")
    assert days("Remind me what I said a few days ago") == ("2026-11-30", "2026-12-02")
    assert days("What did I do last Friday?") == ("2026-11-26", "2026-11-28")
    assert days("Where did we go last weekend?") == ("2026-11-28", "2026-11-29")
    assert days("What did I say last week?") == ("2026-11-23", "2026-11-29")
    assert days("Tell me what we discussed two weeks ago") == ("2026-11-17", "2026-11-23")
    assert days("What did I buy last month?") == ("2026-11-01", "2026-11-30")
    assert days("What was I reading 3 months ago?") == ("2026-09-01", "2026-09-30")
    # Statements tell when something happened, they do not ask what was said then.
    assert days("I switched to an iPhone last week.") is None
    assert days("I switched to an iPhone last week. Which case should I get?") is None
    # Plans, habits, a year alone, a day or month without a year, and a day that does not exist.
    for prompt in [
        "What should I cook today?",
        "Which days is she free this week?",
        "Can we meet on Friday?",
        "Is she free on Wednesday nights?",
        "Did I go out last Sunday evenings?",
        "How many times did I go to the beach in 2023?",
        "What did I do in June?",
        "What happened on May 3?",
        "May I ask you something?",
        "What is 17 times 23?",
    ]:
        assert days(prompt) is None, prompt
    assert days("What happened on 31 June 2023?") == ("2023-06-01", "2023-06-30")  # its month stands


def test_a_long_message_is_read_for_days_where_its_question_is() -> None:
    today = date(2026, 12, 4)
    pasted = "Can you sum up the minutes of 3 May 2023? " + "We went through the budget line by line. " * 200
    assert len(pasted) > READ_CHARS
    assert asked_days(pasted + "What did I say about this yesterday?", today) == (
        date(2026, 12, 2),
        date(2026, 12, 4),
    )
    # A question at the top of a pasted page is out of reach: the page is what the model is given.
    assert asked_days(pasted + "What do you think?", today) is None


def test_last_weekend_asked_on_a_sunday_is_the_one_before() -> None:
    span = asked_days("What did I do last weekend?", date(2026, 12, 6))
    assert span == (date(2026, 11, 28), date(2026, 11, 29))


def test_when_a_memory_was_said_reads_the_times_clients_write() -> None:
    from memorysync_server.domain import Fact, read_time, said_day

    utc = timezone.utc
    assert read_time("2023-05-08T10:00:00Z") == datetime(2023, 5, 8, 10, tzinfo=utc)
    assert read_time(" 2023-05-08 ") == datetime(2023, 5, 8, tzinfo=utc)  # zone-less: UTC
    late = read_time("2023-05-08T23:30:00-05:00")
    assert late is not None and late.date() == date(2023, 5, 8)  # the day as written, not UTC's
    for bad in ["", "yesterday", "2023-13-01", None, 20230508]:
        assert read_time(bad) is None, bad
    stored = datetime(2024, 1, 2, 9, tzinfo=utc)
    fact = Fact(
        id=1, text="t", source="s", metadata={"occurred_at": "2023-05-08T23:30:00-05:00"}, created_at=stored
    )
    assert fact.said_at.date() == date(2023, 5, 8)
    assert said_day(fact.metadata["occurred_at"], stored) == date(2023, 5, 8).toordinal()
    unsure = Fact(id=2, text="t", source="s", metadata={"occurred_at": "last week"}, created_at=stored)
    assert unsure.said_at == stored and said_day("last week", stored) == stored.date().toordinal()
