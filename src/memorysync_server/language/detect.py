"""Whether a turn reads as English: the one question the English rules need answered.

Extraction's rules, the low-value filter's filler words and the relevance gate's examples are
English. A turn in another script is plainly not English; a turn in Latin script is told apart
by its function words ("ich", "mein", "und" against "I", "my", "and"), which short chat turns
are full of. Ties go to English, so an English turn is read exactly as before: on the eval's
English turns and LoCoMo's (see ``eval/languages.py``) none is read as another language.
"""

from __future__ import annotations

import re

from .scripts import LATIN, letter_scripts, nfc

__all__ = ["FUNCTION_WORDS", "latin_language", "reads_as_english"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Short, frequent words of each language, greetings and thanks among them (chat turns are short).
# Words two languages share ("in", "me", "a", "die") count for neither when those two are compared.
FUNCTION_WORDS = {
    "en": _words(
        """the and is are was were i i'm i've i'd i'll im my me you you're your it it's this that to of in on for
        with have has had do does did don't didn't not what where how who when which we our be been will would
        can at from just so but about they he she his her there here an a or if really very yes like any into
        other up out some all one no get got go going know think want good thanks thank hi hey hello ok okay"""
    ),
    "de": _words(
        """der die das und ist ich mein meine meinen meiner meinem mir mich nicht ein eine einen einer einem wie
        was wo wer bin habe hat haben sind mit auf für von zu im in ins den dem des seit jeden jede letzten
        letzte nach gegen auch aber oder noch schon sehr wir unser unsere du dein deine sie er es ja nein danke
        bitte hallo tschüss alles klar gut guten welche welcher welches jetzt hier"""
    ),
    "es": _words(
        """el la los las y es soy yo mi mis me a del en un una que con por para se como qué dónde cuál cómo
        tengo estoy está vivo desde al pero muy también nosotros nuestro tu tú su sus lo le les hay eres fue
        hola gracias muchas vale sí bueno buenos días adiós alguna algún ahora"""
    ),
    "fr": _words(
        """le la les et est je j' mon ma mes moi me du des de un une que qui avec pour dans sur ne pas c'est
        suis ai il elle au aux comment quel quelle quels où nous notre tu ton ta vous votre mais aussi très
        depuis chez j'ai j'habite bonjour salut merci beaucoup oui non d'accord combien fois maintenant"""
    ),
    "it": _words(
        """il lo gli e è io mio mia miei mi di del della un una che con per non sono ho ma anche molto
        noi nostro tu tuo come dove quale sei in ciao grazie"""
    ),
    "pt": _words(
        """o os e é eu meu minha meus me do da dos das um uma que com para não sou tenho mas também muito
        nós nosso você seu sua como onde qual estou olá obrigado obrigada"""
    ),
    "nl": _words(
        """het een en ik mijn mij niet van met voor op wat waar hoe ben heb heeft zijn ook maar heel
        wij ons onze jij je jouw hij zij in hallo dank bedankt"""
    ),
}
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|[^\W\d_]+'")


def latin_language(text: str) -> str:
    """The language whose function words a Latin-script ``text`` holds most of ("en" on a tie or
    when it holds none, unless it has letters English does not use and no English word)."""
    words = _WORD.findall(nfc(text).casefold())
    english = FUNCTION_WORDS["en"]
    best, best_count, best_english = "en", 0, 0
    for language, known in FUNCTION_WORDS.items():
        if language == "en":
            continue
        count = sum(w in known and w not in english for w in words)
        theirs = sum(w in english and w not in known for w in words)
        if count > theirs and (count > best_count or (count == best_count and theirs < best_english)):
            best, best_count, best_english = language, count, theirs
    if best == "en":
        if not any(w in english for w in words) and any(not ch.isascii() and ch.isalpha() for ch in text):
            return "und"  # "Käsespätzle!": not English, but which language it does not say
        return "en"
    # One word of another language among English ones ("I said merci and left") keeps it English.
    return best if best_count >= 2 or best_english == 0 else "en"


def reads_as_english(text: str) -> bool:
    """Whether ``text`` is for the English rules: most of its letters Latin and its function
    words not another language's. Text without letters counts as English (nothing to read)."""
    scripts = letter_scripts(text)
    letters = sum(scripts.values())
    if letters and scripts.get(LATIN, 0) * 2 < letters:
        return False
    return latin_language(text) == "en"
