"""First-person clauses retold in the third person: "I broke my ankle" -> "User broke their ankle".

Verb forms come from LemmInflect's lexicon (lemmas with their part of speech, and inflections),
which knows irregular pasts ("broke", "tore", "lay") and spelling rules ("flies", "boxes",
"dyes") that hand-written suffix rules get wrong. What the lexicon cannot know is whether
"put"/"read"/"quit" is past or present; a time in the past in the clause ("last week", "in
2015", "ago") decides, otherwise the present is assumed, because people describe habits far
more often than one-off events in the present-looking form.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection

from ..language.scripts import UPPER
from ..language.words import retell_first_person

# Adverbs that may sit between the subject and its verb ("I hardly ever drink").
_ADVERBS = frozenset(
    [
        "always",
        "usually",
        "often",
        "never",
        "sometimes",
        "rarely",
        "really",
        "also",
        "still",
        "just",
        "mostly",
        "generally",
        "normally",
        "typically",
        "definitely",
        "actually",
        "recently",
        "currently",
        "mainly",
        "only",
        "totally",
        "absolutely",
        "strongly",
        "hardly",
        "ever",
        "seldom",
        "occasionally",
        "frequently",
        "even",
        "already",
        "barely",
        "regularly",
        "constantly",
        "basically",
        "honestly",
        "literally",
        "truly",
        "certainly",
        "probably",
        "genuinely",
        "secretly",
        "mostly",
        "nearly",
        "almost",
        "kinda",
        "sorta",
        "mainly",
        "primarily",
        "exclusively",
        "personally",
        # what unfront() moves after the subject ("Now I live ..." -> "I now live ...")
        "now",
        "finally",
        "lately",
        "eventually",
        "originally",
        "initially",
    ]
)
_MODALS = frozenset(
    ["can", "could", "should", "must", "might", "may", "will", "would", "shall", "cannot", "ought"]
)
_SUBJECT_PRONOUNS = frozenset(["i", "they", "he", "she", "we", "you", "it"])
# A verb after one of these belongs to a clause with its own subject, so it is left alone.
_SUBORDINATORS = frozenset(
    [
        "because",
        "so",
        "when",
        "whenever",
        "if",
        "while",
        "since",
        "although",
        "though",
        "that",
        "who",
        "which",
        "unless",
        "whereas",
        "once",
    ]
)
_MAYBE_SUBORDINATORS = frozenset(["before", "after", "until", "till", "as", "where"])
_COORDINATORS = frozenset(["and", "or", "but", "then"])
_OBJECT_STARTERS = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "their",
        "his",
        "her",
        "its",
        "our",
        "your",
        "him",
        "them",
        "it",
        "me",
        "us",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "every",
        "each",
        "all",
        "up",
        "out",
        "back",
        "down",
        "off",
        "away",
        "home",
        "over",
        "one",
        "two",
        "three",
        "four",
        "five",
    ]
)
# Verbs followed by "to <verb>" ("likes to read"), unlike "drives to work".
_CATENATIVES = frozenset(
    [
        "like",
        "love",
        "want",
        "need",
        "try",
        "hope",
        "plan",
        "prefer",
        "hate",
        "learn",
        "start",
        "begin",
        "decide",
        "tend",
        "use",
        "have",
        "go",
        "intend",
        "aim",
        "wish",
        "expect",
        "mean",
        "choose",
        "refuse",
        "promise",
        "manage",
        "continue",
        "forget",
        "remember",
        "help",
        "afford",
        "able",
    ]
)
_SLANG = {"wanna": "wants to", "gotta": "has to", "gonna": "is going to"}
_FINITE_AFTER_SUBJECT = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "does",
        "do",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "must",
    ]
)
# "I video call my parents": a noun used as the first half of a verb; the second half agrees.
_COMPOUND_VERBS = frozenset(
    [
        "video",
        "face",
        "spring",
        "stir",
        "deep",
        "hand",
        "dry",
        "baby",
        "dog",
        "house",
        "cat",
        "pet",
        "live",
        "speed",
        "power",
        "bulk",
        "day",
        "home",
        "window",
        "bottle",
        "breast",
        "spoon",
        "meal",
        "batch",
        "binge",
        "people",
    ]
)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_PAST_TIME = re.compile(
    r"\b(?:yesterday|ago|once|earlier|back\s+then|last\s+\w+|in\s+(?:19|20)\d\d|in\s+(?:" + _MONTHS + r")|"
    r"as\s+a\s+(?:child|kid|teenager|teen|student|baby)|when\s+(?:i|they)\s+(?:was|were)|used\s+to)\b",
    re.IGNORECASE,
)
_SPLIT_CONTRACTIONS = {
    "i'm": ["I", "am"],
    "im": ["I", "am"],
    "i've": ["I", "have"],
    "ive": ["I", "have"],
    "i'll": ["I", "will"],
    "i'd": ["I", "would"],
    "don't": ["do", "not"],
    "dont": ["do", "not"],
    "didn't": ["did", "not"],
    "didnt": ["did", "not"],
    "can't": ["cannot"],
    "cant": ["cannot"],
    "won't": ["will", "not"],
    "wont": ["will", "not"],
    "wouldn't": ["would", "not"],
    "couldn't": ["could", "not"],
    "shouldn't": ["should", "not"],
    "haven't": ["have", "not"],
    "hasn't": ["has", "not"],
    "wasn't": ["was", "not"],
    "isn't": ["is", "not"],
    "aren't": ["are", "not"],
    "mustn't": ["must", "not"],
}
_THIRD_PERSON_OF = {"am": "is", "have": "has", "do": "does", "be": "is", "was": "was", "were": "was"}
_PRONOUN_FORMS = {
    "i am": "they are",
    "i'm": "they are",
    "im": "they are",
    "i wasn't": "they weren't",
    "i was": "they were",
    "i've": "they have",
    "i'd": "they would",
    "i'll": "they will",
    "myself": "themselves",
    "mine": "theirs",
    "my": "their",
    "me": "them",
    "I": "they",
    "ourselves": "themselves",
    "ours": "theirs",
    "our": "their",
    "us": "them",
    "we're": "they're",
    "we": "they",
}
# One pass over the text. Lower case only for the plural forms: "US" is a country, "us" the user
# and those around them; and a lone "I" only in capitals.
_PRONOUNS = re.compile(
    r"\b(?:(?i:I\s+am|I'm|Im|I\s+wasn't|I\s+was|I've|I'd|I'll|myself|mine|my|me)|I|ourselves|ours|our|us|we're|we)\b"
)


_TRAILING_PUNCT = ",;:.!)\"'"
_JOINT_SUBJECT = re.compile(r"^my\s+((?:[\w'-]+\s+){0,2}?[\w'-]+)\s+and\s+(?:i|me)\s+(.+)$", re.I | re.S)
# "Anthony and I went ...", "Me and Lucy went ...", "Me and my brother built ...".
_NAMED_COMPANION = re.compile(rf"^({UPPER}[\w'-]*(?:\s+{UPPER}[\w'-]*)?)\s+and\s+(?:I|me)\s+(.+)$", re.S)
_ME_AND = re.compile(
    rf"^me\s+and\s+(?:(my\s+(?:[\w'-]+\s+){{0,1}}?[\w'-]+)|({UPPER}[\w'-]*))\s+(.+)$", re.I | re.S
)
_WE_SUBJECT = re.compile(r"^(?:we|we're|we've|we'll|we'd)\b", re.I)
_WE_FORMS = {"we": "", "we're": "are", "we've": "have", "we'll": "will", "we'd": "would"}
_MY_SUBJECT = re.compile(r"^my\s+(.+)$", re.I | re.S)


def mentions_past(text: str) -> bool:
    """Whether ``text`` names a time in the past ("last week", "in 2015", "used to")."""
    return bool(_PAST_TIME.search(text))


def swap_pronouns(text: str) -> str:
    """First-person words after the subject, retold: "when I was ten" -> "when they were ten"."""
    return retell_first_person(text, _PRONOUNS, _PRONOUN_FORMS)


_LEXICON_READY = threading.Event()
_LEXICON_LOCK = threading.Lock()


def load_lexicon() -> None:
    """Load LemmInflect's tables (about 50 MB, up to a second) once; later calls return at once.

    LemmInflect loads lazily and without a lock, so concurrent first lookups from a server's
    worker threads would each build their own copy; every lookup here waits for this one load.
    """
    if _LEXICON_READY.is_set():
        return
    with _LEXICON_LOCK:
        if not _LEXICON_READY.is_set():
            getAllLemmas("be")
            getInflection("be", "VBZ")
            _LEXICON_READY.set()


@lru_cache(maxsize=8192)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    load_lexicon()
    lemmas: dict[str, tuple[str, ...]] = getAllLemmas(word)
    return lemmas


@lru_cache(maxsize=8192)
def _third_singular(lemma: str) -> str:
    load_lexicon()
    forms = getInflection(lemma, "VBZ")
    return forms[0] if forms else lemma + "s"


@lru_cache(maxsize=8192)
def _pasts(lemma: str) -> tuple[str, ...]:
    load_lexicon()
    return getInflection(lemma, "VBD") or ()


# Lemmas whose past forms are everyday words in their own right ("rent" of "rend", "feed" of "fee").
_ARCHAIC_LEMMAS = frozenset(["fee", "rend", "wend", "gird", "gild", "bide", "cleave", "smite"])


def lexicon_knows(word: str) -> bool:
    """Whether ``word`` (lower case) is an English word LemmInflect lists; names mostly are not."""
    return bool(_lemmas(word))


def noun_number(word: str) -> str | None:
    """ "singular" or "plural" when LemmInflect lists ``word`` (lower case) as a noun, else None."""
    lemmas = _lemmas(word).get("NOUN")
    if not lemmas:
        return None
    return "singular" if word in lemmas else "plural"


def is_adjective(word: str) -> bool:
    """Whether LemmInflect lists ``word`` (lower case) as an adjective ("safe", "chill", "real")."""
    return "ADJ" in _lemmas(word)


def is_plain_past(word: str) -> bool:
    """ "went", "started": a past form only, never a base form or adjective ("read", "excited")."""
    lemmas = _lemmas(word)
    verbs = lemmas.get("VERB", ())
    if not verbs or "ADJ" in lemmas or "NOUN" in lemmas or word in verbs:
        return False
    return _is_past(word, verbs)


@lru_cache(maxsize=8192)
def _participles(lemma: str) -> tuple[str, ...]:
    load_lexicon()
    return getInflection(lemma, "VBN") or ()


def is_past_participle(word: str) -> bool:
    """ "seen", "been", "left": a past participle that is not also a base form ("read", "come")."""
    verbs = _verb_lemmas(word)
    return bool(verbs) and word not in verbs and any(word in _participles(lemma) for lemma in verbs)


def had_or_would(words: list[str], start: int) -> str | None:
    """What a spoken "'d" stands for, from the words after it (``words[start:]``): "had" before a
    past participle ("I'd never seen snow"), "would" otherwise ("I'd like"), None for "'d better"
    (advice to oneself, not a fact)."""
    at = _skip_adverbs(words, start)
    following = _bare(words[at]) if at < len(words) else ""
    if following == "better":
        return None
    return "had" if is_past_participle(following) else "would"


def is_participle(word: str) -> bool:
    """ "working", "reading": the -ing form of a verb; not "something", and not "being" (a subject then)."""
    if not word.endswith("ing") or word == "being":
        return False
    verbs = _lemmas(word).get("VERB", ())
    return bool(verbs) and word not in verbs


def could_be_nominal(word: str) -> bool:
    """True unless the lexicon knows ``word`` only as a verb or auxiliary ("is", "went")."""
    lemmas = _lemmas(_bare(word))
    return not lemmas or any(pos not in ("VERB", "AUX") for pos in lemmas)


def _verb_lemmas(word: str) -> tuple[str, ...]:
    lemmas = _lemmas(word)
    return lemmas.get("VERB", ()) + lemmas.get("AUX", ())


def is_past_form(word: str) -> bool:
    """ "made", "went", "painted": a verb's simple past."""
    return _is_past(word, _verb_lemmas(word))


