"""The default extractor: durable statements about the person in, everything else out."""

from __future__ import annotations

import pytest

from memorysync_server.extraction import RuleExtractor, is_low_value

extract = RuleExtractor().extract


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I'm vegan, and I moved to Oslo", ["User is vegan", "User moved to Oslo"]),
        ("User is vegan", ["User is vegan"]),
        ("The user is allergic to peanuts", ["User is allergic to peanuts"]),
        ("I always take the window seat", ["User always takes the window seat"]),
        ("I don't eat meat", ["User does not eat meat"]),
        ("My name is Ada", ["User's name is Ada"]),
        ("Hello! I live in Berlin and I love my dog.", ["User lives in Berlin", "User loves their dog"]),
        ("I work as a nurse; my wife is a teacher", ["User works as a nurse", "User's wife is a teacher"]),
        ("I'm planning to visit Japan next year", ["User is planning to visit Japan next year"]),
        ("I usually fly with KLM", ["User usually flies with KLM"]),
        ("I go to the gym every morning", ["User goes to the gym every morning"]),
        ("I have two cats", ["User has two cats"]),
    ],
)
def test_keeps_durable_statements_in_the_third_person(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        "What's the weather?",
        "what is the capital of France",
        "Do you know any good restaurants?",
        "Hi there!",
        "Good morning",
        "thanks you",
        "ok",
        "Sure, sounds good",
        "Can you book me a flight?",
        "Could you help me with my essay",
        "please summarise",
        "Book me a flight to Oslo",
        "I want you to book a table",
        "Tell me a joke",
        "The weather is nice today",
        "haha lol",
    ],
)
def test_drops_questions_greetings_filler_and_requests(text: str) -> None:
    assert extract(text) == []


def test_explicit_saves_keep_subjectless_facts() -> None:
    assert extract("Allergic to peanuts") == []
    assert extract("Allergic to peanuts", explicit=True) == ["Allergic to peanuts"]
    assert extract("Can you remember this?", explicit=True) == []


def test_greeting_before_a_fact_is_dropped_but_the_fact_kept() -> None:
    assert extract("Thanks! I'm vegan.") == ["User is vegan"]


