from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feedback_request_signal import (
    FeedbackRequestSignal,
    check_feedback_request_signal,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="FeedbackRequest")


@_attrs_define
class FeedbackRequest:
    """
    Attributes:
        signal (FeedbackRequestSignal):
        comment (str | Unset):
    """

    signal: FeedbackRequestSignal
    comment: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        signal: str = self.signal

        comment = self.comment

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "signal": signal,
            }
        )
        if comment is not UNSET:
            field_dict["comment"] = comment

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        signal = check_feedback_request_signal(d.pop("signal"))

        comment = d.pop("comment", UNSET)

        feedback_request = cls(
            signal=signal,
            comment=comment,
        )

        feedback_request.additional_properties = d
        return feedback_request

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
