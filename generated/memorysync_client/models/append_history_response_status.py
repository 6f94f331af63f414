from typing import Literal, cast

AppendHistoryResponseStatus = Literal["ok", "skipped"]

APPEND_HISTORY_RESPONSE_STATUS_VALUES: set[AppendHistoryResponseStatus] = {
    "ok",
    "skipped",
}


def check_append_history_response_status(value: str) -> AppendHistoryResponseStatus:
    if value in APPEND_HISTORY_RESPONSE_STATUS_VALUES:
        return cast(AppendHistoryResponseStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPEND_HISTORY_RESPONSE_STATUS_VALUES!r}"
    )
