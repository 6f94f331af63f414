from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.encoder_choice_chosen_by import (
    EncoderChoiceChosenBy,
    check_encoder_choice_chosen_by,
)
from ..models.encoder_choice_graph import EncoderChoiceGraph, check_encoder_choice_graph

if TYPE_CHECKING:
    from ..models.encoder_timing import EncoderTiming


T = TypeVar("T", bound="EncoderChoice")


@_attrs_define
class EncoderChoice:
    """Which graph of the search model encodes, once it is loaded. With `--encoder auto` (the
    default) the server times the int8-compute graph and the published one, at one thread and
    at several, on a few probe texts and keeps the fastest whose vectors agree with the
    published graph's, and never one slower than the published graph on one thread.

        Attributes:
            graph (EncoderChoiceGraph):
            threads (int): ONNX Runtime intra-op threads per encode.
            chosen_by (EncoderChoiceChosenBy): `measured` at this start, `cached` from an earlier start on this machine,
                `forced` by `--encoder`, `fallback` when only the published graph can run.
            summary (str): The choice and its timings in one sentence (as `memorysync-server serve` prints it).
            timings (list[EncoderTiming]): Every candidate timed (empty when nothing was timed).
    """

    graph: EncoderChoiceGraph
    threads: int
    chosen_by: EncoderChoiceChosenBy
    summary: str
    timings: list[EncoderTiming]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        graph: str = self.graph

        threads = self.threads

        chosen_by: str = self.chosen_by

        summary = self.summary

        timings = []
        for timings_item_data in self.timings:
            timings_item = timings_item_data.to_dict()
            timings.append(timings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "graph": graph,
                "threads": threads,
                "chosen_by": chosen_by,
                "summary": summary,
                "timings": timings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.encoder_timing import EncoderTiming

        d = dict(src_dict)
        graph = check_encoder_choice_graph(d.pop("graph"))

        threads = d.pop("threads")

        chosen_by = check_encoder_choice_chosen_by(d.pop("chosen_by"))

        summary = d.pop("summary")

        timings = []
        _timings = d.pop("timings")
        for timings_item_data in _timings:
            timings_item = EncoderTiming.from_dict(timings_item_data)

            timings.append(timings_item)

        encoder_choice = cls(
            graph=graph,
            threads=threads,
            chosen_by=chosen_by,
            summary=summary,
            timings=timings,
        )

        encoder_choice.additional_properties = d
        return encoder_choice

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
