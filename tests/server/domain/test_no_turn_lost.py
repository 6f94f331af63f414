"""No text loses a turn: whatever extraction does, what the person wrote is stored.

A faulty extractor is injected (fault injection, the one place a stand-in belongs): the turn is
kept verbatim as a ``conversation`` memory, the answer is 2xx, the failure is counted, and an
explicit save stores its text as given.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memorysync_server import LocalServer, RuleExtractor

from ..api import Api


class Faulty:
    """The real extractor, except on texts holding ``trigger``, where it raises."""

    def __init__(self, trigger: str = "Paris") -> None:
        self.trigger = trigger
        self.rules = RuleExtractor(preload=False)

    def extract(self, text: str, *, explicit: bool = False) -> list[str]:
        if self.trigger in text:
            raise KeyError("a bug in a rule")
        return self.rules.extract(text, explicit=explicit)


@pytest.fixture
def faulty(db: str | Path) -> Iterator[tuple[LocalServer, Api]]:
    server = LocalServer(db, extractor=Faulty())
    server.start()
    try:
        yield server, Api(server)
    finally:
        server.stop()


def _kept(api: Api, user: str, prompt: str) -> list[str]:
    body: dict[str, Any] = {"prompt": prompt, "k": 10, "types": ["conversation"]}
    return [m["text"] for m in api.v1("/v1/memory/query", user, **body)["memories"]]


def test_a_turn_the_extractor_fails_on_is_kept_verbatim(faulty: tuple[LocalServer, Api]) -> None:
    server, api = faulty
    text = "We, the whole family, went to Paris last year."
    answer = api.turn("u", text, occurred_at="2024-05-08T12:00:00Z")
    assert answer["processing_status"] == "completed"
    assert _kept(api, "u", "Where did the family travel?") == [text]
    # The recall block shows it, dated: a model asked about the trip can answer.
    block = api.v1("/v1/memory/recall", "u", prompt="Where did we go as a family?")["context"]
    assert "Paris" in block and "8 May 2024" in block
    assert server.app.services.pipeline.extraction_failures == 1
    # Other turns are extracted as usual.
    api.turn("u", "I'm allergic to peanuts.")
    assert [m["text"] for m in api.facts("u")["memories"]] == ["User is allergic to peanuts"]


def test_an_explicit_save_the_extractor_fails_on_stores_its_text(faulty: tuple[LocalServer, Api]) -> None:
    server, api = faulty
    stored = api.post("/memory/add", {"text": "Flying to Paris on Friday"}, headers={"X-End-User-ID": "u"})
    assert stored["text"] == "Flying to Paris on Friday"
    assert server.app.services.pipeline.extraction_failures == 1


@pytest.mark.parametrize(
    "text",
    ["We, the whole family, went to Paris last year.", "We`ve been busy with the move to Oslo.", "I´m vegan"],
)
def test_the_reported_texts_are_answered_2xx_by_the_real_extractor(api: Api, text: str) -> None:
    answer = api.turn("u", text)
    assert answer["processing_status"] in ("completed", "skipped_low_value")
