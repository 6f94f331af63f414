from typing import Literal, cast

FeedbackTrendMomentum = Literal["falling", "neutral", "rising"]

FEEDBACK_TREND_MOMENTUM_VALUES: set[FeedbackTrendMomentum] = {
    "falling",
    "neutral",
    "rising",
}


def check_feedback_trend_momentum(value: str) -> FeedbackTrendMomentum:
    if value in FEEDBACK_TREND_MOMENTUM_VALUES:
        return cast(FeedbackTrendMomentum, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FEEDBACK_TREND_MOMENTUM_VALUES!r}"
    )
