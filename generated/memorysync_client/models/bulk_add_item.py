from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata


T = TypeVar("T", bound="BulkAddItem")


@_attrs_define
class BulkAddItem:
    """One fact of a bulk add.

    Attributes:
        text (str): Non-empty after trimming; at most 16,000 characters.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        event_type (str | Unset): What kind of memory this is, 1 to 64 characters, no control characters. Memories
            stored
            without one are `fact`. The vocabulary `types` filters accept is the built-in types
            (`fact`, `preference`, `profile`, `event`, `decision`, `task`, `note`, `conversation`,
            `document`) plus every event type a memory of the tenant carries.
        tags (list[str] | Unset): At most 20 labels; repeats are stored once.
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
        importance (float | Unset): How much the memory matters, 0 to 1 (feeds ranking; 0.5 is neutral).
        end_user_id (str | Unset): The end user the write is for; the `X-End-User-ID` header wins when both are given.
        client_ref (str | Unset):
        session_id (str | Unset):
    """

    text: str
    source: str | Unset = UNSET
    event_type: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    importance: float | Unset = UNSET
    end_user_id: str | Unset = UNSET
    client_ref: str | Unset = UNSET
    session_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        source = self.source

        event_type = self.event_type

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        importance = self.importance

        end_user_id = self.end_user_id

        client_ref = self.client_ref

        session_id = self.session_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if tags is not UNSET:
            field_dict["tags"] = tags
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if importance is not UNSET:
            field_dict["importance"] = importance
        if end_user_id is not UNSET:
            field_dict["end_user_id"] = end_user_id
        if client_ref is not UNSET:
            field_dict["client_ref"] = client_ref
        if session_id is not UNSET:
            field_dict["session_id"] = session_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata

        d = dict(src_dict)
        text = d.pop("text")

        source = d.pop("source", UNSET)

        event_type = d.pop("event_type", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        importance = d.pop("importance", UNSET)

        end_user_id = d.pop("end_user_id", UNSET)

        client_ref = d.pop("client_ref", UNSET)

        session_id = d.pop("session_id", UNSET)

        bulk_add_item = cls(
            text=text,
            source=source,
            event_type=event_type,
            tags=tags,
            metadata=metadata,
            importance=importance,
            end_user_id=end_user_id,
            client_ref=client_ref,
            session_id=session_id,
        )

        bulk_add_item.additional_properties = d
        return bulk_add_item

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
