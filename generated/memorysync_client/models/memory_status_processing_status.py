from typing import Literal, cast

MemoryStatusProcessingStatus = Literal["completed", "failed", "pending"]

MEMORY_STATUS_PROCESSING_STATUS_VALUES: set[MemoryStatusProcessingStatus] = {
    "completed",
    "failed",
    "pending",
}


def check_memory_status_processing_status(value: str) -> MemoryStatusProcessingStatus:
    if value in MEMORY_STATUS_PROCESSING_STATUS_VALUES:
        return cast(MemoryStatusProcessingStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MEMORY_STATUS_PROCESSING_STATUS_VALUES!r}"
    )
