"""A local MemorySync server implementing openapi.yaml. Lands with issue 3."""
