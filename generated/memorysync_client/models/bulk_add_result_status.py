from typing import Literal, cast

BulkAddResultStatus = Literal["created", "rejected", "skipped"]

BULK_ADD_RESULT_STATUS_VALUES: set[BulkAddResultStatus] = {
    "created",
    "rejected",
    "skipped",
}


def check_bulk_add_result_status(value: str) -> BulkAddResultStatus:
    if value in BULK_ADD_RESULT_STATUS_VALUES:
        return cast(BulkAddResultStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_ADD_RESULT_STATUS_VALUES!r}"
    )
