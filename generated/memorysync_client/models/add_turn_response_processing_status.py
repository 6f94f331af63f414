from typing import Literal, cast

AddTurnResponseProcessingStatus = Literal[
    "completed",
    "distilling",
    "failed",
    "skipped",
    "skipped_low_value",
    "skipped_non_user_turn",
    "skipped_replay",
]

ADD_TURN_RESPONSE_PROCESSING_STATUS_VALUES: set[AddTurnResponseProcessingStatus] = {
    "completed",
    "distilling",
    "failed",
    "skipped",
    "skipped_low_value",
    "skipped_non_user_turn",
    "skipped_replay",
}


def check_add_turn_response_processing_status(
    value: str,
) -> AddTurnResponseProcessingStatus:
    if value in ADD_TURN_RESPONSE_PROCESSING_STATUS_VALUES:
        return cast(AddTurnResponseProcessingStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADD_TURN_RESPONSE_PROCESSING_STATUS_VALUES!r}"
    )
