from typing import Literal, cast

EncoderChoiceGraph = Literal["int8-compute", "published"]

ENCODER_CHOICE_GRAPH_VALUES: set[EncoderChoiceGraph] = {
    "int8-compute",
    "published",
}


def check_encoder_choice_graph(value: str) -> EncoderChoiceGraph:
    if value in ENCODER_CHOICE_GRAPH_VALUES:
        return cast(EncoderChoiceGraph, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ENCODER_CHOICE_GRAPH_VALUES!r}"
    )