def _is_past(word: str, verb_lemmas: tuple[str, ...]) -> bool:
    return any(
        word in _pasts(lemma) for lemma in verb_lemmas if lemma != word and lemma not in _ARCHAIC_LEMMAS
    )


def _with_case(form: str, like: str) -> str:
    return form[0].upper() + form[1:] if like[:1].isupper() else form


def conjugate(word: str, *, past_hint: bool = False) -> str:
    """``word`` as the verb of a singular third-person subject; past forms stay past."""
    core = word.rstrip(_TRAILING_PUNCT)
    tail = word[len(core) :]
    lower = core.lower()
    if not lower or lower in _MODALS:
        return word
    if lower in _THIRD_PERSON_OF:
        return _with_case(_THIRD_PERSON_OF[lower], core) + tail
    if "-" in lower and not _lemmas(lower):
        head, _, last = core.rpartition("-")
        return head + "-" + conjugate(last, past_hint=past_hint) + tail
    verb_lemmas = _verb_lemmas(lower)
    if verb_lemmas:
        if lower not in verb_lemmas or _is_past(lower, verb_lemmas):
            # Already inflected ("broke", "lived", "used", "saw"): a past or participle stays.
            return word
        if past_hint and lower in _pasts(lower):
            return word
        return _with_case(_third_singular(lower), core) + tail
    if lower.endswith("ed"):
        return word
    return _with_case(_third_singular(lower), core) + tail


