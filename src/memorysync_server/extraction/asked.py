"""The question a turn answers: what the listener asked just before it.

Chat answers drop their topic: "Since I was 17 or so." answers "How long have you been into
art?", "It was Matt Patterson, he is so talented!" answers "Who performed at the concert?". The
kept turn is searched with the question in front of it (``language.words.searched_text``), so a
later question about art or the concert finds the answer though its own words never name it.
The turn is stored and shown as it was said: only its vector reads the question.

A greeting ("How are you doing, Caroline?", "How's it going?") names no topic and is not used:
it would pull the answer towards every question asked with the person's name.
"""

from __future__ import annotations

import re

from ..language.detect import reads_as_english
from ..language.scripts import CAPITALISED
from ..language.words import content_words

__all__ = ["question_asked"]

# Longer questions are cut: the topic sits in the question's first words, and the vector of
# the answer should still be mostly the answer's.
MAX_QUESTION_CHARS = 200
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
# A capitalised word after a space or a comma: how a chat addresses the listener by name.
_NAME = re.compile(rf"(?<=[\s,]){CAPITALISED}")
# Words of the questions that greet rather than ask about something.
_GREETING_WORDS = frozenset(
    [
        "going",
        "doing",
        "up",
        "new",
        "lately",
        "everyone",
        "everything",
        "things",
        "how's",
        "what's",
        "hey",
        "hi",
        "hello",
        "been",
    ]
)


def question_asked(previous: str) -> str | None:
    """The last question of the listener's turn ``previous`` when it asks about something (an
    English question with a content word besides names and greeting words); else None."""
    questions = [m.group(0).strip() for m in _SENTENCE.finditer(previous) if m.group(0).strip().endswith("?")]
    if not questions:
        return None
    question = questions[-1][:MAX_QUESTION_CHARS]
    if not reads_as_english(question):
        return None
    names = {name.lower() for name in _NAME.findall(question)}
    topic = [word for word in content_words(question) if word not in names and word not in _GREETING_WORDS]
    return question if topic else None
