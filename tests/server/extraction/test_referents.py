"""A fact's "it" becomes the thing it stands for only when that is clear: a wrong thing is a false
memory, where the pronoun is only a vague one."""

from __future__ import annotations

import pytest

from memorysync_server.extraction import resolve_referents


@pytest.mark.parametrize(
    ("fact", "turn", "asked", "resolved"),
    [
        # the sentence before the one the fact retells, read as the fact's sentence is found: by
        # the words they share most, not the first that shares one ("love")
        (
            "User and others love it, it brings them closer",
            "Glad you have support, Caroline! Unconditional love is so important. "
            "Here's a pic of my family camping at the beach. We love it, it brings us closer!",
            "",
            "User and others love the beach, it brings them closer",
        ),
        # the question the turn answers
        (
            "User is keen to hear about it",
            "I donated my old car yesterday. How's the campaign going? I'm keen to hear about it.",
            "",
            "User is keen to hear about the campaign",
        ),
        (
            "User took it at the beach last month",
            "I took it at the beach last month.",
            "Those colors! Is that a photo you took?",
            "User took the photo at the beach last month",
        ),
        # a liking that answers a liking, the other sentence's or the fact's own clause before
        ("User's husband hates it", "I love curry. My husband hates it.", "", "User's husband hates curry"),
        (
            "User loves curry; User's husband hates it",
            "I love curry, but my husband hates it.",
            "",
            "User loves curry; User's husband hates curry",
        ),
        # ... and a clause joined to the one before it goes on about what that one names
        (
            "Nana kept all her recipes in an old school notebook; User is turning it into a proper book",
            "Nana kept all her recipes in an old school notebook. She passed away in 2021 and left the "
            "notebook to me, so I'm turning it into a proper book.",
            "",
            "Nana kept all her recipes in an old school notebook; User is turning the old school notebook "
            "into a proper book",
        ),
        # what was given, not where it came from, nor who gave it
        (
            "User's grandma gave it to them when they were young",
            "This necklace is special to me - a gift from my grandma in my home country, Sweden. She "
            "gave it to me when I was young.",
            "",
            "User's grandma gave the gift to them when they were young",
        ),
        # a place is the thing when nothing else is named
        (
            "User and others love it",
            "Here's a pic of my family camping at the beach. We love it.",
            "",
            "User and others love the beach",
        ),
        # a noun that is an adjective too ends no phrase it is not the end of
        (
            "User finds it fulfilling",
            "We're striving to keep our community safe. I find it fulfilling.",
            "",
            "User finds their community fulfilling",
        ),
    ],
)
def test_an_it_becomes_the_thing_just_named(fact: str, turn: str, asked: str, resolved: str) -> None:
    assert resolve_referents(fact, turn, [asked] if asked else []) == resolved


@pytest.mark.parametrize(
    ("fact", "turn", "asked"),
    [
        # "them" in chat is mostly people, whom no phrase nearby names
        (
            "User took the kids to the museum - which was so cool spending time with them",
            "Congrats on following your dreams. Yesterday I took the kids to the museum - it was so "
            "cool spending time with them!",
            "",
        ),
        (
            "User felt fulfilled guiding and supporting them",
            "It was tough. I felt fulfilled guiding and supporting them.",
            "What were the challenges?",
        ),
        # a person is never "it"
        (
            "User will record it for her",
            "Not yet, she's asleep by nine. I'll record it for her.",
            "Has your mom heard it?",
        ),
        # "loved it when" names nothing
        (
            "User loved it when she shouted at everyone",
            "Ama was a natural! I loved it when she shouted at everyone.",
            "",
        ),
        # named in the fact already
        (
            "User loves the freedom and connection it brings",
            "It can be tough, but aerial yoga is totally worth it. I love the freedom and connection it brings.",
            "",
        ),
        # "it" as a subject, and idioms that name nothing
        (
            "User got a temp job, which is tough, but they are sure it'll be worth it",
            "I'm staying positive. I got a temp job. It's tough, but I'm sure it'll be worth it.",
            "",
        ),
        (
            "User dances it out",
            "I also get help from people who support me. And of course, I dance it out.",
            "I'm having trouble with my business project. Any advice?",
        ),
        # a bare noun ending a sentence is too often not the thing
        ("User will never forget it", "The kids love nature. I'll never forget it!", ""),
        # the sentence before calls its thing "it" too: the thing is older than that sentence
        (
            "User is going to restore it",
            "It sat in my uncle's garage for years, so I borrowed a trailer and towed it home. "
            "I'm going to restore it.",
            "",
        ),
        # a pronoun is never a thing
        (
            "User says those friends make everything worth it",
            "I'm always here for you, Mel! Those friends make everything worth it!",
            "",
        ),
    ],
)
def test_an_it_stays_when_what_it_stands_for_is_not_clear(fact: str, turn: str, asked: str) -> None:
    assert resolve_referents(fact, turn, [asked] if asked else []) == fact
