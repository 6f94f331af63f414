from typing import Literal, cast

AddMemorySkippedStatus = Literal["skipped"]

ADD_MEMORY_SKIPPED_STATUS_VALUES: set[AddMemorySkippedStatus] = {
    "skipped",
}


def check_add_memory_skipped_status(value: str) -> AddMemorySkippedStatus:
    if value in ADD_MEMORY_SKIPPED_STATUS_VALUES:
        return cast(AddMemorySkippedStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_MEMORY_SKIPPED_STATUS_VALUES!r}"
    )