@pytest.mark.parametrize(
    ("text", "low"),
    [
        ("ok", True),
        ("thanks you", True),
        ("thank you", True),
        ("1234", True),
        ("hello", True),
        ("I'm vegan", False),
        ("ok then cool", False),
        ("what why", True),
    ],
)
def test_low_value_rule_of_the_contract(text: str, low: bool) -> None:
    assert is_low_value(text) is low


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # Irregular pasts stay past; they are not conjugated again ("brokes", "tores").
        ("I broke my left ankle last year.", ["User broke their left ankle last year"]),
        ("I tore a ligament skiing.", ["User tore a ligament skiing"]),
        ("I saw a cardiologist in May.", ["User saw a cardiologist in May"]),
        # Every verb of the user's own predicate agrees, also after "and".
        (
            "I'm a night owl and rarely sleep before 2am.",
            ["User is a night owl and rarely sleeps before 2am"],
        ),
        ("I get up at 6 and go to the gym.", ["User gets up at 6 and goes to the gym"]),
        ("I speak Spanish and Italian.", ["User speaks Spanish and Italian"]),
        (
            "I don't eat red meat, but fish is fine for me.",
            ["User does not eat red meat, but fish is fine for them"],
        ),
        ("I play tennis and golf on Sundays.", ["User plays tennis and golf on Sundays"]),
        ("I cook, clean and do the laundry.", ["User cooks, cleans and does the laundry"]),
        ("I like to read and write poetry.", ["User likes to read and write poetry"]),
        (
            "I drive to work and take the kids to school.",
            ["User drives to work and takes the kids to school"],
        ),
        ("I used to smoke but I quit.", ["User used to smoke", "User quit"]),
        ("When I'm stressed, I bake.", ["User bakes when they are stressed"]),
        ("Honestly I hate mornings.", ["User hates mornings"]),
        ("I wanna move to Berlin.", ["User wants to move to Berlin"]),
        # Spelling of the third person comes from the lexicon.
        ("I fly to Rome every month.", ["User flies to Rome every month"]),
        ("I box and dye my hair blue.", ["User boxes and dyes their hair blue"]),
        ("I need glasses for reading.", ["User needs glasses for reading"]),
        ("I video call my parents on Sundays.", ["User video calls their parents on Sundays"]),
        ("I meal-prep on Sundays.", ["User meal-preps on Sundays"]),
        # Same form in past and present: a past time decides.
        ("I put hot sauce on everything.", ["User puts hot sauce on everything"]),
        ("I quit smoking in 2015.", ["User quit smoking in 2015"]),
        ("I hurt my back last week.", ["User hurt their back last week"]),
        ("I rent a flat in Leith.", ["User rents a flat in Leith"]),
        ("I feed the ducks every morning.", ["User feeds the ducks every morning"]),
        # Inside a subordinate clause the user is "they", with plural agreement.
        ("I was diagnosed when I was ten.", ["User was diagnosed when they were ten"]),
        ("I wear glasses because I'm short-sighted.", ["User wears glasses because they are short-sighted"]),
        ("I taught myself to code.", ["User taught themselves to code"]),
    ],
)
def test_facts_read_as_correct_third_person_english(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I don't eat pork.", ["User does not eat pork"]),
        ("I won't fly with budget airlines.", ["User will not fly with budget airlines"]),
        ("I no longer smoke.", ["User no longer smokes"]),
        ("I hardly ever drink alcohol.", ["User hardly ever drinks alcohol"]),
        ("I wasn't born in the UK.", ["User was not born in the UK"]),
        ("I've never been to Asia.", ["User has never been to Asia"]),
        ("I can't have gluten.", ["User cannot have gluten"]),
        ("I dont like coriander", ["User does not like coriander"]),
    ],
)
def test_negations_keep_their_sense(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("My wife is a surgeon.", ["User's wife is a surgeon"]),
        ("My son doesn't eat vegetables.", ["User's son doesn't eat vegetables"]),
        ("My grandmother taught me to bake.", ["User's grandmother taught them to bake"]),
        ("My husband and I live in Leeds.", ["User and their husband live in Leeds"]),
        ("My job is stressful and I sleep badly.", ["User's job is stressful", "User sleeps badly"]),
        ("My parents live with us.", ["User's parents live with them"]),
        ("Sarah is my wife.", ["User's wife is Sarah"]),
        ("Ursula Le Guin is my favourite author.", ["User's favourite author is Ursula Le Guin"]),
        ("I moved to open our US office.", ["User moved to open their US office"]),
    ],
)
def test_other_peoples_facts_are_told_relative_to_the_user(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Remember that I'm allergic to penicillin.", ["User is allergic to penicillin"]),
        ("Please remember I don't eat pork.", ["User does not eat pork"]),
        ("FYI I work nights.", ["User works nights"]),
        ("Book a table for four, my wife is vegetarian.", ["User's wife is vegetarian"]),
        ("If I skip coffee, I get headaches.", ["User gets headaches if they skip coffee"]),
        ("I'm 29. I live in Madrid.", ["User is 29", "User lives in Madrid"]),
        ("I\u2019m vegan", ["User is vegan"]),
    ],
)
def test_facts_wrapped_in_requests_or_conditions_are_kept(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        # hypotheticals
        "If I had a dog, I'd call it Max.",
        "If I won the lottery, I would buy a boat.",
        "I'd move to Spain if I could speak Spanish.",
        "Imagine I lived in Paris.",
        "Hypothetically, I might quit my job next year.",
        "Let's say I'm a beginner at chess.",
        # small talk
        "I see what you mean.",
        "I agree with you.",
        "I'm fine, thanks.",
        "I'm tired today.",
        "I'm so bored right now.",
        "I'll think about it.",
        "Oh wow, I didn't know that.",
        "I love that idea!",
        # requests worded as needs
        "I need a recipe for lasagne.",
        "I need help writing a cover letter.",
        "I'd like a summary of the meeting notes.",
        "I'm looking for a good pizza place nearby.",
        "Remember to buy milk.",
        "I was wondering if you could help me.",
        "I have a question about my taxes.",
        "I think you're right.",
        "I'm sorry, I meant Tuesday.",
        "If it rains, we stay in.",
        "This is my first time here.",
        # questions without a question mark
        "what time is it in tokyo",
    ],
)
def test_hypotheticals_small_talk_and_requests_give_nothing(text: str) -> None:
    assert extract(text) == []


