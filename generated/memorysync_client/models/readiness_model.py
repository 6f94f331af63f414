from typing import Literal, cast

ReadinessModel = Literal["failed", "loaded", "loading", "not used"]

READINESS_MODEL_VALUES: set[ReadinessModel] = {
    "failed",
    "loaded",
    "loading",
    "not used",
}


def check_readiness_model(value: str) -> ReadinessModel:
    if value in READINESS_MODEL_VALUES:
        return cast(ReadinessModel, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {READINESS_MODEL_VALUES!r}"
    )
