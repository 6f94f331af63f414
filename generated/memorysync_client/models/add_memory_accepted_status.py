from typing import Literal, cast

AddMemoryAcceptedStatus = Literal["ok"]

ADD_MEMORY_ACCEPTED_STATUS_VALUES: set[AddMemoryAcceptedStatus] = {
    "ok",
}


def check_add_memory_accepted_status(value: str) -> AddMemoryAcceptedStatus:
    if value in ADD_MEMORY_ACCEPTED_STATUS_VALUES:
        return cast(AddMemoryAcceptedStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_MEMORY_ACCEPTED_STATUS_VALUES!r}"
    )
