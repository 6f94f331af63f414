from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory_revision import MemoryRevision


T = TypeVar("T", bound="MemoryHistory")


@_attrs_define
class MemoryHistory:
    """
    Attributes:
        memory_id (int):
        total (int):
        revisions (list[MemoryRevision]):
        tracked_fields (list[str]):
    """

    memory_id: int
    total: int
    revisions: list[MemoryRevision]
    tracked_fields: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        total = self.total

        revisions = []
        for revisions_item_data in self.revisions:
            revisions_item = revisions_item_data.to_dict()
            revisions.append(revisions_item)

        tracked_fields = self.tracked_fields

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "total": total,
                "revisions": revisions,
                "tracked_fields": tracked_fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_revision import MemoryRevision

        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        total = d.pop("total")

        revisions = []
        _revisions = d.pop("revisions")
        for revisions_item_data in _revisions:
            revisions_item = MemoryRevision.from_dict(revisions_item_data)

            revisions.append(revisions_item)

        tracked_fields = cast(list[str], d.pop("tracked_fields"))

        memory_history = cls(
            memory_id=memory_id,
            total=total,
            revisions=revisions,
            tracked_fields=tracked_fields,
        )

        memory_history.additional_properties = d
        return memory_history

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
