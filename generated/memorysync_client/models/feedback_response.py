from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.feedback_summary import FeedbackSummary


T = TypeVar("T", bound="FeedbackResponse")


@_attrs_define
class FeedbackResponse:
    """
    Attributes:
        memory_id (int):
        signal (str):
        importance_before (float):
        importance_after (float):
        adjustment (float):
        influenced_ranking (bool): True when importance moved (it feeds ranking).
        summary (FeedbackSummary):
    """

    memory_id: int
    signal: str
    importance_before: float
    importance_after: float
    adjustment: float
    influenced_ranking: bool
    summary: FeedbackSummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        signal = self.signal

        importance_before = self.importance_before

        importance_after = self.importance_after

        adjustment = self.adjustment

        influenced_ranking = self.influenced_ranking

        summary = self.summary.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "signal": signal,
                "importance_before": importance_before,
                "importance_after": importance_after,
                "adjustment": adjustment,
                "influenced_ranking": influenced_ranking,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feedback_summary import FeedbackSummary

        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        signal = d.pop("signal")

        importance_before = d.pop("importance_before")

        importance_after = d.pop("importance_after")

        adjustment = d.pop("adjustment")

        influenced_ranking = d.pop("influenced_ranking")

        summary = FeedbackSummary.from_dict(d.pop("summary"))

        feedback_response = cls(
            memory_id=memory_id,
            signal=signal,
            importance_before=importance_before,
            importance_after=importance_after,
            adjustment=adjustment,
            influenced_ranking=influenced_ranking,
            summary=summary,
        )

        feedback_response.additional_properties = d
        return feedback_response

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
