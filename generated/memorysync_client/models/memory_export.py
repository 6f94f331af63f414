from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

if TYPE_CHECKING:
    from ..models.memory import Memory


T = TypeVar("T", bound="MemoryExport")


@_attrs_define
class MemoryExport:
    """
    Attributes:
        user_id (int): A stable number for (tenant, end user); see the operation's description.
        memories (list[Memory]):
        generated_at (datetime.datetime):
    """

    user_id: int
    memories: list[Memory]
    generated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        generated_at = self.generated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_id": user_id,
                "memories": memories,
                "generated_at": generated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory

        d = dict(src_dict)
        user_id = d.pop("user_id")

        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = Memory.from_dict(memories_item_data)

            memories.append(memories_item)

        generated_at = isoparse(d.pop("generated_at"))

        memory_export = cls(
            user_id=user_id,
            memories=memories,
            generated_at=generated_at,
        )

        memory_export.additional_properties = d
        return memory_export

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
