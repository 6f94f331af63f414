from typing import Literal, cast

ReadinessStatus = Literal["ready", "starting", "unavailable"]

READINESS_STATUS_VALUES: set[ReadinessStatus] = {
    "ready",
    "starting",
    "unavailable",
}


def check_readiness_status(value: str) -> ReadinessStatus:
    if value in READINESS_STATUS_VALUES:
        return cast(ReadinessStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {READINESS_STATUS_VALUES!r}"
    )