def _could_be_verb(word: str) -> bool:
    return _bare(word) in _verb_lemmas(_bare(word))


def _bare(word: str) -> str:
    """The word for lookups: lower case, without the punctuation typed after it."""
    return word.rstrip(_TRAILING_PUNCT).lower()


def _only_adverb(word: str) -> bool:
    # "slowly", "happily": never a verb, so never conjugated ("slowlies"); nor is an -ly word the
    # lexicon does not know ("I weirdly love it": "weirdlies").
    if not word.endswith("ly") or len(word) <= 4:
        return False
    kinds = set(_lemmas(word))
    return kinds == {"ADV"} or not kinds


def _skip_adverbs(words: list[str], i: int) -> int:
    while i < len(words):
        bare = _bare(words[i])
        if (
            bare in _ADVERBS
            or _only_adverb(bare)
            or (bare == "no" and i + 1 < len(words) and _bare(words[i + 1]) == "longer")
        ):
            i += 2 if bare == "no" else 1
            continue
        if bare == "longer" and i > 0 and _bare(words[i - 1]) == "no":
            i += 1
            continue
        break
    return i


def _conjugate_predicate(words: list[str], past_hint: bool) -> list[str]:
    """Make every verb of the user's own predicate agree: the first one, and those coordinated with it."""
    out = list(words)
    i = _skip_adverbs(out, 0)
    if i >= len(out):
        return out
    first = _bare(out[i])
    if first in _COMPOUND_VERBS and i + 1 < len(out) and _could_be_verb(out[i + 1]):
        i += 1
        out[i] = conjugate(out[i], past_hint=past_hint)
    elif first == "have" and i + 1 < len(out) and _bare(out[i + 1]) == "got":
        out[i] = _with_case("has", out[i])
        del out[i + 1]
    elif first in _SLANG:
        out[i : i + 1] = _SLANG[first].split()
        i += len(_SLANG[first].split()) - 1
    else:
        out[i] = conjugate(out[i], past_hint=past_hint)
    last_verb = i
    j = i + 1
    while j < len(out):
        bare = _bare(out[j])
        if bare in _SUBORDINATORS:
            break
        if (
            bare in _MAYBE_SUBORDINATORS
            and j + 1 < len(out)
            and _bare(out[j + 1]) in (_SUBJECT_PRONOUNS | {"my", "the", "a"})
        ):
            break
        # "I run, swim and cycle": a word right after "<verb>," may be the next verb of a list.
        in_list = out[j - 1].endswith(",") and j - 1 == last_verb
        if bare in _COORDINATORS or in_list:
            k = j if in_list else _skip_adverbs(out, j + 1)
            if k < len(out) and _coordinated_verb(out, j, k, last_verb, in_list):
                out[k] = conjugate(out[k], past_hint=past_hint)
                last_verb = k
                j = k + 1
                continue
        j += 1
    return out