# How people chat (issue 22): each kind of turn that used to give nothing or junk.
@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # the fact is not the first clause of the turn
        (
            "Ugh, what a week. Anyway, I finally adopted a cat last Tuesday, her name is Miso.",
            ["User finally adopted a cat last Tuesday", "User's cat is called Miso"],
        ),
        (
            "Not much going on here. I ran my first half marathon on Sunday!",
            ["User ran their first half marathon on Sunday"],
        ),
        # a subject left out, as people type
        ("Went camping at Lake Tahoe last weekend.", ["User went camping at Lake Tahoe last weekend"]),
        ("Been reading a lot of sci-fi lately.", ["User has been reading a lot of sci-fi lately"]),
        # ... but "Been ages" drops "It's": how long since they talked, no fact of the speaker
        ("Been ages since we talked!", []),
        ("Been way too long, Mel!", []),
        ("Been a bit under the weather.", ["User has been a bit under the weather"]),
        # what came from the listener is worded without them; the rest of the clause is the fact
        (
            "Been reading that book you recommended and painting to keep busy.",
            ["User has been reading that book recommended to them and painting to keep busy"],
        ),
        ("I tried the recipe you sent me last week.", ["User tried the recipe sent to them last week"]),
        ("I read the book you wrote.", []),
        # "One idea I had was ...": the noun's own clause, not a phrase put before the subject
        (
            "One idea I had was to join local organizations or volunteering programs.",
            ["User's idea was to join local organizations or volunteering programs"],
        ),
        ("One thing I learned was to be patient.", ["User learned to be patient"]),
        ("One summer, I worked at a farm.", ["User worked at a farm one summer"]),
        # "I'm off to ...": what the speaker goes to do, unless it is bed or any day's errand
        (
            "Well, I'm off to have dinner with some friends from the gym.",
            ["User is off to have dinner with some friends from the gym"],
        ),
        ("I'm off to do some taekwondo!", ["User is off to do some taekwondo"]),
        ("I'm off to bed.", []),
        # "..., so I ...": what the speaker does, and why
        (
            "Digging into the political system has been eye-opening, so I'm researching policies.",
            ["User is researching policies because digging into the political system has been eye-opening"],
        ),
        (
            "The weather was awful, so we stayed home.",
            ["User and others stayed home because the weather was awful"],
        ),
        ("I was tired, so I went to bed early.", ["User was tired, so they went to bed early"]),
        (
            "But she's great and explains everything, so I trust her.",
            ["User trusts her because she's great and explains everything"],
        ),
        (
            "She's on crutches, so I'm her chauffeur now.",
            ["User is her chauffeur now because she's on crutches"],
        ),
        ("Well, I'm off to go do some research.", []),
        # phrases of time or place before the subject
        ("On trains I always take the window seat.", ["User always takes the window seat on trains"]),
        ("On weekends I volunteer at the food bank.", ["User volunteers at the food bank on weekends"]),
        ("In 2016, I moved to Toronto.", ["User moved to Toronto in 2016"]),
        ("Recently I started running again.", ["User recently started running again"]),
        (
            "I've been busy with work, but last week I started a ceramics course.",
            ["User has been busy with work", "User started a ceramics course last week"],
        ),
        # "we": who is not said, so "User and others", the verb as spoken
        (
            "We usually go to the lake house twice a year.",
            ["User and others usually go to the lake house twice a year"],
        ),
        ("We're renovating our kitchen.", ["User and others are renovating their kitchen"]),
        # "we all" with a past verb is what happened; with a present one, what everyone does
        (
            "Last Fri I took my kids to a pottery workshop. We all made our own pots!",
            [
                "User took their kids to a pottery workshop last Fri",
                "User and others all made their own pots",
            ],
        ),
        ("We all need a break sometimes.", []),
        ("We all have bad days.", []),
        # companions are kept
        (
            "Anthony and I went hiking at Mount Tam last weekend.",
            ["User and Anthony went hiking at Mount Tam last weekend"],
        ),
        ("Me and my brother built a treehouse.", ["User and their brother built a treehouse"]),
        # a time said of another sentence dates a fact only when their tenses agree
        ("Hana quit her office job last month. I'll help on weekends.", ["User will help on weekends"]),
        ("Next week will be crazy. I bought a new bike.", ["User bought a new bike"]),
        # ... and never dates how long something has lasted up to now
        (
            "The interview is next week. I've been in the ER for eleven years.",
            ["User has been in the ER for eleven years"],
        ),
        # a title or a place-name word before its name ends no sentence
        ("I got the blue house in St. Johns!", ["User got the blue house in St. Johns"]),
        ("I met Dr. Patel at the clinic.", ["User met Dr. Patel at the clinic"]),
        # ... whatever letter their name starts with
        ("Élodie and I went hiking at Mount Tam.", ["User and Élodie went hiking at Mount Tam"]),
        ("Me and Łukasz built a treehouse.", ["User and Łukasz built a treehouse"]),
        ("Last week Óscar and I went to the zoo.", ["User and Óscar went to the zoo last week"]),
        # ... also after a phrase of time, which moves to the end without taking them along
        ("Last week Anthony and I went to the zoo.", ["User and Anthony went to the zoo last week"]),
        ("On Friday my sister and I went hiking.", ["User and their sister went hiking on Friday"]),
        # ... and stays with the clause it fronts, not the sentence's last one
        (
            "Yesterday I baked cakes, and I crunched the numbers.",
            ["User baked cakes yesterday", "User crunched the numbers"],
        ),
        (
            "Last Friday, I finally got my driving license, my mom was so proud.",
            ["User finally got their driving license last Friday", "User's mom was so proud"],
        ),
        (
            "Yesterday Sam and I baked cakes, and Dana and I crunched the numbers.",
            ["User and Sam baked cakes yesterday", "User and Dana crunched the numbers"],
        ),
        # "we" after a clause about something else starts a statement, with its time before it
        (
            "Work has been a nightmare, but last Saturday we finally adopted a puppy!",
            ["User and others finally adopted a puppy last Saturday"],
        ),
        (
            "The car broke down, but we sat on the shoulder for hours.",
            ["User and others sat on the shoulder for hours"],
        ),
        # ... not after the speaker's own clause, nor as a list of what is theirs
        (
            "I went hiking with my sister, and we saw a bear.",
            ["User went hiking with their sister and they saw a bear"],
        ),
        (
            "I live in Leeds with my partner and our two cats.",
            ["User lives in Leeds with their partner and their two cats"],
        ),
        # "we" and "my" after a time with no comma, and a linking word or an announcement before it
        (
            "Last weekend we went hiking at Mount Tam.",
            ["User and others went hiking at Mount Tam last weekend"],
        ),
        ("Yesterday my sister visited me.", ["User's sister visited them yesterday"]),
        ("Two weeks ago we moved to Denver.", ["User and others moved to Denver two weeks ago"]),
        ("So last weekend I borrowed a trailer.", ["User borrowed a trailer last weekend"]),
        ("Just yesterday I adopted a cat.", ["User adopted a cat yesterday"]),
        ("Right now I'm reading Dune.", ["User is reading Dune right now"]),
        ("Now we're doing Portugal for ten days.", ["User and others are now doing Portugal for ten days"]),
        ("Meanwhile I started a new job.", ["User started a new job"]),
        ("Good news: I got the job at Acme!", ["User got the job at Acme"]),
        ("Turns out I'm allergic to cats.", ["User is allergic to cats"]),
        (
            "It sat in my uncle's garage for years, so last weekend I towed it home.",
            ["User towed it home last weekend because it sat in their uncle's garage for years"],
        ),
        # ... but a phrase that is more than a time keeps its "my"
        ("On my birthday I went skydiving.", ["User went skydiving on their birthday"]),
        # a pronoun inside a hyphenated word is part of the word
        (
            'I\'ve been taking regular "me-time" walks at the park nearby.',
            ['User has been taking regular "me-time" walks at the park nearby'],
        ),
        ("I drove down I-95 to see my mom.", ["User drove down I-95 to see their mom"]),
        # a word before a comma is no companion: an adverb, or the listener addressed
        ("Hopefully, I can raise enough for the shelter.", ["User can raise enough for the shelter"]),
        ("Maria, I got the job at the bakery!", ["User got the job at the bakery"]),
        # "'d" is "had" before a past participle, "would" before a verb
        (
            "We'd been fighting a lot about the future.",
            ["User and others had been fighting a lot about the future"],
        ),
        ("I'd never seen snow before that trip.", ["User had never seen snow before that trip"]),
        ("I'd love a dog.", ["User would love a dog"]),
        # a day of the week, "weekends" or "tomorrow" before the subject is when, in any clause
        (
            "On Saturday mornings I read stories at the library, and Mondays I help sort the donated books.",
            [
                "User reads stories at the library on Saturday mornings",
                "User helps sort the donated books on Mondays",
            ],
        ),
        ("Weekends I work at the cafe.", ["User works at the cafe on weekends"]),
        ("Tomorrow I start my new job.", ["User starts their new job tomorrow"]),
        # ... but "Tomorrow's" is the day as a subject, not a time before one
        (
            "Tomorrow's gonna be a big night and I'm not gonna forget a second of it.",
            ["User is not gonna forget a second of it"],
        ),
        # the listener's name is not part of the fact; a place's is
        ("Thanks, Gina! I'm not giving up.", ["User is not giving up"]),
        ("Hey Maria, I adopted two kittens.", ["User adopted two kittens"]),
        ("I work night shifts at the airport, Dave.", ["User works night shifts at the airport"]),
        ("I work night shifts at the airport, Zoë.", ["User works night shifts at the airport"]),
        ("Hey Łukasz, I adopted two kittens.", ["User adopted two kittens"]),
        ("I live in Portland, Oregon.", ["User lives in Portland, Oregon"]),
        # one past verb dates the ones that look the same in both tenses
        ("I read that book and loved it.", ["User read that book and loved it"]),
        ("I read before bed every night.", ["User reads before bed every night"]),
        ("I slowly learned to trust people again.", ["User slowly learned to trust people again"]),
        # a photo's description is not something the person said
        (
            "I made this cake. [shares a photo: a photo of a chocolate cake with candles]",
            ["User made this cake"],
        ),
        ("Painting is my favourite way to relax.", ["User's favourite way to relax is painting"]),
    ],
)
def test_chat_phrasing_keeps_the_fact(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        # requests and questions, also with a list of the user's things in them
        "Can you send me that recipe?",
        "Tell me what you know about my car, my pet, my health and my hobbies.",
        "Let me know how it goes.",
        # statements about the listener
        "You're so good at painting!",
        "I'm so proud of you for finishing the race.",
        "I'm sure you feel great knowing your students are doing so well.",
        "I'll send you the recipes tonight.",
        # agreements and bare answers
        "Totally agree!",
        "I totally agree, Caroline.",
        "I hope so, Gina.",
        "Yes, I did.",
        "I bet!",
        # pleasantries, reactions and resolutions
        "Haha that's great",
        "I'll definitely check it out.",
        "I'm gonna make it happen.",
        "I'll keep going!",
        "I had a great time!",
        "We can do it!",
        "Now I'd better rest.",
        # nothing but a pronoun and a time: what "it" was is in another turn
        "Yup, we just did it yesterday!",
        "We went there last weekend.",
        # a photo on its own
        "[shares a photo: a photo of a dog on a beach]",
    ],
)
def test_conversation_rather_than_information_gives_nothing(text: str) -> None:
    assert extract(text) == []


