from typing import Literal, cast

MemoryRevisionEvent = Literal[
    "archived", "created", "purged", "restored", "soft_deleted", "superseded", "updated"
]

MEMORY_REVISION_EVENT_VALUES: set[MemoryRevisionEvent] = {
    "archived",
    "created",
    "purged",
    "restored",
    "soft_deleted",
    "superseded",
    "updated",
}


def check_memory_revision_event(value: str) -> MemoryRevisionEvent:
    if value in MEMORY_REVISION_EVENT_VALUES:
        return cast(MemoryRevisionEvent, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MEMORY_REVISION_EVENT_VALUES!r}"
    )