def _takes_infinitive(word: str) -> bool:
    bare = _bare(word)
    return bool(_CATENATIVES.intersection((bare, *_verb_lemmas(bare))))


def _coordinated_verb(out: list[str], j: int, k: int, last_verb: int, in_list: bool) -> bool:
    """Whether ``out[k]``, after the coordinator (or list comma) at ``j``, is another verb of the user."""
    word = _bare(out[k])
    following = _bare(out[k + 1]) if k + 1 < len(out) else None
    if word in _SUBJECT_PRONOUNS or not _could_be_verb(out[k]) or following in _FINITE_AFTER_SUBJECT:
        # "but fish is fine": a noun starting a new statement, not a second verb.
        return False
    if in_list or j - 1 == last_verb or k > j + 1:
        # Right after the previous verb ("work and study"), or after an adverb ("and rarely sleep").
        return True
    if j >= 3 and _bare(out[j - 2]) == "to" and _takes_infinitive(out[j - 3]):
        return False  # "likes to read and write": both belong to the infinitive
    if _lemmas(_bare(out[j - 1])).get("NOUN"):
        # After a noun, "and golf on Sundays" continues a list of nouns; a verb takes an object
        # ("a dog and walk him", "dinner and wash up").
        return following in _OBJECT_STARTERS
    return True


