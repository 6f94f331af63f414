from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.limit_exceeded import LimitExceeded


T = TypeVar("T", bound="TooManyRequestsBody")


@_attrs_define
class TooManyRequestsBody:
    """The body of a 429 answer; plan limits use the nested `limit_exceeded` shape.

    Attributes:
        detail (LimitExceeded | str):
    """

    detail: LimitExceeded | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.limit_exceeded import LimitExceeded

        detail: dict[str, Any] | str
        if isinstance(self.detail, LimitExceeded):
            detail = self.detail.to_dict()
        else:
            detail = self.detail

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.limit_exceeded import LimitExceeded

        d = dict(src_dict)

        def _parse_detail(data: object) -> LimitExceeded | str:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                detail_type_0 = LimitExceeded.from_dict(data)

                return detail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LimitExceeded | str, data)

        detail = _parse_detail(d.pop("detail"))

        too_many_requests_body = cls(
            detail=detail,
        )

        too_many_requests_body.additional_properties = d
        return too_many_requests_body

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
