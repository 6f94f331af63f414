from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.limit_exceeded_error import LimitExceededError, check_limit_exceeded_error

T = TypeVar("T", bound="LimitExceeded")


@_attrs_define
class LimitExceeded:
    """The plan limit that was hit.

    Attributes:
        error (LimitExceededError):
        message (str): Which limit, and what to do about it.
    """

    error: LimitExceededError
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error: str = self.error

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error = check_limit_exceeded_error(d.pop("error"))

        message = d.pop("message")

        limit_exceeded = cls(
            error=error,
            message=message,
        )

        limit_exceeded.additional_properties = d
        return limit_exceeded

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
