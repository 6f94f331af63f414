"""One conversation turn sent to fact extraction (``add_turn``)."""

from __future__ import annotations

from typing import Any

from ..storage import Storage
from .pipeline import Outcome, Pipeline


class Turns:
    def __init__(self, store: Storage, pipeline: Pipeline) -> None:
        self.store, self.pipeline = store, pipeline

    def add(
        self,
        tenant: str,
        user: str,
        *,
        text: str,
        role: str | None,
        speaker: str | None,
        occurred_at: str | None,
        source: str,
        metadata: dict[str, Any] | None,
    ) -> Outcome:
        # Planned (extraction, embedding) before the unit of work, which may run more than once.
        plan = self.pipeline.plan_turn(
            text=text,
            role=role,
            speaker=speaker,
            occurred_at=occurred_at,
            metadata=metadata,
            scope=(tenant, user),
        )
        return self.store.atomic(lambda: self.pipeline.commit_turn(tenant, user, plan, source=source))
