from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.bulk_add_result_status import (
    BulkAddResultStatus,
    check_bulk_add_result_status,
)

T = TypeVar("T", bound="BulkAddResult")


@_attrs_define
class BulkAddResult:
    """
    Attributes:
        index (int):
        status (BulkAddResultStatus):
        memory_ids (list[int]): The memories this item stored (`created`), or that already held it (`skipped`).
        reason (None | str): Why an item was skipped (`already_ingested`, `no_high_value_content`, `duplicate`) or
            rejected (`missing_end_user`).
    """

    index: int
    status: BulkAddResultStatus
    memory_ids: list[int]
    reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        status: str = self.status

        memory_ids = self.memory_ids

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "status": status,
                "memory_ids": memory_ids,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        status = check_bulk_add_result_status(d.pop("status"))

        memory_ids = cast(list[int], d.pop("memory_ids"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        bulk_add_result = cls(
            index=index,
            status=status,
            memory_ids=memory_ids,
            reason=reason,
        )

        bulk_add_result.additional_properties = d
        return bulk_add_result

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
