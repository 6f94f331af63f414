"""MemorySync for AG2 (AutoGen classic). Lands with issue 4."""
