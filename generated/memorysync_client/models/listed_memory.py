from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

if TYPE_CHECKING:
    from ..models.stored_metadata import StoredMetadata


T = TypeVar("T", bound="ListedMemory")


@_attrs_define
class ListedMemory:
    """A durable fact about an end user, as the v1 list returns it.

    Attributes:
        memory_id (str): A memory (fact) id, `m_<n>`.
        text (str):
        source (str):
        metadata (StoredMetadata): Free-form metadata, as stored.
        created_at (datetime.datetime):
    """

    memory_id: str
    text: str
    source: str
    metadata: StoredMetadata
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        text = self.text

        source = self.source

        metadata = self.metadata.to_dict()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "text": text,
                "source": source,
                "metadata": metadata,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stored_metadata import StoredMetadata

        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        text = d.pop("text")

        source = d.pop("source")

        metadata = StoredMetadata.from_dict(d.pop("metadata"))

        created_at = isoparse(d.pop("created_at"))

        listed_memory = cls(
            memory_id=memory_id,
            text=text,
            source=source,
            metadata=metadata,
            created_at=created_at,
        )

        listed_memory.additional_properties = d
        return listed_memory

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
