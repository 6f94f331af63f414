"""What a service refuses, in domain terms; the HTTP layer gives each its status (http/errors.py)."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the domain refuses; ``detail`` says what to do instead."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotVisible(ServiceError):
    """The record does not exist for this tenant and end user (never says whether it exists for another)."""


class Conflicting(ServiceError):
    """The request contradicts itself (two edits of one memory in one batch)."""


class Invalid(ServiceError):
    """One field of the request breaks a rule the schema cannot express; ``loc`` names it."""

    def __init__(self, loc: list[str | int], detail: str, kind: str) -> None:
        super().__init__(detail)
        self.loc, self.kind = loc, kind


def memory_not_visible(memory_id: int) -> NotVisible:
    return NotVisible(f"memory {memory_id} is not visible to the caller (no such memory for this end user).")
