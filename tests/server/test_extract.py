"""The default extractor: durable statements about the person in, everything else out."""

from __future__ import annotations

import pytest

from memorysync_server.extract import RuleExtractor, is_low_value

extract = RuleExtractor().extract


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I'm vegan, and I moved to Oslo", ["User is vegan", "User moved to Oslo"]),
        ("User is vegan", ["User is vegan"]),
        ("The user is allergic to peanuts", ["User is allergic to peanuts"]),
        ("I always take the window seat", ["User always takes the window seat"]),
        ("I don't eat meat", ["User does not eat meat"]),
        ("My name is Ada", ["User's name is Ada"]),
        ("Hello! I live in Berlin and I love my dog.", ["User lives in Berlin", "User loves their dog"]),
        ("I work as a nurse; my wife is a teacher", ["User works as a nurse", "User's wife is a teacher"]),
        ("I'm planning to visit Japan next year", ["User is planning to visit Japan next year"]),
        ("I usually fly with KLM", ["User usually flies with KLM"]),
        ("I go to the gym every morning", ["User goes to the gym every morning"]),
        ("I have two cats", ["User has two cats"]),
    ],
)
def test_keeps_durable_statements_in_the_third_person(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        "What's the weather?",
        "what is the capital of France",
        "Do you know any good restaurants?",
        "Hi there!",
        "Good morning",
        "thanks you",
        "ok",
        "Sure, sounds good",
        "Can you book me a flight?",
        "Could you help me with my essay",
        "please summarise",
        "Book me a flight to Oslo",
        "I want you to book a table",
        "Tell me a joke",
        "The weather is nice today",
        "haha lol",
    ],
)
def test_drops_questions_greetings_filler_and_requests(text: str) -> None:
    assert extract(text) == []


def test_explicit_saves_keep_subjectless_facts() -> None:
    assert extract("Allergic to peanuts") == []
    assert extract("Allergic to peanuts", explicit=True) == ["Allergic to peanuts"]
    assert extract("Can you remember this?", explicit=True) == []


def test_greeting_before_a_fact_is_dropped_but_the_fact_kept() -> None:
    assert extract("Thanks! I'm vegan.") == ["User is vegan"]


@pytest.mark.parametrize(
    ("text", "low"),
    [
        ("ok", True),
        ("thanks you", True),
        ("thank you", True),
        ("1234", True),
        ("hello", True),
        ("I'm vegan", False),
        ("ok then cool", False),
        ("what why", True),
    ],
)
def test_low_value_rule_of_the_contract(text: str, low: bool) -> None:
    assert is_low_value(text) is low
