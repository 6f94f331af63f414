from typing import Literal, cast

PutStateResponseStatus = Literal["ok", "skipped"]

PUT_STATE_RESPONSE_STATUS_VALUES: set[PutStateResponseStatus] = {
    "ok",
    "skipped",
}


def check_put_state_response_status(value: str) -> PutStateResponseStatus:
    if value in PUT_STATE_RESPONSE_STATUS_VALUES:
        return cast(PutStateResponseStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PUT_STATE_RESPONSE_STATUS_VALUES!r}"
    )
