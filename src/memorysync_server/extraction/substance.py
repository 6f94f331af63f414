"""Whether a first-person clause tells something durable about the speaker.

Chat is mostly conversation: reactions ("I'm so excited!"), promises to the listener ("I'll
check it out", "I'll send you the recipe"), hedges ("I'm sure it'll be worth it"), answers that
only make sense after the question ("Yes, I did") and remarks about the listener ("I'm proud of
you"). Stored as memories they read as facts about the speaker that say nothing, or something
about someone else, so each kind is refused here rather than retold.
"""

from __future__ import annotations

import re

from ..language.words import wordset
from .third_person import is_past_form

# The listener: a clause that mentions them is about them or addressed to them.
_LISTENER = re.compile(
    r"\b(?:you|your|yours|yourself|yourselves|you're|youre|you've|you'll|you'd|ya|u|ur)\b", re.I
)
# What anyone does on any day: no topic to remember ("go do some research", "get some work done").
_GENERIC_ERRAND = (
    r"(?:\s+\w+){0,2}?\s+(?:some\s+|my\s+|the\s+)?(?:research|work|stuff|things|errands|chores|homework|"
    r"something)(?:\s+done)?\s*[.!]*$"
)
# Guesses and wishes, not facts: "I'm sure it'll be worth it", "I bet", "I hope so".
_HEDGE = re.compile(
    r"^i(?:'m|\s+am|m)\s+(?:so\s+|pretty\s+|really\s+)?(?:sure|certain|positive|confident|glad|happy\s+to\s+hear|"
    # "I'm off to bed" and "I'm off to do some work" are chatter; "I'm off to do some taekwondo"
    # tells what the speaker does.
    r"off\s+to\b(?!\s+(?:do|have|go|play|see|visit|meet|watch|grab|try|start|take|catch|practi[cs]e|run|walk|"
    r"hike|swim|train|teach|volunteer|help|paint|cook|bake|shop|work\s+on)\b(?!"
    + _GENERIC_ERRAND
    + r"))|off\s*$)"
    r"|^i\s+bet\b(?!\s+on\b)|^i\s+(?:guess|suppose|reckon|feel\s+(?:the\s+same|like)|hope\s+(?:so|not|that|it|this|they|he|she|"
    r"we|everything|things|all))\b"
    r"|^i\s+can\s+(?:only\s+)?(?:imagine|picture|tell|see|relate|understand)\b"
    r"|^i\s+(?:should|might|may|must)\b"
    r"|^we\s+(?:should|could|might|may|would|must|can|all)\b"
    # Resolve, not a fact: "I'll keep going", "I won't quit", "I'm gonna keep chasing my dreams".
    r"|^(?:i|we)(?:'ll|\s+will|'m\s+gonna|'m\s+going\s+to|'re\s+gonna|\s+won't|\s+will\s+not|\s+never)\s+"
    r"(?:\w+ly\s+|always\s+|just\s+|still\s+)?(?:keep|quit|stop|let\s+\w+\s+get|make\s+it|do\s+(?:my|our)\s+best|"
    r"reach|go\s+for|chase)\b",
    re.I,
)
# Set phrases that carry no information of their own.
_IDIOMS = re.compile(
    r"\b(?:make\s+it\s+(?:work|happen)|check\s+(?:it|them|that|this)\s+out|keep\s+(?:it|that|this)\s+in\s+mind|"
    r"keep\s+(?:it|that)\s+up|keep\s+going|keep\s+pushing|keep\s+at\s+it|do\s+(?:their|my)\s+best|in\s+the\s+end|"
    r"worth\s+it|ups\s+and\s+downs|hang\s+out|talk\s+soon|let\s+(?:them|me)\s+know|for\s+sure|a\s+lot|so\s+much|"
    r"great\s+time|good\s+time|the\s+same\s+way)\b",
    re.I,
)


# Words that leave a clause empty when nothing else is said: auxiliaries, pronouns, light verbs,
# reactions and feelings without an object, degree words and times without an event.
EMPTY_WORDS = wordset(
    """user user's and others is are was were be been being am has have had do does did doing done will would can
    could should might may must shall cannot not no never gonna going to wanna gotta it it's this that these those
    they them their theirs themselves he him his she her so there here something anything everything nothing
    stuff thing things lot lots way ways all too more much most really very just definitely totally absolutely
    truly actually still also always even already again ever now then today tonight lately recently soon
    yet a an the of for with about at in on up out off back over into by as some any one ones get gets got
    getting make makes made making go goes went going gone keep keeps kept keeping try tries tried trying
    check checks checked see sees saw seen agree agrees agreed know knows knew hope hopes hoped bet bets think
    thinks thought feel feels felt guess love loves loved like likes liked enjoy enjoys enjoyed mean means
    meant sound sounds sounded seem seems seemed happen happens happened stay stays stayed staying do say says said look looks looked tell tells
    appreciate appreciates appreciated need needs needed want wants wanted yes yeah yep ok okay fine good great
    amazing awesome cool nice fun lovely wonderful fantastic incredible brilliant perfect best better well
    sure glad happy excited stoked thrilled proud grateful thankful determined hopeful positive optimistic
    motivated inspired impressed pumped blessed lucky sorry sad upset tired busy ready relieved
    honored honoured humbled overwhelmed amazed surprised curious interested super pretty quite kinda sorta
    bit little time times day days moment moments experience same other others new what how who which while
    because if when than such yesterday tomorrow week weekend month year morning afternoon evening night
    last next ago earlier later there opposite"""
)
_WORD = re.compile(r"[a-z][a-z'-]*")


def about_listener(clause: str) -> bool:
    """Whether ``clause`` (as typed) mentions the person spoken to."""
    return bool(_LISTENER.search(clause))


# "We all need a break sometimes" says what everyone does; "We all made our own pots" what happened.
_WE_ALL = re.compile(r"^we\s+all\s+(\w+)", re.I)


def is_hedge(clause: str) -> bool:
    """A guess, a wish, a suggestion or a reaction worded as a statement ("I bet", "We should ...")."""
    if not _HEDGE.match(clause):
        return False
    we_all = _WE_ALL.match(clause)
    return not (we_all and is_past_form(we_all.group(1).lower()))


def says_something(fact: str) -> bool:
    """Whether ``fact`` ("User ...") holds a word beyond the empty ones: "User is vegan" does,
    "User is gonna make it happen" and "User did" don't."""
    text = _IDIOMS.sub(" ", fact.lower())
    return any(word not in EMPTY_WORDS for word in _WORD.findall(text)) or bool(re.search(r"\d", fact))
