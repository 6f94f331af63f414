from typing import Literal, cast

AddMemorySkippedReason = Literal["already_ingested", "no_high_value_content"]

ADD_MEMORY_SKIPPED_REASON_VALUES: set[AddMemorySkippedReason] = {
    "already_ingested",
    "no_high_value_content",
}


def check_add_memory_skipped_reason(value: str) -> AddMemorySkippedReason:
    if value in ADD_MEMORY_SKIPPED_REASON_VALUES:
        return cast(AddMemorySkippedReason, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_MEMORY_SKIPPED_REASON_VALUES!r}"
    )
