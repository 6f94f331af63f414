"""Conversation quality floors: long multi-session chats through a real LocalServer with the
default search, as ``make eval`` runs them (eval/conversations.py). The chats written for this
project always run; of LoCoMo's dev split (read from ../shared, never copied here) the shortest
conversation runs when the folder is there. Floors sit a little below what ``make eval``
measures, so a change that loses what people said fails here instead of slipping through."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.conversations import CHATS, SetResult, load_conversation, locomo_dir, run_set

# (hit@5, block holds evidence, date in block, answer tokens in the block, on the questions naming
# a day too) at least; empty blocks and the characters handed to the model at most.
FLOORS = {
    "own chats": {
        "hit@5": 0.93,  # measured 0.954 (published graph, as make eval runs it)
        "block holds evidence": 0.93,  # 0.963
        "date in block": 0.90,  # 1.000
        "answer tokens in the block": 0.76,  # 0.779
        "questions naming a day: answer tokens": 0.78,  # 0.805 (14 questions)
        "empty blocks": 0.03,
        "chars handed": 700,
    },
    "locomo-dev 30": {
        "hit@5": 0.65,
        "block holds evidence": 0.68,  # measured 0.691
        "date in block": 0.90,
        "answer tokens in the block": 0.70,  # 0.730
        "empty blocks": 0.02,
        # 708 measured: a question naming both people is handed both blocks, each within the
        # 700 a user. Over the whole dev split: 675 a question.
        "chars handed": 720,
    },
}
CEILINGS = ("empty blocks", "chars handed")


def _measure(name: str, paths: list[Path], tmp: Path) -> SetResult:
    return run_set(name, [load_conversation(p) for p in paths], tmp)


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    paths = sorted(CHATS.glob("*.json"))
    assert len(paths) >= 3
    return _measure("own chats", paths, tmp_path_factory.mktemp("own")).metrics()


@pytest.fixture(scope="module")
def locomo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    found = locomo_dir()
    if found is None or not (found / "30.json").exists():
        pytest.skip("LoCoMo's dev split is not beside this checkout (../shared/data/locomo-dev)")
    return _measure("locomo-dev 30", [found / "30.json"], tmp_path_factory.mktemp("locomo")).metrics()


def _check(measured: dict[str, float], floors: dict[str, float]) -> None:
    for metric, floor in floors.items():
        if metric in CEILINGS:
            assert measured[metric] <= floor, f"{metric} rose to {measured[metric]:.3f} (ceiling {floor})"
        else:
            assert measured[metric] >= floor, f"{metric} fell to {measured[metric]:.3f} (floor {floor})"


def test_own_chats_stay_above_their_floors(own: dict[str, float]) -> None:
    _check(own, FLOORS["own chats"])


def test_a_locomo_conversation_stays_above_its_floors(locomo: dict[str, float]) -> None:
    _check(locomo, FLOORS["locomo-dev 30"])


def test_the_facts_of_our_own_chats_are_judged_and_stand_alone() -> None:
    # eval/facts.py: every fact the chats give is judged in eval/data/chat_facts.jsonl.
    from eval.facts import fact_figures

    figures = fact_figures()
    assert figures["unjudged"] <= 5, "judge the new facts in eval/data/chat_facts.jsonl"
    assert figures["judged good"] >= 0.84  # measured 0.876
    assert figures["do not stand alone"] <= 0.02
    assert figures["hold it/him/her/something"] <= 0.10  # 0.081, most of them resolved ("Rosa had her baby")
    assert figures["unresolved it/him/her/something (judged)"] <= 0.04  # 0.024
