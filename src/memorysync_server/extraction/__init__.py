"""Where a turn's facts are made: pure functions of text, no storage, no HTTP.

- ``extract``: the ``Extractor`` protocol and ``RuleExtractor``, one fact per durable statement;
- ``third_person``: "I moved to Oslo" -> "User moved to Oslo";
- ``chat_forms``: the shapes of chat that hide a statement (leads, reactions, riddles, fronting);
- ``substance``: whether a clause says anything worth keeping;
- ``timephrases``: relative time phrases ("last week") resolved against the turn's date;
- ``referents``: a fact's "it" or "them" read from the turn and the turns just before it;
- ``someone``: "He's an architect" after "What does Rui do?" -> "Rui is an architect";
- ``asked``: the listener's question a turn answers (its topic, for the turn's vector).
"""

from .asked import question_asked
from .extract import Extractor, RuleExtractor, is_low_value, tells
from .referents import resolve_referents, stands_alone
from .someone import unnamed
from .substance import EMPTY_WORDS
from .timephrases import day, resolve

__all__ = [
    "EMPTY_WORDS",
    "Extractor",
    "RuleExtractor",
    "day",
    "is_low_value",
    "question_asked",
    "resolve",
    "resolve_referents",
    "stands_alone",
    "tells",
    "unnamed",
]
