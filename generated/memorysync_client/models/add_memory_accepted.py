from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.add_memory_accepted_status import (
    AddMemoryAcceptedStatus,
    check_add_memory_accepted_status,
)

T = TypeVar("T", bound="AddMemoryAccepted")


@_attrs_define
class AddMemoryAccepted:
    """Accepted without saying what was kept (over the plan's limit in silent mode nothing is).

    Attributes:
        status (AddMemoryAcceptedStatus):
    """

    status: AddMemoryAcceptedStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = check_add_memory_accepted_status(d.pop("status"))

        add_memory_accepted = cls(
            status=status,
        )

        add_memory_accepted.additional_properties = d
        return add_memory_accepted

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
