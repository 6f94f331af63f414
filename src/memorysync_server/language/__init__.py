"""Text as the server reads it, shared by extraction and retrieval: words, stopwords, stems, and
first-person words retold in the third person (``words``); whether a prompt asks about a person
(``people``); the days a question asks about (``when``)."""

from .people import about_someone
from .when import asked_days
from .words import STOPWORDS, content_words, retell_first_person, searched_text, stem, third_person

__all__ = [
    "STOPWORDS",
    "about_someone",
    "asked_days",
    "content_words",
    "retell_first_person",
    "searched_text",
    "stem",
    "third_person",
]
