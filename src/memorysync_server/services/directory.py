"""What exists for a tenant, for browsing it (the local inspector), and forgetting a whole user."""

from __future__ import annotations

from ..domain import Forgotten, UserDetail, UserSummary
from ..storage import Storage

MAX_USERS = 1000


class Directory:
    def __init__(self, store: Storage) -> None:
        self.store = store

    def users(self, tenant: str, limit: int, offset: int) -> tuple[list[UserSummary], int]:
        """The tenant's users, most recently active first, and how many there are."""
        return self.store.directory.users(tenant, limit, offset)

    def user(self, tenant: str, user_id: str) -> UserDetail:
        return self.store.directory.user(tenant, user_id)

    def forget_user(self, tenant: str, user_id: str) -> Forgotten:
        """Everything stored for one user (facts, turns, state, receipts), in one unit of work."""
        return self.store.atomic(lambda: self.store.directory.forget_user(tenant, user_id))
