"""Memory in every language (issue 35): no turn dropped for its language, found again in it.

The sentences here are not those of the eval set (eval/data/languages), so the rules are checked
on text they were not written against. End-to-end tests run on SQLite and PostgreSQL (``server``):
the lexical index stores the terms ``language.scripts`` cuts, whatever the engine's tokenizer.
"""

from __future__ import annotations

import unicodedata

import pytest

from memorysync_server import LocalServer
from memorysync_server.extraction import is_low_value
from memorysync_server.extraction.any_language import is_plainly_empty, tells_in_any_language
from memorysync_server.language.detect import reads_as_english
from memorysync_server.language.persons import speaks_of_person
from memorysync_server.language.scripts import indexed_text, query_terms

from ..api import Api

# --- cutting text into the lexical index's terms ---------------------------------------------


def test_chinese_and_japanese_are_cut_into_character_pairs() -> None:
    assert indexed_text("我住在上海") == "我住 住在 在上 上海"
    assert indexed_text("猫") == "猫"  # a lone character stays itself
    # Kana and kanji run on together; a voiced kana keeps its mark (が is not か).
    assert indexed_text("ががんぼ") == "がが がん んぼ"


def test_latin_words_lose_case_and_accents_and_english_is_as_it_was() -> None:
    assert indexed_text("Crème Brûlée, GROẞE Straße") == "creme brulee grosse strasse"
    assert indexed_text("I don't eat red meat.") == "i don t eat red meat"
    assert query_terms("Où habite Zoë ?") == ["ou", "habite", "zoe"]


def test_full_and_half_width_forms_are_read_as_usual_ones() -> None:
    assert indexed_text("Ｔｏｋｙｏ ﾀﾏ") == "tokyo タマ"


def test_arabic_loses_vowel_marks_article_and_possessive() -> None:
    # "my house" finds "the house"; shadda and alef forms do not matter.
    assert query_terms("بيتي")[0] == indexed_text("البيت")
    assert indexed_text("مُحَمَّد") == indexed_text("محمد")


def test_hebrew_maqaf_still_separates_words() -> None:
    assert indexed_text("תל־אביב") == "תל אביב"


# --- which turns the English rules read --------------------------------------------------------

ENGLISH = [
    "We went to Paris last year and loved it.",
    "Je suis Charlie was trending that week, I remember.",
    "My sister says gracias to everyone, it's her thing.",
    "Any news on the flat in Lisbon?",
]
NOT_ENGLISH = [
    "Wir haben letztes Jahr einen Hund adoptiert.",
    "Mi hija empieza la universidad en septiembre.",
    "Nous avons acheté une maison près de la mer.",
    "Ho appena finito il mio dottorato.",
    "Eu trabalho numa padaria em Braga.",
    "Ik ben verhuisd naar Utrecht.",
    "我下个月要去东京出差。",
    "来月から大阪で働きます。",
    "나는 서울에 살아요.",
    "Я живу в Казани.",
    "أدرس الطب في جامعة دمشق.",
    "אני גר בחיפה עם שני חתולים.",
]


@pytest.mark.parametrize("text", ENGLISH)
def test_english_reads_as_english(text: str) -> None:
    assert reads_as_english(text)


@pytest.mark.parametrize("text", NOT_ENGLISH)
def test_other_languages_do_not_read_as_english(text: str) -> None:
    assert not reads_as_english(text)


# --- low value, in every language --------------------------------------------------------------

EMPTY = [
    "Vielen Dank!",
    "Hola, buenas",
    "Merci, bonne soirée !",
    "Grazie mille",
    "Спасибо большое!",
    "谢谢！",
    "好的好的",
    "おはようございます！",
    "감사합니다",
    "شكراً جزيلاً",
    "תודה רבה",
    "🙏🙏",
    "上海",  # a single word, as "Bristol" alone is in English
]


@pytest.mark.parametrize("text", EMPTY)
def test_greetings_thanks_and_single_words_are_low_value_in_their_language(text: str) -> None:
    assert is_low_value(text)


@pytest.mark.parametrize("text", NOT_ENGLISH)
def test_statements_in_other_languages_are_not_low_value_and_tell_something(text: str) -> None:
    assert not is_low_value(text)
    assert tells_in_any_language(text)


def test_the_english_low_value_rule_of_the_contract_is_unchanged() -> None:
    assert is_low_value("ok") and is_low_value("thanks you") and is_low_value("Bristol")
    assert not is_low_value("I'm vegan") and not is_low_value("yes thank you")


