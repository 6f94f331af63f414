from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata


T = TypeVar("T", bound="BatchUpdateItem")


@_attrs_define
class BatchUpdateItem:
    """One memory's edit; at least one editable field besides `memory_id`.

    Attributes:
        memory_id (int):
        text (Any | Unset): A memory's text is not editable (a request with it is refused with 422): store the new text
            with POST /memory/add and forget the old memory with DELETE /memory/forget.
        tags (list[str] | Unset): At most 20 labels; repeats are stored once.
        importance (float | Unset): How much the memory matters, 0 to 1 (feeds ranking; 0.5 is neutral).
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        event_type (str | Unset): What kind of memory this is, 1 to 64 characters, no control characters. Memories
            stored
            without one are `fact`. The vocabulary `types` filters accept is the built-in types
            (`fact`, `preference`, `profile`, `event`, `decision`, `task`, `note`, `conversation`,
            `document`) plus every event type a memory of the tenant carries.
    """

    memory_id: int
    text: Any | Unset = UNSET
    tags: list[str] | Unset = UNSET
    importance: float | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source: str | Unset = UNSET
    event_type: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        text = self.text

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        importance = self.importance

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source = self.source

        event_type = self.event_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
            }
        )
        if text is not UNSET:
            field_dict["text"] = text
        if tags is not UNSET:
            field_dict["tags"] = tags
        if importance is not UNSET:
            field_dict["importance"] = importance
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source is not UNSET:
            field_dict["source"] = source
        if event_type is not UNSET:
            field_dict["event_type"] = event_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata

        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        text = d.pop("text", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        importance = d.pop("importance", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        source = d.pop("source", UNSET)

        event_type = d.pop("event_type", UNSET)

        batch_update_item = cls(
            memory_id=memory_id,
            text=text,
            tags=tags,
            importance=importance,
            metadata=metadata,
            source=source,
            event_type=event_type,
        )

        batch_update_item.additional_properties = d
        return batch_update_item

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
