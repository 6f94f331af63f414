"""The encoder is chosen by measuring on the host: the real graphs load and pass (or fail) the probe
check, and the timing is faked both ways (this machine cannot play an AVX2-only CPU), so each
test says which graph a machine of that kind gets, how the choice is remembered, and where it shows."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import httpx
import numpy as np
import pytest

from memorysync_server import LocalServer, MiniLMEmbedder, cli
from memorysync_server.model.embedding import PROBE_PATH, _int8_unsupported
from memorysync_server.model.encoder_choice import (
    BASELINE,
    INT8,
    PROBE_BATCH,
    PROBE_QUERY,
    PUBLISHED,
    Candidate,
    ChoiceCache,
    Encode,
    Timing,
    cache_path_for,
    choose,
    thread_settings,
    time_candidates,
)
from memorysync_server.model.loading import BackgroundEmbedder
from tests.support.console import output_until

INT8_HERE = _int8_unsupported(__import__("onnxruntime").__version__) is None
needs_int8 = pytest.mark.skipif(not INT8_HERE, reason="this onnxruntime cannot run the int8 graph")

# What the reporter of issue 26 measured on a 2-core EPYC with AVX2 and no VNNI, and what the
# docs measured on a machine with VNNI (ms a query, ms a text in a batch).
AVX2_ONLY = {INT8: Timing(11.37, 9.84), PUBLISHED: Timing(8.97, 6.09)}
VNNI = {INT8: Timing(1.67, 1.2), PUBLISHED: Timing(3.09, 2.4)}


class FakeMeasure:
    """Times every candidate as ``per_graph`` says (more threads: ``threaded`` times as long), after
    running each real encoder once on the probe texts, so what it was handed must work."""

    def __init__(self, per_graph: Mapping[str, Timing], threaded: float = 1.0) -> None:
        self.per_graph = per_graph
        self.threaded = threaded
        self.calls: list[list[Candidate]] = []

    def __call__(self, encoders: Mapping[Candidate, Encode]) -> dict[Candidate, Timing]:
        self.calls.append(sorted(encoders))
        out = {}
        for candidate, encode in encoders.items():
            assert encode(list(PROBE_QUERY)).shape == (1, 384)
            scale = 1.0 if candidate.threads == 1 else self.threaded
            t = self.per_graph[candidate.graph]
            out[candidate] = Timing(t.query_ms * scale, t.batch_ms_per_text * scale)
        return out


def refuse_to_measure(encoders: Mapping[Candidate, Encode]) -> dict[Candidate, Timing]:
    raise AssertionError("measured although the choice was cached or forced")


def _timings(**graphs: tuple[float, float]) -> dict[Candidate, Timing]:
    names = {"int8": INT8, "published": PUBLISHED}
    out = {}
    for name, (query, batch) in graphs.items():
        graph, _, threads = name.partition("_")
        out[Candidate(names[graph], int(threads or 1))] = Timing(query, batch)
    return out


# The rule alone.


def test_the_rule_keeps_the_published_graph_where_int8_is_slower_and_takes_int8_where_faster() -> None:
    avx2 = _timings(int8=(11.37, 9.84), published=(8.97, 6.09))
    assert choose(avx2) == BASELINE
    vnni = _timings(int8=(1.67, 1.2), published=(3.09, 2.4))
    assert choose(vnni) == Candidate(INT8, 1)
    # Faster at queries but far slower at batches: never slower than the published graph.
    assert choose(_timings(int8=(5.0, 9.0), published=(6.0, 6.0))) == BASELINE
    # Batches within the probe's noise (10%) do not undo a faster query.
    assert choose(_timings(int8=(5.0, 6.3), published=(6.0, 6.0))) == Candidate(INT8, 1)
    # A tie is the published graph's.
    assert choose(_timings(int8=(6.0, 6.0), published=(6.0, 6.0))) == BASELINE


def test_more_threads_must_pay_for_the_cores_they_take() -> None:
    slightly = _timings(int8=(4.0, 3.0), int8_2=(3.6, 2.0), published=(6.0, 5.0), published_2=(5.0, 3.0))
    assert choose(slightly) == Candidate(INT8, 1)
    clearly = _timings(int8=(4.0, 3.0), int8_2=(2.5, 2.0), published=(6.0, 5.0), published_2=(5.0, 3.0))
    assert choose(clearly) == Candidate(INT8, 2)
    assert choose(_timings(published=(6.0, 5.0), published_2=(4.0, 3.0))) == Candidate(PUBLISHED, 2)
    assert thread_settings(1) == thread_settings(2) == (1,)
    assert thread_settings(4) == (1, 2) and thread_settings(64) == (1, 4)


def test_the_timing_interleaves_the_candidates_and_keeps_each_ones_fastest_run() -> None:
    now = [0.0]
    order: list[str] = []
    # Each encoder advances the fake clock by its cost; one run of each is slowed by "load".
    costs = {"a": 0.002, "b": 0.004}
    slowed = {"a": 3, "b": 5}

    def encoder(name: str) -> Encode:
        runs = [0]

        def encode(texts: list[str]) -> np.ndarray:
            runs[0] += 1
            order.append(name)
            # A query is one text; a batch costs half a query per text.
            per_call = 1 if len(texts) == 1 else len(texts) / 2
            now[0] += costs[name] * (10 if runs[0] == slowed[name] else 1) * per_call
            return np.zeros((len(texts), 384), dtype=np.float32)

        return encode

    a, b = Candidate(INT8, 1), Candidate(PUBLISHED, 1)
    timings = time_candidates(
        {a: encoder("a"), b: encoder("b")}, rounds=3, queries_per_round=2, clock=lambda: now[0]
    )
    assert order == ["a", "b"] + ["a"] * 3 + ["b"] * 3 + ["a"] * 3 + ["b"] * 3 + ["a"] * 3 + ["b"] * 3
    # a: 2 ms a query, 8 ms a batch of 8 (1 ms a text); its slowed third run is not what counts.
    assert timings[a].query_ms == pytest.approx(2.0) and timings[a].batch_ms_per_text == pytest.approx(1.0)
    assert timings[b].query_ms == pytest.approx(4.0) and timings[b].batch_ms_per_text == pytest.approx(2.0)


# The real graphs, the timing faked.


@needs_int8
def test_a_machine_where_int8_is_faster_runs_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    measure = FakeMeasure(VNNI)
    with caplog.at_level(logging.INFO, logger="memorysync_server"):
        embedder = MiniLMEmbedder(measure=measure, threads=1)
    assert embedder.graph == INT8 and embedder.choice.chosen_by == "measured"
    assert measure.calls == [[Candidate(INT8, 1), Candidate(PUBLISHED, 1)]]
    forced = MiniLMEmbedder(encoder="int8", measure=refuse_to_measure)
    assert np.allclose(embedder.embed(list(PROBE_BATCH)), forced.embed(list(PROBE_BATCH)), atol=1e-6)
    # One line says what runs and both timings.
    line = next(r.getMessage() for r in caplog.records if "semantic search encoder" in r.getMessage())
    assert "int8-compute graph, 1 thread (measured): 1.67 ms a query, 1.20 ms a text" in line
    assert "published graph 3.09 / 2.40 ms" in line


def test_a_machine_where_int8_is_slower_runs_the_published_graph() -> None:
    measure = FakeMeasure(AVX2_ONLY)
    embedder = MiniLMEmbedder(measure=measure, threads=1)
    assert embedder.graph == PUBLISHED and embedder.choice.chosen == BASELINE
    published = MiniLMEmbedder(encoder="published", measure=refuse_to_measure)
    assert np.allclose(embedder.embed(list(PROBE_BATCH)), published.embed(list(PROBE_BATCH)), atol=1e-6)
    assert embedder.choice.summary().startswith("published graph, 1 thread (measured): 8.97 ms a query")


def test_an_int8_graph_that_disagrees_is_not_run_however_fast(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    measure = FakeMeasure({INT8: Timing(0.1, 0.1), PUBLISHED: Timing(9.0, 9.0)})
    probe = tmp_path / "probe.npy"
    np.save(probe, -np.load(PROBE_PATH))  # a runtime whose int8 kernels compute something else
    with caplog.at_level(logging.WARNING, logger="memorysync_server"):
        embedder = MiniLMEmbedder(int8_probe=probe, measure=measure)
    assert embedder.graph == PUBLISHED
    # Only the published graph's thread settings were timed.
    assert all(c.graph == PUBLISHED for call in measure.calls for c in call)
    if INT8_HERE:
        assert "disagrees with the published one" in caplog.text
        assert "the int8-compute graph is not used" in embedder.choice.summary()


# Remembered per machine.


@needs_int8
def test_the_choice_is_kept_beside_the_database_and_a_restart_skips_the_timing(tmp_path: Path) -> None:
    cache = ChoiceCache(cache_path_for(tmp_path / "ms.db"))
    assert cache.path == tmp_path / "ms.db.encoder.json"
    first = MiniLMEmbedder(measure=FakeMeasure(VNNI), cache=cache, threads=1)
    again = MiniLMEmbedder(measure=refuse_to_measure, cache=cache, threads=1)
    assert (first.choice.chosen_by, again.choice.chosen_by) == ("measured", "cached")
    assert again.graph == INT8 and again.choice.timings == first.choice.timings
    assert str(cache.path) in again.choice.summary()
    # Another machine (another key) in the same file is measured, and both are remembered.
    other = ChoiceCache(cache.path)
    data = json.loads(cache.path.read_text())
    data["entries"] = {"another-machine": next(iter(data["entries"].values()))}
    cache.path.write_text(json.dumps(data))
    assert MiniLMEmbedder(measure=FakeMeasure(AVX2_ONLY), cache=other, threads=1).graph == PUBLISHED
    assert len(json.loads(cache.path.read_text())["entries"]) == 2


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"version": 99, "entries": {}}',
        "[]",
        '{"version": 1, "entries": {"KEY": {"graph": "int8-compute", "threads": "many"}}}',
        '{"version": 1, "entries": {"KEY": {"graph": "gpu", "threads": 1, "timings": []}}}',
    ],
)
def test_a_damaged_cache_is_measured_again_and_rewritten(tmp_path: Path, content: str) -> None:
    cache = ChoiceCache(tmp_path / "ms.db.encoder.json")
    MiniLMEmbedder(measure=FakeMeasure(AVX2_ONLY), cache=cache, threads=1)
    (key,) = json.loads(cache.path.read_text())["entries"]
    cache.path.write_text(content.replace("KEY", key))
    measure = FakeMeasure(AVX2_ONLY)
    assert MiniLMEmbedder(measure=measure, cache=cache, threads=1).choice.chosen_by == "measured"
    assert len(measure.calls) == 1 and cache.get(key) is not None


def test_a_cache_that_cannot_be_written_costs_only_the_remembering(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = ChoiceCache(blocker / "sub" / "encoder.json")  # a folder under a file cannot exist
    embedder = MiniLMEmbedder(measure=FakeMeasure(AVX2_ONLY), cache=cache, threads=1)
    assert embedder.graph == PUBLISHED and not cache.path.exists()


def test_postgresql_servers_keep_the_choice_in_the_users_cache_folder(tmp_path: Path) -> None:
    url = "postgresql://ms:secret@db.example/memorysync"
    assert (
        cache_path_for(url, environ={"XDG_CACHE_HOME": str(tmp_path)})
        == tmp_path / "memorysync" / "encoder.json"
    )
    assert cache_path_for(url, environ={}) == Path.home() / ".cache" / "memorysync" / "encoder.json"


def test_a_forced_encoder_is_not_measured() -> None:
    assert MiniLMEmbedder(encoder="published", measure=refuse_to_measure).choice.chosen_by == "forced"
    forced = MiniLMEmbedder(encoder="int8", measure=refuse_to_measure)
    assert forced.graph == (INT8 if INT8_HERE else PUBLISHED)
    with pytest.raises(ValueError, match="auto, int8, published"):
        MiniLMEmbedder(encoder="fastest")


# Where it shows: /ready and `memorysync-server serve`.


def test_ready_says_which_graph_encodes_and_the_timings(tmp_path: Path) -> None:
    embedder = BackgroundEmbedder(
        lambda: MiniLMEmbedder(measure=FakeMeasure(AVX2_ONLY), threads=1), dim=MiniLMEmbedder.dim
    )
    with LocalServer(tmp_path / "ms.db", embedder=embedder) as server:
        assert embedder.settled(60)
        body = httpx.get(f"{server.base_url}/ready").json()
    assert body["status"] == "ready"
    encoder = body["encoder"]
    assert (encoder["graph"], encoder["threads"], encoder["chosen_by"]) == (PUBLISHED, 1, "measured")
    timings = {t["graph"]: (t["query_ms"], t["batch_ms_per_text"]) for t in encoder["timings"]}
    assert timings[PUBLISHED] == (8.97, 6.09)
    if INT8_HERE:
        assert timings[INT8] == (11.37, 9.84)
    assert encoder["summary"].startswith("published graph, 1 thread (measured)")


def test_a_server_started_with_a_forced_encoder_says_so(tmp_path: Path) -> None:
    with LocalServer(tmp_path / "ms.db", encoder="published") as server:
        assert server.app.services.search.embedder.settled(60)
        encoder = httpx.get(f"{server.base_url}/ready").json()["encoder"]
    assert (encoder["graph"], encoder["chosen_by"], encoder["timings"]) == (PUBLISHED, "forced", [])


def test_serve_help_names_the_encoder_setting_and_its_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--encoder {auto,int8,published}" in text and "MEMORYSYNC_SERVER_ENCODER. (default: auto)" in text
    monkeypatch.setenv("MEMORYSYNC_SERVER_ENCODER", "published")
    assert cli._parser().parse_args(["serve"]).encoder == "published"


def test_serve_prints_the_encoder_once_the_model_has_loaded(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYSYNC_SERVER_")}
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])
    command = [
        sys.executable,
        "-m",
        "memorysync_server.cli",
        "serve",
        "--port",
        port,
        "--db",
        str(tmp_path / "a.db"),
    ]
    proc = subprocess.Popen(
        [*command, "--api-key", "ms_test_enc", "--encoder", "published", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        output = output_until(proc, "encoder:")
    finally:
        proc.terminate()
        proc.wait(10)
    assert re.search(r"search model loaded; encoder: published graph, 1 thread \(forced\)", output)
