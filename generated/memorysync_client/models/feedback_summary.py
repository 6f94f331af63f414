from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.feedback_summary_signal_counts import FeedbackSummarySignalCounts
    from ..models.feedback_trend import FeedbackTrend


T = TypeVar("T", bound="FeedbackSummary")


@_attrs_define
class FeedbackSummary:
    """
    Attributes:
        total_signals (int):
        signal_counts (FeedbackSummarySignalCounts):
        trend (FeedbackTrend):
    """

    total_signals: int
    signal_counts: FeedbackSummarySignalCounts
    trend: FeedbackTrend
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total_signals = self.total_signals

        signal_counts = self.signal_counts.to_dict()

        trend = self.trend.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total_signals": total_signals,
                "signal_counts": signal_counts,
                "trend": trend,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feedback_summary_signal_counts import FeedbackSummarySignalCounts
        from ..models.feedback_trend import FeedbackTrend

        d = dict(src_dict)
        total_signals = d.pop("total_signals")

        signal_counts = FeedbackSummarySignalCounts.from_dict(d.pop("signal_counts"))

        trend = FeedbackTrend.from_dict(d.pop("trend"))

        feedback_summary = cls(
            total_signals=total_signals,
            signal_counts=signal_counts,
            trend=trend,
        )

        feedback_summary.additional_properties = d
        return feedback_summary

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
