"""Turns in languages the English rules cannot read: kept as said, unless plainly empty.

Extraction's rules are English. A turn in another language ("我对花生过敏。", "Ich fahre einen
alten Golf.") gives no fact, and must not be judged worthless for that: it is kept verbatim (the
pipeline stores it as a kept turn, dated) unless it is plainly empty in its own language: no
letter at all, greetings, thanks, "ok" and their like (``FILLER``), or a single word, as the
English filter drops "ok" or "Bristol" alone. Questions ("我的猫叫什么名字？", "¿Qué coche
tengo?") tell nothing about the person and are not kept, as in English.
"""

from __future__ import annotations

import re
import unicodedata

from ..language.scripts import CJK, script_of

__all__ = ["FILLER", "is_plainly_empty", "tells_in_any_language"]


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Greetings, thanks, yes/no/ok, farewells and reactions, per language; with the English filler
# words (extract.FILLER_WORDS) they make a turn plainly empty. Latin, Cyrillic, Arabic and Hebrew
# entries are words (compared without accents or vowel marks); Chinese, Japanese and Korean ones
# are cut out of the text wherever they stand, longest first, with the particles left behind.
FILLER: dict[str, tuple[str, ...]] = {
    "de": _phrases(
        "hallo hi hey servus moin tschüss ciao danke schön vielen dank bitte ja nein jo nö ok okay alles klar gut "
        "super prima toll cool genau stimmt guten morgen tag abend gute nacht bis später bald dann"
    ),
    "es": _phrases(
        "hola buenas buenos días tardes noches gracias muchas mil vale ok sí no bueno perfecto genial claro "
        "de nada adiós chao hasta luego pronto mañana jaja jeje"
    ),
    "fr": _phrases(
        "bonjour salut bonsoir coucou merci beaucoup bien oui non ouais d'accord ok super parfait génial "
        "au revoir bonne nuit journée soirée à bientôt de rien ça va mdr"
    ),
    "it": _phrases("ciao buongiorno buonasera grazie mille sì no va bene ok perfetto certo arrivederci"),
    "pt": _phrases("olá oi obrigado obrigada muito sim não tudo bem bom dia tchau valeu beleza"),
    "nl": _phrases("hallo hoi dank je wel bedankt ja nee oké prima goedemorgen doei tot ziens"),
    "ru": _phrases("привет здравствуйте спасибо большое пока да нет хорошо ок ладно понятно конечно"),
    "ar": _phrases(
        "مرحبا أهلا اهلا السلام عليكم وعليكم شكرا جزيلا حسنا نعم لا تمام طيب مع السلامة صباح مساء الخير النور "
        "باي أوكي اوكي"
    ),
    "he": _phrases("שלום היי תודה רבה בסדר כן לא אוקיי ביי להתראות בוקר ערב טוב"),
    "zh": _phrases(
        "你好 您好 大家好 谢谢你 谢谢您 谢谢 多谢 感谢 好的 好吧 好啊 嗯嗯 哈哈哈 哈哈 呵呵 再见 拜拜 没问题 不客气 "
        "没关系 对的 是的 行 可以 知道了 明白了 早上好 晚上好 晚安 好 嗯 对 是"
    ),
    "ja": _phrases(
        "こんにちは こんばんは おはようございます おはよう ありがとうございました ありがとうございます ありがとう "
        "どうも はい いいえ うん ええ 了解です 了解 わかりました 分かりました よろしくお願いします よろしく "
        "お願いします おやすみなさい おやすみ じゃあね またね さようなら すみません ごめんなさい ごめん "
        "そうですね なるほど 大丈夫です 大丈夫 お疲れ様です お疲れ様 いいね"
    ),
    "ko": _phrases("안녕하세요 안녕 감사합니다 고마워요 고마워 네 예 아니요 좋아요 알겠습니다 잘자요"),
}
# What is left of a CJK greeting once its words are cut out: particles, "you", "everyone".
_CJK_LEFTOVERS = set("你您们吗呢吧啊呀哦了的ねよかなでしすもう")

_MARKS = re.compile(
    "[\u0300-\u036f\u064b-\u065f\u0670\u0640\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]"
)
_ALEF = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ى": "ي", "ة": "ه"})
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _fold(text: str) -> str:
    """Lower case, no accents or vowel marks, one form of alef: how filler words are compared."""
    bare = _MARKS.sub("", unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold()))
    return unicodedata.normalize("NFC", bare).translate(_ALEF)


def _english_filler() -> frozenset[str]:
    from .extract import FILLER_WORDS

    return FILLER_WORDS


_SPACED = frozenset(
    _fold(w) for language, words in FILLER.items() if language not in ("zh", "ja", "ko") for w in words
)
_CJK_PHRASES = sorted(
    {w for language in ("zh", "ja", "ko") for w in FILLER[language]},
    key=lambda phrase: (-len(phrase), phrase),
)


def _cjk_run(ch: str) -> bool:
    return ch.isalpha() and script_of(ch) == CJK


def is_plainly_empty(text: str) -> bool:
    """No letter; only greetings, thanks, yes/no/ok and the like, in any language this module
    knows; or a single word (in Chinese or Japanese, at most two characters)."""
    if not any(ch.isalpha() for ch in text):
        return True
    folded = _fold(text)
    cjk = "".join(ch if _cjk_run(ch) else " " for ch in folded)
    others = "".join(" " if _cjk_run(ch) else ch for ch in folded)
    words = _WORD.findall(others)
    cjk_letters = sum(1 for ch in cjk if ch != " ")
    if cjk_letters <= 2 and len(words) + (1 if cjk_letters else 0) <= 1:
        return True
    filler = _SPACED | _english_filler()
    if any(word not in filler and not all(part in filler for part in word.split("'")) for word in words):
        return False
    for phrase in _CJK_PHRASES:
        cjk = cjk.replace(phrase, " ")
    return all(ch == " " or ch in _CJK_LEFTOVERS for ch in cjk)


_SENTENCE_END = re.compile(r"(?<=[.!?。！？؟…])\s*|\n+")
_QUESTION = re.compile(r"(?:[?？؟]|(?:吗|呢|么|ですか|ますか|でしょうか|か|かな))[\s\"'”」』)）]*$")


def tells_in_any_language(text: str) -> bool:
    """Whether some sentence of ``text`` says something: neither a question nor plainly empty."""
    for sentence in _SENTENCE_END.split(text):
        said = sentence.strip().rstrip(".!。！…").strip()
        if said and not said.startswith("¿") and not _QUESTION.search(said) and not is_plainly_empty(said):
            return True
    return False
