"""Writing systems: which script a text is in, and the words the lexical index stores and looks up.

Chinese and Japanese put no spaces between words, so a word-splitting tokenizer (SQLite's
unicode61, PostgreSQL's 'simple' parser) sees a whole clause as one token, and a question finds
nothing. Text is therefore cut into terms here, in Python, the same way for what is stored
(``indexed_text``) and what is asked (``query_terms``), so both engines match without a
tokenizer of their own:

- runs of Han, kana and Hangul become overlapping character pairs (我的猫叫咪咪 -> 我的 的猫 猫叫
  叫咪 咪咪; a lone character stays itself), the usual way to index CJK without a dictionary;
- full- and half-width forms are read as their usual ones (NFKC);
- other words are case-folded and lose their accents and vowel marks (Élodie -> elodie, heißt ->
  heisst, عمّان -> عمان), since people type questions without them;
- Arabic words also lose the article and the most common clitics (السيارة, سيارتي -> سيار), so
  "my car" finds "a car".

English text keeps the words it had (lower-cased), so its lexical matches are those of before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "CAPITALISED",
    "CJK",
    "LATIN",
    "UPPER",
    "has_letters",
    "indexed_text",
    "letter_scripts",
    "nfc",
    "query_terms",
    "terms",
]

LATIN = "latin"
CJK = "cjk"  # Han, kana and Hangul: written without spaces between words (Hangul with some)
ARABIC = "arabic"
HEBREW = "hebrew"
CYRILLIC = "cyrillic"
GREEK = "greek"
OTHER = "other"

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0041, 0x024F, LATIN),
    (0x1E00, 0x1EFF, LATIN),
    (0x0370, 0x03FF, GREEK),
    (0x0400, 0x052F, CYRILLIC),
    (0x0590, 0x05FF, HEBREW),
    (0x0600, 0x06FF, ARABIC),
    (0x0750, 0x077F, ARABIC),
    (0x08A0, 0x08FF, ARABIC),
    (0xFB1D, 0xFB4F, HEBREW),
    (0xFB50, 0xFDFF, ARABIC),
    (0xFE70, 0xFEFF, ARABIC),
    (0x1100, 0x11FF, CJK),
    (0x2E80, 0x2FDF, CJK),
    (0x3040, 0x30FF, CJK),
    (0x3100, 0x31FF, CJK),
    (0x3400, 0x4DBF, CJK),
    (0x4E00, 0x9FFF, CJK),
    (0xAC00, 0xD7AF, CJK),
    (0xF900, 0xFAFF, CJK),
    (0xFF66, 0xFF9F, CJK),
    (0x20000, 0x2FA1F, CJK),
)


def _letters(test: str) -> str:
    """A character class body of the letters below U+2000 (Latin, Greek, Cyrillic, Armenian...)
    that pass ``test`` ("isupper" or "islower"), as ranges."""
    cps = [cp for cp in range(0x41, 0x2000) if getattr(chr(cp), test)()]
    spans: list[tuple[int, int]] = []
    for cp in cps:
        if spans and spans[-1][1] == cp - 1:
            spans[-1] = (spans[-1][0], cp)
        else:
            spans.append((cp, cp))
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in spans
    )


# A capital letter (``UPPER``) and a capitalised word, in any alphabet with capitals: how a chat writes a name ("Caroline",
# "Tomás", "Zoë", "Björn", "Łukasz", "Дмитрий"). ``[A-Z][a-z]+`` missed every name with an
# accent, so a question about Tomás was not read as a question about a person.
UPPER = f"[{_letters('isupper')}]"
CAPITALISED = f"{UPPER}[{_letters('islower')}]+"


def script_of(ch: str) -> str:
    cp = ord(ch)
    for low, high, script in _RANGES:
        if low <= cp <= high:
            return script
    return OTHER


def nfc(text: str) -> str:
    """``text`` in Unicode's composed form: "é" typed as e + accent and as one character are the
    same memory, and show the same."""
    return unicodedata.normalize("NFC", text)


def letter_scripts(text: str) -> dict[str, int]:
    """How many letters of each script ``text`` has."""
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            script = script_of(ch)
            counts[script] = counts.get(script, 0) + 1
    return counts


def has_letters(text: str, script: str) -> bool:
    return any(ch.isalpha() and script_of(ch) == script for ch in text)


# Marks that a question is typed without: Latin/Greek/Cyrillic accents, Arabic vowel marks
# (harakat, shadda, dagger alif) and tatweel, Hebrew points. Kana voicing marks are not among them.
_DROPPED_MARKS = re.compile(
    "[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]"
)
_WORD = re.compile(r"[^\W_]+")
# One run of CJK characters or one other word (letters and digits).
_PIECE = re.compile(
    "([\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f]+)|([^\\W_]+)"
)
# Arabic: the article and the particles written onto it, and the endings a light stemmer drops
# (after Larkey et al.'s light10, less the rarer ones); a stem keeps at least three letters.
_AR_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال")
_AR_SUFFIXES = ("ها", "ان", "ات", "ون", "ين", "يه", "ية", "تي", "ه", "ة", "ي")
_AR_LETTERS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ى": "ي"})


def _arabic_stem(word: str) -> str:
    word = word.translate(_AR_LETTERS)
    for prefix in _AR_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            word = word[len(prefix) :]
            break
    for suffix in _AR_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word


def _folded_word(word: str) -> str:
    if any(script_of(ch) in (LATIN, GREEK, CYRILLIC, ARABIC, HEBREW) and not ch.isascii() for ch in word):
        word = nfc(_DROPPED_MARKS.sub("", unicodedata.normalize("NFD", word)))
        if has_letters(word, ARABIC):
            return _arabic_stem(word)
    return word


def _pairs(run: str) -> Iterable[str]:
    if len(run) == 1:
        yield run
        return
    for i in range(len(run) - 1):
        yield run[i : i + 2]


def terms(text: str) -> list[str]:
    """The lexical terms of ``text``, in order (see the module docstring)."""
    out: list[str] = []
    # Marks left uncomposed (Arabic and Hebrew ones always are) would split a word in two.
    for cjk, word in _PIECE.findall(_DROPPED_MARKS.sub("", unicodedata.normalize("NFKC", text).casefold())):
        if cjk:
            out.extend(_pairs(cjk))
        else:
            out.append(_folded_word(word))
    return out


def indexed_text(text: str) -> str:
    """What the lexical index stores for ``text``: its terms, separated by spaces (each engine's
    tokenizer then finds exactly these terms)."""
    return " ".join(terms(text))


def query_terms(text: str, stopwords: frozenset[str] = frozenset()) -> list[str]:
    """The distinct terms of a prompt, first occurrence first, less ``stopwords``."""
    return list(dict.fromkeys(t for t in terms(text) if t not in stopwords))
