"""The postgres engine: a connection pool, for a team."""

from .engine import PostgresStorage

__all__ = ["PostgresStorage"]
