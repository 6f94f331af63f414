"""MemorySync memory-only db for agno. Lands with issue 5."""
