"""Recall quality floors: the whole recall set (eval/data) through a real LocalServer with the
default search, as `make eval` runs it. The floors sit a little below what `make eval` measures
(README, "Search quality"), so a change that makes memory find the right fact less often fails
here instead of slipping through."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.recall import evaluate_mode, load_data
from memorysync_server.model import DEFAULT_SEARCH

DATA = Path(__file__).resolve().parents[3] / "eval" / "data"

FLOORS = {
    "hit@1": 0.70,
    "hit@5": 0.92,
    "MRR": 0.80,
    "recall keeps the right fact": 0.90,
    "unrelated prompts without context": 0.90,
    "newer over older (query)": 0.96,
    "newer over older (recall)": 0.96,
}


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    data = load_data(DATA)
    assert len(data.questions) >= 250 and len(data.unrelated) >= 60 and len(data.updates) >= 20
    return evaluate_mode(DEFAULT_SEARCH, data, tmp_path_factory.mktemp("eval")).metrics()


@pytest.mark.parametrize("metric", list(FLOORS))
def test_recall_quality_stays_above_its_floor(measured: dict[str, float], metric: str) -> None:
    assert measured[metric] >= FLOORS[metric], (
        f"{metric} fell to {measured[metric]:.3f} (floor {FLOORS[metric]})"
    )