def _coordinated_past(rest: list[str]) -> bool:
    """ "read that book and loved it": a plain past after "and" puts the whole predicate in the past."""
    for n in range(1, len(rest) - 1):
        if _bare(rest[n]) in _COORDINATORS:
            following = (
                _bare(rest[_skip_adverbs(rest, n + 1)]) if _skip_adverbs(rest, n + 1) < len(rest) else ""
            )
            if following and _is_past(following, _verb_lemmas(following)) and "ADJ" not in _lemmas(following):
                return True
    return False


def _split_contractions(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        out.extend(_SPLIT_CONTRACTIONS.get(word.lower().replace("\u2019", "'"), [word]))
    return out


_NOT_COMPANIONS = frozenset(["it", "this", "that", "you", "he", "she", "they", "we", "work", "life", "user"])


def to_third_person(clause: str, *, past_hint: bool | None = None) -> str | None:
    """``clause`` (starting with I/I'm/My/...) about "User", or None when it is not about the user.

    "I'm a night owl and rarely sleep before 2am" -> "User is a night owl and rarely sleeps
    before 2am"; "My wife is a surgeon" -> "User's wife is a surgeon"; "My husband and I live in
    Leeds" -> "User and their husband live in Leeds".
    """
    text = clause.strip()
    m = _JOINT_SUBJECT.match(text)
    if m:
        return f"User and their {m.group(1)} {swap_pronouns(m.group(2))}"
    m = _ME_AND.match(text)
    if m:
        who = "their " + m.group(1).split(maxsplit=1)[1] if m.group(1) else m.group(2)
        return f"User and {who} {swap_pronouns(m.group(3))}"
    m = _NAMED_COMPANION.match(text)
    if m and m.group(1).split()[0].lower() not in _NOT_COMPANIONS:
        return f"User and {m.group(1)} {swap_pronouns(m.group(2))}"
    if _WE_SUBJECT.match(text):
        # Who "we" are is not said: "User and others", with the plural verb as spoken.
        first, _, said = text.partition(" ")
        # "We, the whole family, went ...": the comma is not part of the subject.
        verb = _WE_FORMS.get(first.lower().rstrip(",;:"))
        if verb is None:  # "We`ve" or another spelling the forms do not know: say nothing
            return None
        if verb == "would":
            verb = had_or_would(said.split(), 0) or ""
            if not verb:
                return None
        return " ".join(w for w in ("User and others", verb, swap_pronouns(said)) if w)
    m = _MY_SUBJECT.match(text)
    if m:
        return "User's " + swap_pronouns(m.group(1))
    words = _split_contractions(text.split())
    if not words or words[0].lower() != "i" or len(words) < 2:
        return None
    rest = words[1:]
    if past_hint is None:
        past_hint = mentions_past(text)
    past_hint = past_hint or _coordinated_past(rest)
    # Only the user's own predicate is conjugated; a subordinate clause ("because I'm ...")
    # keeps its own verbs and gets "they", which takes the plural form.
    cut = len(rest)
    for n, word in enumerate(rest):
        bare = _bare(word)
        if n > 0 and (
            bare in _SUBORDINATORS
            or (
                bare in _MAYBE_SUBORDINATORS and n + 1 < len(rest) and _bare(rest[n + 1]) in _SUBJECT_PRONOUNS
            )
        ):
            cut = n
            break
    predicate = _conjugate_predicate(rest[:cut], past_hint)
    if _bare(rest[0]) == "would":
        spoken = had_or_would(rest, 1)
        if spoken is None:
            return None
        predicate[0] = spoken  # "I'd been", "I'd never seen" are "I had ..."
    return "User " + swap_pronouns(" ".join(predicate + rest[cut:]))
