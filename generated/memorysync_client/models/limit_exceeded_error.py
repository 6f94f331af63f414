from typing import Literal, cast

LimitExceededError = Literal["limit_exceeded"]

LIMIT_EXCEEDED_ERROR_VALUES: set[LimitExceededError] = {
    "limit_exceeded",
}


def check_limit_exceeded_error(value: str) -> LimitExceededError:
    if value in LIMIT_EXCEEDED_ERROR_VALUES:
        return cast(LimitExceededError, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIMIT_EXCEEDED_ERROR_VALUES!r}"
    )
