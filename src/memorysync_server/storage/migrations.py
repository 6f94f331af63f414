"""Versioned schema migrations: an ordered list of steps, each a function applied in one transaction.

An engine keeps its current version in the database itself and runs the steps above it, in order,
each together with the version bump, so a crash mid-upgrade leaves the previous version intact.
A database newer than this code is refused untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Conn = TypeVar("Conn")


@dataclass(frozen=True)
class Migration(Generic[Conn]):
    version: int
    summary: str
    apply: Callable[[Conn], None]


def statements(*sql: str) -> Callable[[object], None]:
    """A step that runs each statement in turn (one statement per string; nothing is split)."""

    def apply(conn: object) -> None:
        for statement in sql:
            conn.execute(statement)  # type: ignore[attr-defined]

    return apply


def check_sequence(steps: Sequence[Migration[Conn]]) -> None:
    for expected, step in enumerate(steps, start=1):
        if step.version != expected:
            raise RuntimeError(f"migration {step.summary!r} has version {step.version}, expected {expected}")


def pending(steps: Sequence[Migration[Conn]], current: int, where: str) -> Sequence[Migration[Conn]]:
    """The steps after ``current``; refuses a database newer than ``steps``."""
    check_sequence(steps)
    if current > len(steps):
        raise RuntimeError(
            f"{where} has schema version {current}, newer than this memorysync-server "
            f"({len(steps)}). Upgrade memorysync-server or use another --db."
        )
    return steps[current:]
