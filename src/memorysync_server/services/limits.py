"""Sizes the domain keeps within what openapi.yaml lets a write send."""

from __future__ import annotations

import json
from typing import Any

# Edited metadata stays within what a write may send (openapi.yaml, Metadata).
MAX_METADATA_KEYS, MAX_METADATA_BYTES = 64, 16_384


def json_size(value: Any) -> int:
    """Bytes of ``value`` as compact UTF-8 JSON: what a size cap in openapi.yaml measures."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
