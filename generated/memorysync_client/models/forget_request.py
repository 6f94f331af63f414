from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ForgetRequest")


@_attrs_define
class ForgetRequest:
    """Facts to delete for the user named by `X-End-User-ID`.

    Attributes:
        memory_ids (list[int | str]):
        reason (str | Unset):
        dry_run (bool | Unset): Report what would be deleted without deleting it. Default: False.
    """

    memory_ids: list[int | str]
    reason: str | Unset = UNSET
    dry_run: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        memory_ids = []
        for memory_ids_item_data in self.memory_ids:
            memory_ids_item: int | str
            memory_ids_item = memory_ids_item_data
            memory_ids.append(memory_ids_item)

        reason = self.reason

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

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

        forget_request = cls(
            memory_ids=memory_ids,
            reason=reason,
            dry_run=dry_run,
        )

        return forget_request
