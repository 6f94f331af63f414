"""Moved to memorysync_server.retrieval.gate; this shim goes once the open branches land."""

from .retrieval.gate import BASE, IMPERSONAL, NEAREST, PERSONAL, SLOPE, RelevanceGate

__all__ = ["BASE", "IMPERSONAL", "NEAREST", "PERSONAL", "SLOPE", "RelevanceGate"]
