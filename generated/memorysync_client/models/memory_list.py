from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.listed_memory import ListedMemory


T = TypeVar("T", bound="MemoryList")


@_attrs_define
class MemoryList:
    """
    Attributes:
        memories (list[ListedMemory]):
        total (int): The user's memory count before paging.
    """

    memories: list[ListedMemory]
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listed_memory import ListedMemory

        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = ListedMemory.from_dict(memories_item_data)

            memories.append(memories_item)

        total = d.pop("total")

        memory_list = cls(
            memories=memories,
            total=total,
        )

        memory_list.additional_properties = d
        return memory_list

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
