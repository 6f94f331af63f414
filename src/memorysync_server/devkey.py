"""The development key: created once per database, kept in it, and reused on every restart."""

from __future__ import annotations

from typing import Protocol

from .auth import new_key
from .store import Store

DEV_KEY_SETTING = "dev_api_key"


class Settings(Protocol):
    """Named values kept with the database."""

    def get_setting(self, name: str) -> str | None: ...

    def put_setting(self, name: str, value: str) -> None: ...


def dev_key(settings: Settings, *, reset: bool = False) -> tuple[str, bool]:
    """(key, created): the stored development key, or a new one (stored) when there is none or ``reset``."""
    if not reset:
        stored = settings.get_setting(DEV_KEY_SETTING)
        if stored:
            return stored, False
    key = new_key("test")
    settings.put_setting(DEV_KEY_SETTING, key)
    return key, True


class StoreSettings:
    """Settings in a small table of the SQLite database the server stores everything else in."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.transaction():
            store._x("CREATE TABLE IF NOT EXISTS dev_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def get_setting(self, name: str) -> str | None:
        rows = self.store._q("SELECT value FROM dev_settings WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def put_setting(self, name: str, value: str) -> None:
        with self.store.transaction():
            self.store._x(
                "INSERT INTO dev_settings (name, value) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (name, value),
            )
