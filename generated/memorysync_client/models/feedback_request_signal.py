from typing import Literal, cast

FeedbackRequestSignal = Literal["ignored", "negative", "positive", "retrieved"]

FEEDBACK_REQUEST_SIGNAL_VALUES: set[FeedbackRequestSignal] = {
    "ignored",
    "negative",
    "positive",
    "retrieved",
}


def check_feedback_request_signal(value: str) -> FeedbackRequestSignal:
    if value in FEEDBACK_REQUEST_SIGNAL_VALUES:
        return cast(FeedbackRequestSignal, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FEEDBACK_REQUEST_SIGNAL_VALUES!r}"
    )
