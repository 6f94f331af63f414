from typing import Literal, cast

EncoderChoiceChosenBy = Literal["cached", "fallback", "forced", "measured"]

ENCODER_CHOICE_CHOSEN_BY_VALUES: set[EncoderChoiceChosenBy] = {
    "cached",
    "fallback",
    "forced",
    "measured",
}


def check_encoder_choice_chosen_by(value: str) -> EncoderChoiceChosenBy:
    if value in ENCODER_CHOICE_CHOSEN_BY_VALUES:
        return cast(EncoderChoiceChosenBy, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ENCODER_CHOICE_CHOSEN_BY_VALUES!r}"
    )
