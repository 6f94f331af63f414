from typing import Literal, cast

EncoderTimingGraph = Literal["int8-compute", "published"]

ENCODER_TIMING_GRAPH_VALUES: set[EncoderTimingGraph] = {
    "int8-compute",
    "published",
}


def check_encoder_timing_graph(value: str) -> EncoderTimingGraph:
    if value in ENCODER_TIMING_GRAPH_VALUES:
        return cast(EncoderTimingGraph, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ENCODER_TIMING_GRAPH_VALUES!r}"
    )
