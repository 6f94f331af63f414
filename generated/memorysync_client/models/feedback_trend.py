from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feedback_trend_momentum import (
    FeedbackTrendMomentum,
    check_feedback_trend_momentum,
)

T = TypeVar("T", bound="FeedbackTrend")


@_attrs_define
class FeedbackTrend:
    """
    Attributes:
        momentum (FeedbackTrendMomentum):
        consistency (float):
        trend_multiplier (float):
        recent_count (int):
    """

    momentum: FeedbackTrendMomentum
    consistency: float
    trend_multiplier: float
    recent_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        momentum: str = self.momentum

        consistency = self.consistency

        trend_multiplier = self.trend_multiplier

        recent_count = self.recent_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "momentum": momentum,
                "consistency": consistency,
                "trend_multiplier": trend_multiplier,
                "recent_count": recent_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        momentum = check_feedback_trend_momentum(d.pop("momentum"))

        consistency = d.pop("consistency")

        trend_multiplier = d.pop("trend_multiplier")

        recent_count = d.pop("recent_count")

        feedback_trend = cls(
            momentum=momentum,
            consistency=consistency,
            trend_multiplier=trend_multiplier,
            recent_count=recent_count,
        )

        feedback_trend.additional_properties = d
        return feedback_trend

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