def test_leaving_now_is_not_a_day_off() -> None:
    assert extract("I'm off to bed, talk soon!") == []
    assert extract("I'm off work every Tuesday.") == ["User is off work every Tuesday"]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Still working on opening a dance studio.", ["User is still working on opening a dance studio"]),
        ("Just something nice to take my mind off things.", []),
        ("Just being around them was so inspiring.", []),
    ],
)
def test_a_subject_is_restored_only_before_a_verb(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "I joined a support group last year. It's shown me how much I'm not alone.",
            "User joined a support group last year, which has shown them how much they are not alone",
        ),
        (
            "I adopted a dog. It's helped me get out more.",
            "User adopted a dog, which has helped them get out more",
        ),
    ],
)
def test_its_before_a_participle_goes_on_as_which_has(text: str, fact: str) -> None:
    # "It's shown me" is "it has shown me": retold as "which is shown them" it read as nonsense.
    assert RuleExtractor(preload=False).extract(text) == [fact]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # A clause that points back, or tells how the body took it, stays with what it is about.
        (
            "I'm terribly allergic to cats, my eyes swell shut.",
            ["User is terribly allergic to cats; User's eyes swell shut"],
        ),
        (
            "I can't handle spicy food at all, my stomach protests.",
            ["User cannot handle spicy food at all; User's stomach protests"],
        ),
        (
            "I'm more of a dog person, but I'm losing that argument.",
            ["User is more of a dog person; User is losing that argument"],
        ),
        (
            "Jess and I went climbing and I think I overdid it.",
            ["User and Jess went climbing; User thinks they overdid it"],
        ),
        # Clauses with a topic of their own stay apart.
        ("I have two dogs and my son has a lizard.", ["User has two dogs", "User's son has a lizard"]),
        (
            "I broke my wrist, I still can't type well.",
            ["User broke their wrist", "User still cannot type well"],
        ),
    ],
)
def test_a_clause_that_lost_its_topic_stays_with_the_clause_before_it(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


def test_an_adverb_the_lexicon_does_not_know_is_not_conjugated() -> None:
    assert extract("I weirdly love swimming now.") == ["User weirdly loves swimming now"]


def test_a_weekday_habit_is_not_given_a_date() -> None:
    from datetime import date

    from memorysync_server.extraction.timephrases import resolve

    said = date(2022, 9, 14)
    assert resolve("User goes to the gym on Tuesday nights", said) == "User goes to the gym on Tuesday nights"
    assert resolve("User went to the gym on Tuesday", said) == "User went to the gym on 13 September 2022"


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # A subject the speaker shares, wherever the sentence puts it.
        (
            "I got three commissions from friends, and Dana and I crunched the numbers.",
            ["User got three commissions from friends", "User and Dana crunched the numbers"],
        ),
        (
            "Oh, and Jonah and I are going to Vancouver for his cousin's wedding.",
            ["User and Jonah are going to Vancouver for his cousin's wedding"],
        ),
        # A sentence broken off where it went on keeps what it said.
        (
            "I'm doing UX design at a startup called Brightpath, which is... fine.",
            ["User is doing UX design at a startup called Brightpath"],
        ),
        # The two halves of a contrast, and a verb said only in the sentence before, stay together.
        (
            "I don't miss the night shifts one bit, but I do miss the people.",
            ["User does not miss the night shifts one bit; User does miss the people"],
        ),
        (
            "Jess and I still climb together. Well, we did, until I tore a finger pulley.",
            ["User and Jess still climb together; User and others did, until they tore a finger pulley"],
        ),
        (
            "You know I can't stand horror movies, I'd never sleep again.",
            ["User cannot stand horror movies; User would never sleep again"],
        ),
        # Said of someone else, the sentence or clause before is what the fact is about.
        (
            "Fieldnote offered me the job, I start on Monday!",
            ["Fieldnote offered User the job; User starts on Monday"],
        ),
        (
            "Leila really wants a cat. I'm more of a dog person, but I'm losing that argument.",
            ["Leila really wants a cat; User is more of a dog person; User is losing that argument"],
        ),
        # ... but not a request, a question or a sentence whose own topic is elsewhere.
        ("Distract me, tell me something good. I'm losing that argument.", ["User is losing that argument"]),
        ("Did Leila want a cat? I'm losing that argument.", ["User is losing that argument"]),
        ("It's about fifty minutes each way. I'll start on Monday.", ["User will start on Monday"]),
        # ... nor a general remark, a reaction to the listener or a clause that only sets the scene.
        ("Challenges are awesome for learning. I'm losing that argument.", ["User is losing that argument"]),
        ("Yeah, Maria, that's a good idea. I'll call those charities.", ["User will call those charities"]),
        (
            "While volunteering yesterday, I met this amazing woman, Jean.",
            ["User met this amazing woman, Jean while volunteering yesterday"],
        ),
        (
            "I realized that self-care matters. I'm starting yoga.",
            ["User realized that self-care matters", "User is starting yoga"],
        ),
        # Nothing told: a stance only the listener's words explain, a thing named.
        ("I'm the opposite. I hate flying.", ["User hates flying"]),
        ("It's shorbat adas, my mom's recipe.", []),
        ("I play tennis, and my wife plays golf.", ["User plays tennis", "User's wife plays golf"]),
        # A form that could be a feeling is an event when a time follows it.
        ("Retired two years ago this spring.", ["User retired two years ago this spring"]),
        ("Excited to see you.", []),
    ],
)
def test_a_fact_keeps_what_it_is_about_from_the_sentence_around_it(text: str, facts: list[str]) -> None:
    assert extract(text) == facts


def test_years_ago_this_season_is_one_time() -> None:
    from datetime import date

    from memorysync_server.extraction.timephrases import resolve

    said = date(2024, 2, 5)
    assert resolve("User retired two years ago this spring", said) == "User retired in spring 2022"
    assert resolve("User retired two years ago", said) == "User retired in 2022"
