"""A sentence told of "he" or "she" is a fact about that person only when the turn, or the turn
just before it, makes clear who that is: a wrong person is a false memory."""

from __future__ import annotations

import pytest

from memorysync_server.extraction import RuleExtractor, resolve_referents, unnamed
from memorysync_server.extraction.someone import people_in

EXTRACT = RuleExtractor(preload=False).extract


def _facts(turn: str, before: str = "", earlier: str = "") -> list[str]:
    """What the pipeline keeps of ``turn`` after ``before`` (and the speaker's own ``earlier``
    turn before that): a fact still told of "he" is dropped."""
    context = [t for t in (earlier, before) if t]
    read = [resolve_referents(fact, turn, context) for fact in EXTRACT(turn)]
    return [fact for fact in read if unnamed(fact) is None]


@pytest.mark.parametrize(
    ("turn", "before", "facts"),
    [
        # the person the listener asked about
        ("He's an architect.", "That's true love. What does Rui do?", ["Rui is an architect"]),
        (
            "He did. He needs a knee replacement, and it's scheduled for August.",
            "How's your dad's knee? Did he see the doctor?",
            ["User's dad needs a knee replacement, and it's scheduled for August"],
        ),
        (
            "Ha, it never came up! She teaches chemistry at a high school in Burnaby.",
            "Wait, girlfriend?? You never told me about an Elise!",
            ["Elise teaches chemistry at a high school in Burnaby"],
        ),
        # the person the turn named before; the speaker's own words are retold
        (
            "My sister Hana quit her job. She's been baking bread with me every weekend.",
            "",
            [
                "User's sister Hana quit her job",
                "User's sister Hana has been baking bread with User every weekend",
            ],
        ),
        # a chain of "he" keeps its person, though a sentence of it names someone else
        (
            "My brother is a nurse. He works nights with Maria. He loves the quiet wards.",
            "",
            [
                "User's brother is a nurse",
                "User's brother works nights with Maria",
                "User's brother loves the quiet wards",
            ],
        ),
        # a time fronted before the pronoun dates the fact; a heading before it is dropped
        (
            "Big news: she took her first steps! Last week she got her first tooth.",
            "How is your daughter Noor?",
            [
                "User's daughter Noor took her first steps",
                "User's daughter Noor got her first tooth last week",
            ],
        ),
        # the one a sentence of the turn names, though after a colon or with its "'s", before the
        # one the turn before asked about
        (
            "We found someone amazing: Celeste. She's 23 and plays like Oscar Peterson.",
            "How is Hana doing?",
            ["User and others found someone amazing: Celeste", "Celeste is 23 and plays like Oscar Peterson"],
        ),
        (
            "Oliver's hilarious! He hid his bone in my slipper once!",
            "Veggies is so cute!",
            ["Oliver hid his bone in their slipper once"],
        ),
        # a full name is one person; a name the turn speaks of as a thing ("its") is no one
        (
            "A freshman named Ezra Kim beat me. He's quiet and plays like a robot.",
            "",
            ["Ezra Kim is quiet and plays like a robot"],
        ),
        ("Seabrook even has its own marine lab. She's already obsessed.", "Do both have labs?", []),
        # the turn before told of someone as "he" already: a name beside that is not whom "he" is
        ("He's lucky to have a nurse for a son.", "He's nervous. Hana's running the bakery.", []),
        # a person named further back than PERSON_REACH sentences is not whom "she" is
        (
            "My sister Hana called. It rained. The bus was late. I ran. I got wet. She laughed at me.",
            "",
            [
                "User's sister Hana called",
                "User ran",
                "User got wet",
            ],
        ),
        # a name only spoken to is nobody told of: "Maria" is the speaker, addressed
        ("She's an amazing learner.", "Wow, cool Maria! Your little one is so smart!", []),
        # two people "she" could be, the wrong pronoun, or nobody: no fact
        ("Hana and Elise came over. She baked a cake.", "", []),
        ("My sister called. He said the roads were closed.", "", ["User's sister called"]),
        ("He's an architect.", "", []),
        # a wish, a bare reply, a remark about the listener: nothing lasting
        ("She'd love that.", "How's your mom?", []),
        ("He did.", "Did your dad call?", []),
        ("He drew you a cane.", "How's your son?", []),
        ("She usually is.", "Is your wife busy?", []),
        ('She did: "Go Jun, Swim!" Which was true.', "Did your wife make a sign?", []),
    ],
)
def test_a_sentence_told_of_he_or_she(turn: str, before: str, facts: list[str]) -> None:
    assert _facts(turn, before) == facts


