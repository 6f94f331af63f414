from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ForgetByIds")


@_attrs_define
class ForgetByIds:
    """Facts to delete by id, for the end user named by `X-End-User-ID`.

    Attributes:
        memory_ids (list[int | str]):
        reason (str | Unset):
        dry_run (bool | Unset): Report what would be deleted without deleting it. Default: False.
    """

    memory_ids: list[int | str]
    reason: str | Unset = UNSET
    dry_run: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_ids = []
        for memory_ids_item_data in self.memory_ids:
            memory_ids_item: int | str
            memory_ids_item = memory_ids_item_data
            memory_ids.append(memory_ids_item)

        reason = self.reason

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_ids": memory_ids,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        memory_ids = []
        _memory_ids = d.pop("memory_ids")
        for memory_ids_item_data in _memory_ids:

            def _parse_memory_ids_item(data: object) -> int | str:
                return cast(int | str, data)

            memory_ids_item = _parse_memory_ids_item(memory_ids_item_data)

            memory_ids.append(memory_ids_item)

        reason = d.pop("reason", UNSET)

        dry_run = d.pop("dry_run", UNSET)

        forget_by_ids = cls(
            memory_ids=memory_ids,
            reason=reason,
            dry_run=dry_run,
        )

        forget_by_ids.additional_properties = d
        return forget_by_ids

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
