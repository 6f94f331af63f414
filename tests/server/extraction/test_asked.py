"""The question a turn answers (extraction.asked): a topic for the answer's vector, never a
greeting, never a name."""

from __future__ import annotations

import pytest

from memorysync_server.extraction import question_asked


@pytest.mark.parametrize(
    ("previous", "asked"),
    [
        ("Wow! What got you into running?", "What got you into running?"),
        # The last question of the turn is the one answered.
        (
            "Love that purple color! Are they new? For walking or running?",
            "For walking or running?",
        ),
        ("That sounds lovely, Mel. Who performed at the concert?", "Who performed at the concert?"),
    ],
)
def test_a_question_about_something_is_the_topic_of_the_answer(previous: str, asked: str) -> None:
    assert question_asked(previous) == asked


@pytest.mark.parametrize(
    "previous",
    [
        "How are you doing, Caroline?",  # a greeting with the person's name only
        "Hey Jon! How's it going?",
        "Hola, Omar, ¿cómo estás?",  # not read as English: the rules would misjudge its words
        "That's great news. Congrats on the new job!",  # no question at all
        "",
    ],
)
def test_greetings_names_and_statements_give_no_topic(previous: str) -> None:
    assert question_asked(previous) is None


def test_a_long_question_is_cut_so_the_answer_stays_most_of_its_vector() -> None:
    long = "What made you pick pottery, " + "and really truly " * 40 + "why?"
    asked = question_asked(long)
    assert asked is not None and len(asked) == 200 and asked.startswith("What made you pick pottery")
