"""Whether a prompt asks about a person: read from its words, whatever the person's name.

Recall's gate (retrieval/gate.py) scores how personal a prompt sounds from its vector, and a
name moves a vector: on one and the same LoCoMo question the gate's threshold ranged from 0.21
to 0.32 with the first name asked about. A prompt that names someone in a person's place ("did
Caroline ...", "Jon's studio", "Would Maria ...") or speaks of someone ("my", "her", "his",
"the user") is about a person, and recall then never drops what search finds for it.
"""

from __future__ import annotations

import re

from .scripts import CAPITALISED, UPPER

__all__ = ["about_someone"]

# Quoted text is what a task works on ("Translate 'my name is Ana'"), not what it asks about.
# A single quote opens a quotation only after a non-letter ("Melanie's pets'" is no quotation).
_QUOTED = re.compile(
    r"(?<![^\W\d_])'[^']*'(?![^\W\d_])|\"[^\"]*\"|\u201c[^\u201d]*\u201d|(?<![^\W\d_])\u2018[^\u2019]*\u2019(?![^\W\d_])"
)
# Capitalised words that are not people's names where a name could stand.
_NOT_A_NAME = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|"
    r"June|July|August|September|October|November|December|I|The|A|An|It|Its|This|That|These|Those|There|"
    r"Here|What|Who|Whom|Whose|Where|When|Why|How|Which|Let|Today|Tomorrow|Yesterday|Python|Java|"
    r"JavaScript|English|French|German|Spanish|Italian|Portuguese|Japanese|Chinese)\b)"
)
_NAME = _NOT_A_NAME + CAPITALISED
_PERSON = re.compile(
    # someone spoken of: the speaker's own things, a third person, the user
    r"\b(?:my|mine|myself|he|she|him|her|his|hers|the\s+user(?:'s)?)\b"
    # a name in a person's place: "did Caroline", "Would Maria" (not "is Mount Everest")
    r"|\b(?i:did|does|do|is|was|were|has|have|had|will|would|can|could|should|might|may)\s+"
    + _NAME
    + rf"\b(?!\s+{UPPER})"
    # a name owning something: "Jon's studio" (not "the Earth's")
    + r"|(?<!\bthe\s)(?<!\bThe\s)\b"
    + _NAME
    + r"(?:'s|\u2019s)\s"
    # a name the question is for: "a good choice for Aiko?", "important to Caroline?"
    + r"|\b(?:for|to)\s+"
    + _NAME
    + r"\s*\?\s*$"
)


def about_someone(prompt: str) -> bool:
    """Whether ``prompt`` asks about a person (named or spoken of), quoted text aside."""
    return bool(_PERSON.search(_QUOTED.sub(" ", prompt)))
