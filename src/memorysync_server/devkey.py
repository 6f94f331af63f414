"""The development key: created once per database, kept in it, and reused on every restart."""

from __future__ import annotations

from .http.auth import new_key
from .storage import SettingStore

DEV_KEY_SETTING = "dev_api_key"


def dev_key(settings: SettingStore, *, reset: bool = False) -> tuple[str, bool]:
    """(key, created): the stored development key, or a new one (stored) when there is none or ``reset``."""
    if not reset:
        stored = settings.get(DEV_KEY_SETTING)
        if stored:
            return stored, False
    key = new_key("test")
    settings.put(DEV_KEY_SETTING, key)
    return key, True
