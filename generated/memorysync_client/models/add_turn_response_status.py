from typing import Literal, cast

AddTurnResponseStatus = Literal["ok", "processing"]

ADD_TURN_RESPONSE_STATUS_VALUES: set[AddTurnResponseStatus] = {
    "ok",
    "processing",
}


def check_add_turn_response_status(value: str) -> AddTurnResponseStatus:
    if value in ADD_TURN_RESPONSE_STATUS_VALUES:
        return cast(AddTurnResponseStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_TURN_RESPONSE_STATUS_VALUES!r}"
    )
