"""Whether a prompt in another language than English speaks of the person: "我的猫叫什么名字？",
"¿Qué coche tengo?", "Wo wohnt der Nutzer?".

The relevance gate learns "personal" from English example sentences, which the English encoder
cannot read in other languages. What marks a question about the person is much the same in every
language, though: the speaker's own words (I, my, me, we), the word for "the user", or, where the
pronoun is usually dropped, the first-person form of the commonest verbs (Spanish "tengo",
Italian "ho") and possessive endings (Arabic "سيارتي", my car). Japanese and Chinese also name
one's own family without a possessive (妻 "my wife", 老婆).
"""

from __future__ import annotations

import re

from .scripts import CJK, nfc, script_of
from .words import wordset

__all__ = ["speaks_of_person"]


# Words (case-folded, accents kept as typed and also without them) of the speaker, "we" and "the user".
_SPEAKER_WORDS = wordset(
    # German
    """ich mich mir mein meine meinen meinem meiner meines wir uns unser unsere unseren unserem nutzer nutzerin
    benutzer benutzerin"""
    # Spanish, Portuguese, Italian (with the first person of be/have/live/work, as the pronoun is dropped)
    """ yo mí mi mis me conmigo nosotros nosotras nuestro nuestra nuestros nuestras usuario usuaria soy estoy
    tengo vivo trabajo eu meu minha meus minhas comigo nós nosso nossa sou estou tenho moro trabalho io mio mia
    miei mie sono ho lavoro utente"""
    # French, Dutch
    """ je j' moi mon ma mes nous notre nos utilisateur utilisatrice suis ik mij mijn wij ons onze gebruiker"""
    # Russian
    """ я меня мне мной мой моя моё мои мы нас нам наш наша наше наши пользователь"""
    # Arabic and Hebrew
    """ أنا انا لي عندي لدي نحن لنا عندنا المستخدم אני לי שלי אותי אנחנו שלנו המשתמש"""
)
# Chinese, Japanese, Korean: found anywhere in the text (no spaces to find words by).
_CJK_SPEAKER = (
    "我",
    "咱",
    "用户",
    "老婆",
    "老公",
    "私",
    "わたし",
    "あたし",
    "僕",
    "ぼく",
    "俺",
    "おれ",
    "うち",
    "自分",
    "ユーザー",
    "妻",
    "夫",
    "主人",
    "家内",
    "저",
    "제",
    "나",
    "내",
    "우리",
    "사용자",
)
# Arabic nouns with the first-person possessive ي ("my"): not after the article (الضوئي is an
# adjective), not a verb's third person (يساوي), and not the common words below that end so.
_ARABIC_MINE = re.compile(r"^(?!ال|ي)[\u0621-\u064a]{2,}ي$")
# An Arabic verb in the first person of the present, أفعل ("أسكن" I live, "أعمل" I work), less
# the adjectives and names of that shape ("أكبر" biggest, "أحمد").
_ARABIC_I_DO = re.compile(r"^أ[\u0621-\u064a]{3}$")
_NOT_I_DO = wordset(
    "أكبر أصغر أفضل أسوأ أطول أقصر أكثر أسرع أبطأ أعلى أدنى أقرب أبعد أحسن أجمل أغلى أرخص أقدم أحدث أهم أشهر "
    "أحمد أكرم أيمن أشرف أنور أمجد أسعد أحلام أمير أمين أول أخر أيضا أمام"
)
_NOT_MINE = wordset("في الذي التي اللذي على إلى الى حتى متى لدى هي أي اي ذي كي لكي عربي")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?'?")
_MARKS = re.compile("[\u064b-\u065f\u0670\u0640]")


def speaks_of_person(text: str) -> bool:
    """Whether ``text`` names the speaker, "we" or the user, in one of the languages above."""
    text = _MARKS.sub("", nfc(text).casefold())
    if any(word in text for word in _CJK_SPEAKER if any(script_of(ch) == CJK for ch in text)):
        return True
    for word in _WORD.findall(text):
        if word in _SPEAKER_WORDS or word.split("'")[0] + "'" in _SPEAKER_WORDS:
            return True
        if (_ARABIC_MINE.match(word) and word not in _NOT_MINE) or (
            _ARABIC_I_DO.match(word) and word not in _NOT_I_DO
        ):
            return True
    return False
