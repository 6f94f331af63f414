from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.memory_status_processing_status import (
    MemoryStatusProcessingStatus,
    check_memory_status_processing_status,
)

T = TypeVar("T", bound="MemoryStatus")


@_attrs_define
class MemoryStatus:
    """Where one memory is in ingestion.

    Attributes:
        memory_id (int): The memory's number, as in the path.
        searchable (bool): True once search and recall can find the memory.
        processing_status (MemoryStatusProcessingStatus): `completed` once stored and searchable; `failed` is final.
        created_at (datetime.datetime):
    """

    memory_id: int
    searchable: bool
    processing_status: MemoryStatusProcessingStatus
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        searchable = self.searchable

        processing_status: str = self.processing_status

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "searchable": searchable,
                "processing_status": processing_status,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        searchable = d.pop("searchable")

        processing_status = check_memory_status_processing_status(
            d.pop("processing_status")
        )

        created_at = isoparse(d.pop("created_at"))

        memory_status = cls(
            memory_id=memory_id,
            searchable=searchable,
            processing_status=processing_status,
            created_at=created_at,
        )

        memory_status.additional_properties = d
        return memory_status

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
