from typing import Literal, cast

HealthStatus = Literal["ok"]

HEALTH_STATUS_VALUES: set[HealthStatus] = {
    "ok",
}


def check_health_status(value: str) -> HealthStatus:
    if value in HEALTH_STATUS_VALUES:
        return cast(HealthStatus, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {HEALTH_STATUS_VALUES!r}"
    )