@pytest.mark.parametrize(
    ("turn", "before", "earlier", "facts"),
    [
        # both went on about the one the speaker named in their turn before
        (
            "She had to leave in a hurry, but she's making progress.",
            "That's kind of you. How is she doing now?",
            "My cousin lost her flat, so I'm helping her find a new place.",
            ["User's cousin had to leave in a hurry, but she's making progress"],
        ),
        (
            "She raced in Florida under the name Kiowa Midnight Run.",
            "OH MY GOSH. She's beautiful!",
            "Lena, meet Pepper! I adopted her last Saturday!",
            ["Pepper raced in Florida under the name Kiowa Midnight Run"],
        ),
        # the listener asked after her by a name a dictionary knows
        (
            "A perfect passenger. She slept the entire seven hours.",
            "That's huge progress. And how was Pepper on the road trip?",
            "",
            ["Pepper slept the entire seven hours"],
        ),
        # the listener named her before saying "she"
        (
            "Thanks! She's always there to greet me when I come home.",
            "Coco looks so adorable! She seems so happy in that photo.",
            "",
            ["Coco is always there to greet them when they come home"],
        ),
        # the speaker's earlier turn never said "she" of the one it named: not whom "she" is
        (
            "She had to leave in a hurry.",
            "Oh no. How is she doing now?",
            "My cousin came over and we talked about Maria's flat.",
            [],
        ),
        # the listener told of two ("a gecko named Noodle", "my cat Biscuit"): no one
        (
            "Haha she looks zero percent sorry.",
            "A gecko named Noodle is the best! My cat Biscuit knocked over my seed trays.",
            "",
            [],
        ),
    ],
)
def test_he_or_she_across_turns(turn: str, before: str, earlier: str, facts: list[str]) -> None:
    assert _facts(turn, before, earlier) == facts


@pytest.mark.parametrize(
    ("turn", "facts"),
    [
        # "to" someone, not to a place
        (
            "We had to say goodbye to Max. He was part of our family for 10 years.",
            ["User and others had to say goodbye to Max", "Max was part of their family for 10 years"],
        ),
        # a name beside "a woman" is one told of, though between commas
        (
            "I met this amazing woman, Jean, at the shelter. She showed me what gratitude is.",
            ["User met this amazing woman, Jean, at the shelter", "Jean showed them what gratitude is"],
        ),
        # a parent called "Dad" by the speaker is their dad
        (
            "Dad, honestly. He ran a bakery in Albuquerque for 30 years.",
            ["User's dad ran a bakery in Albuquerque for 30 years"],
        ),
    ],
)
def test_whom_the_turn_names(turn: str, facts: list[str]) -> None:
    assert _facts(turn, "What made you start?") == facts


def test_the_speaker_tells_of_themselves_first() -> None:
    # A sentence with a fact of the speaker's keeps its usual reading.
    assert EXTRACT("But she's great and explains everything, so I trust her.") == [
        "User trusts her because she's great and explains everything"
    ]


@pytest.mark.parametrize(
    ("text", "listener", "called"),
    [
        ("My best friend Priya and my dad came.", False, ["User's friend Priya", "User's dad"]),
        ("How is your mum?", True, ["User's mum"]),
        ("My mum said hi.", True, []),  # the listener's own mum is no one of the user's
        ("How was the drive back up to Vancouver?", True, []),  # a place
        ("We went to Halfmoon Studios with Rui.", False, ["Rui"]),  # a firm's name of two words
        ("Thanks, Jun! And what does Elise think?", True, ["Elise"]),  # Jun is spoken to
        ("Hahaha. And then Monday came.", False, []),
        ("We said goodbye to Max.", False, ["Max"]),
        ("We live close to Boston, next to Fenway.", False, []),  # places, "to" or not
        ("I met a woman, Jean, who paints.", False, ["Jean"]),
        ("Dad, honestly.", False, ["User's dad"]),
        ("Thanks, Dad! Love you.", False, []),  # spoken to
        ("Dad said hi.", True, []),  # the listener's own dad
        ("Meet Pepper!", False, ["Pepper"]),
        ("My cat Biscuit hid.", True, ["Biscuit"]),  # the listener's cat, by name
        # asked after, though a dictionary knows the word
        ("The dream team reunited! How's Waffles?", True, ["Waffles"]),
        ("That sounds lovely. Does Pickles approve?", True, ["Pickles"]),
        ("Is Christmas fun there?", True, []),
    ],
)
def test_who_a_text_names(text: str, listener: bool, called: list[str]) -> None:
    assert [p.called for p in people_in(text, listener=listener)] == called
