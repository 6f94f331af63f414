from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.encoder_timing_graph import EncoderTimingGraph, check_encoder_timing_graph

T = TypeVar("T", bound="EncoderTiming")


@_attrs_define
class EncoderTiming:
    """
    Attributes:
        graph (EncoderTimingGraph):
        threads (int):
        query_ms (float): One recall's two readings of a prompt, fastest probe run.
        batch_ms_per_text (float): A batch of 8 facts, per fact, fastest probe run.
    """

    graph: EncoderTimingGraph
    threads: int
    query_ms: float
    batch_ms_per_text: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        graph: str = self.graph

        threads = self.threads

        query_ms = self.query_ms

        batch_ms_per_text = self.batch_ms_per_text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "graph": graph,
                "threads": threads,
                "query_ms": query_ms,
                "batch_ms_per_text": batch_ms_per_text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        graph = check_encoder_timing_graph(d.pop("graph"))

        threads = d.pop("threads")

        query_ms = d.pop("query_ms")

        batch_ms_per_text = d.pop("batch_ms_per_text")

        encoder_timing = cls(
            graph=graph,
            threads=threads,
            query_ms=query_ms,
            batch_ms_per_text=batch_ms_per_text,
        )

        encoder_timing.additional_properties = d
        return encoder_timing

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
