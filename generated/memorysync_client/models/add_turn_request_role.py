from typing import Literal, cast

AddTurnRequestRole = Literal["assistant", "system", "tool", "user"]

ADD_TURN_REQUEST_ROLE_VALUES: set[AddTurnRequestRole] = {
    "assistant",
    "system",
    "tool",
    "user",
}


def check_add_turn_request_role(value: str) -> AddTurnRequestRole:
    if value in ADD_TURN_REQUEST_ROLE_VALUES:
        return cast(AddTurnRequestRole, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_TURN_REQUEST_ROLE_VALUES!r}"
    )
