"""Session transcripts: appending turns (each user turn also sent to extraction), reading, deleting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..domain import NewTurn, Turn
from ..extraction import question_asked
from ..storage import Storage
from .blank import is_blank
from .derived import delete_records
from .pipeline import USER_ROLES, Pipeline, RecentTurns, TurnPlan


def role_name(raw: str) -> str:
    role = raw.strip().lower()
    return {"human": "user", "ai": "assistant"}.get(role, role)


@dataclass(frozen=True)
class Appended:
    """Each turn as stored and whether this append created it; how many turns went to extraction."""

    turns: list[tuple[Turn, bool]]
    extracted: int


class History:
    def __init__(self, store: Storage, pipeline: Pipeline) -> None:
        self.store, self.pipeline = store, pipeline

    def append(
        self,
        tenant: str,
        user: str,
        *,
        session: str,
        source: str,
        turns: list[dict[str, Any]],
        extract: bool,
        metadata: dict[str, Any] | None,
    ) -> Appended:
        roles = [(turn, role_name(turn["role"])) for turn in turns]

        def extracts(turn: dict[str, Any], role: str) -> bool:
            # A blank turn (an assistant's tool call, an empty user message) is stored, not extracted.
            return extract and role in USER_ROLES and not is_blank(turn["content"])

        def find(turn: dict[str, Any], role: str) -> Turn | None:
            return self.store.turns.find(
                tenant,
                user,
                session,
                idem_key=turn.get("idempotency_key"),
                seq=turn.get("seq"),
                role=role,
                content=turn["content"],
            )

        def plan(turn: dict[str, Any], role: str, *, outside_tx: bool = True) -> TurnPlan:
            at = next(i for i, (t, _) in enumerate(roles) if t is turn)
            return self.pipeline.plan_turn(
                text=turn["content"],
                role=role,
                speaker=turn.get("speaker") or turn.get("idempotency_key"),
                occurred_at=turn.get("occurred_at"),
                metadata=metadata,
                scope=(tenant, user) if outside_tx else None,
                # The transcript's own turns before this one, both sides, are its context.
                context=[str(t["content"]) for t, _ in roles[max(0, at - RecentTurns.TURNS) : at]],
                # The listener's question just before it: the topic of an answer.
                asked=question_asked(str(roles[at - 1][0]["content"]))
                if at > 0 and roles[at - 1][1] not in USER_ROLES
                else None,
            )

        # Extraction and embedding happen here, before the unit of work; turns already stored
        # (a retried append) cost nothing.
        plans = {
            i: plan(turn, role)
            for i, (turn, role) in enumerate(roles)
            if extracts(turn, role) and find(turn, role) is None
        }

        def store() -> Appended:
            stored_turns, extracted = [], 0
            for i, (turn, role) in enumerate(roles):
                stored, created = self.store.turns.add(
                    tenant,
                    user,
                    NewTurn(
                        session_id=session,
                        source=source,
                        role=role,
                        content=turn["content"],
                        seq=turn.get("seq"),
                        occurred_at=turn.get("occurred_at"),
                        idem_key=turn.get("idempotency_key"),
                        payload=turn.get("payload"),
                        has_payload="payload" in turn,
                    ),
                )
                stored_turns.append((stored, created))
                if created and extracts(turn, role):
                    # Planned here only if the turn vanished since the check.
                    turn_plan = plans.get(i) or plan(turn, role, outside_tx=False)
                    self.pipeline.commit_turn(
                        tenant,
                        user,
                        turn_plan,
                        source=source,
                        session_id=session,
                        origin=("history", stored.id),
                    )
                    extracted += 1
            return Appended(stored_turns, extracted)

        return self.store.atomic(store)

    def page(
        self, tenant: str, user: str, session: str, source: str | None, limit: int
    ) -> tuple[list[Turn], int]:
        return self.store.turns.page(tenant, user, session, source, limit)

    def delete(
        self,
        tenant: str,
        user: str,
        *,
        session: str | None,
        ids: list[int] | None,
        source: str | None,
        with_facts: bool,
    ) -> tuple[list[int], list[int]]:
        """(turn ids deleted, ids of the facts extracted from them deleted with them)."""

        def delete() -> tuple[list[int], list[int]]:
            found = self.store.turns.ids(tenant, user, session_id=session, ids=ids, source=source)
            return delete_records(
                self.store, tenant, user, "history", found, self.store.turns.delete, with_facts=with_facts
            )

        return self.store.atomic(delete)