@pytest.mark.parametrize(
    "question",
    ["我住在哪里？", "私はどこに住んでいますか", "¿Dónde vivo?", "Wo wohne ich?", "أين أسكن؟", "你吃饭了吗"],
)
def test_questions_tell_nothing(question: str) -> None:
    assert not tells_in_any_language(question)


def test_plainly_empty_needs_every_word_to_be_filler() -> None:
    assert not is_plainly_empty("Danke, ich bin jetzt in Rente")
    assert not is_plainly_empty("谢谢，我已经退休了")


# --- is a prompt about the person --------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "Was weißt du über mich?",
        "¿Qué tengo que comprar para la cena?",
        "Quel est le nom de mon fils ?",
        "我儿子几岁了？",
        "夫の誕生日はいつですか？",
        "ما اسم ابني؟",
        "أين أعمل الآن؟",
        "מה שם הכלב שלי?",
        "Где я работаю?",
        "Wo wohnt der Nutzer?",
    ],
)
def test_personal_prompts_speak_of_the_person(prompt: str) -> None:
    assert speaks_of_person(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Wie hoch ist die Zugspitze?",
        "¿Cuántos planetas hay en el sistema solar?",
        "Qui a peint la Joconde ?",
        "长城有多长？",
        "富士山の高さは？",
        "ما هو أطول نهر في العالم؟",
        "Сколько будет семь на восемь?",
    ],
)
def test_impersonal_prompts_do_not(prompt: str) -> None:
    assert not speaks_of_person(prompt)


# --- end to end, on both engines ---------------------------------------------------------------


def test_a_chinese_turn_is_kept_dated_and_found_by_a_chinese_question(server: LocalServer) -> None:
    api = Api(server)
    try:
        said = api.turn("li", "我在一家银行做会计。", role="user", occurred_at="2024-05-02T09:00:00Z")
        assert said["processing_status"] == "completed"
        api.turn("li", "我养了一只狗，叫豆豆。", role="user", occurred_at="2024-05-03T09:00:00Z")
        assert api.turn("li", "谢谢！", role="user")["processing_status"] == "skipped_low_value"
        recalled = api.v1("/v1/memory/recall", "li", prompt="我的狗叫什么？", k=3)
        assert "豆豆" in recalled["context"]
        assert '[3 May 2024] User said: "我养了一只狗，叫豆豆。"' in recalled["context"]
        # An impersonal question in Chinese concerns nothing the person said.
        assert api.v1("/v1/memory/recall", "li", prompt="长城有多长？", k=3)["context"] == ""
        # The lexical index alone (bm25 search) finds it by its character pairs.
        found = api.v1("/v1/memory/query", "li", prompt="银行会计", k=3)["memories"]
        assert found and found[0]["text"] == "我在一家银行做会计。"
    finally:
        api.close()


def test_text_is_stored_composed_and_right_to_left_text_comes_back_intact(server: LocalServer) -> None:
    api = Api(server)
    try:
        decomposed = unicodedata.normalize("NFD", "Ma fille Chloé s'appelle comme sa grand-mère.")
        api.turn("zoe", decomposed, role="user")
        hebrew = "אני גר בחיפה עם שני חתולים, מיצי ופיצי."
        api.turn("zoe", hebrew, role="user")
        block = api.v1("/v1/memory/recall", "zoe", prompt="איפה אני גר?", k=5)["context"]
        assert hebrew in block  # logical order and every mark as sent
        found = api.v1("/v1/memory/query", "zoe", prompt="Comment s'appelle ma fille ?", k=5)["memories"]
        texts = [m["text"] for m in found]
        assert unicodedata.normalize("NFC", decomposed) in texts and decomposed not in texts
        # Typed without its accent, the name still matches.
        assert api.v1("/v1/memory/query", "zoe", prompt="chloe", k=5)["memories"]
    finally:
        api.close()


@pytest.mark.parametrize("search", ["bm25"])
def test_bm25_alone_finds_chinese_by_character_pairs(tmp_path: object, search: str) -> None:
    from pathlib import Path

    with LocalServer(Path(str(tmp_path)) / "bm25.db", search=search) as server:
        api = Api(server)
        try:
            # BM25 weighs a term by how few memories hold it: a few others make the weights real.
            for text in ("我住在杭州西湖边。", "我每天早上跑步五公里。", "我女儿在学小提琴。"):
                api.turn("wang", text, role="user")
            api.turn("wang", "我对花生和芒果过敏。", role="user")
            found = api.v1("/v1/memory/query", "wang", prompt="我对什么过敏？", k=3)["memories"]
            assert [m["text"] for m in found] == ["我对花生和芒果过敏。"]
        finally:
            api.close()
