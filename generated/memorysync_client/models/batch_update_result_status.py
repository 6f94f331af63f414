from typing import Literal, cast

BatchUpdateResultStatus = Literal["not_found", "updated"]

BATCH_UPDATE_RESULT_STATUS_VALUES: set[BatchUpdateResultStatus] = {
    "not_found",
    "updated",
}


def check_batch_update_result_status(value: str) -> BatchUpdateResultStatus:
    if value in BATCH_UPDATE_RESULT_STATUS_VALUES:
        return cast(BatchUpdateResultStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BATCH_UPDATE_RESULT_STATUS_VALUES!r}"
    )
