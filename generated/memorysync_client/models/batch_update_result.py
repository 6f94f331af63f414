from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.batch_update_result_status import (
    BatchUpdateResultStatus,
    check_batch_update_result_status,
)

T = TypeVar("T", bound="BatchUpdateResult")


@_attrs_define
class BatchUpdateResult:
    """
    Attributes:
        index (int):
        memory_id (int):
        status (BatchUpdateResultStatus):
        changed_fields (list[str]): The fields whose value changed (empty when the values were already so).
    """

    index: int
    memory_id: int
    status: BatchUpdateResultStatus
    changed_fields: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        memory_id = self.memory_id

        status: str = self.status

        changed_fields = self.changed_fields

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "memory_id": memory_id,
                "status": status,
                "changed_fields": changed_fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        memory_id = d.pop("memory_id")

        status = check_batch_update_result_status(d.pop("status"))

        changed_fields = cast(list[str], d.pop("changed_fields"))

        batch_update_result = cls(
            index=index,
            memory_id=memory_id,
            status=status,
            changed_fields=changed_fields,
        )

        batch_update_result.additional_properties = d
        return batch_update_result

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
