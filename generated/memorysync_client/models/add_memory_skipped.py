from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.add_memory_skipped_reason import (
    AddMemorySkippedReason,
    check_add_memory_skipped_reason,
)
from ..models.add_memory_skipped_status import (
    AddMemorySkippedStatus,
    check_add_memory_skipped_status,
)

T = TypeVar("T", bound="AddMemorySkipped")


@_attrs_define
class AddMemorySkipped:
    """Nothing new was stored.

    Attributes:
        status (AddMemorySkippedStatus):
        reason (AddMemorySkippedReason):
        memory_ids (list[int]): For `already_ingested`, the ids the first write made.
    """

    status: AddMemorySkippedStatus
    reason: AddMemorySkippedReason
    memory_ids: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        reason: str = self.reason

        memory_ids = self.memory_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "reason": reason,
                "memory_ids": memory_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = check_add_memory_skipped_status(d.pop("status"))

        reason = check_add_memory_skipped_reason(d.pop("reason"))

        memory_ids = cast(list[int], d.pop("memory_ids"))

        add_memory_skipped = cls(
            status=status,
            reason=reason,
            memory_ids=memory_ids,
        )

        add_memory_skipped.additional_properties = d
        return add_memory_skipped

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
