from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata


T = TypeVar("T", bound="AddMemoryRequest")


@_attrs_define
class AddMemoryRequest:
    """One fact to store for the end user (`X-End-User-ID`, else `end_user_id`).

    Attributes:
        text (str): Non-empty after trimming; at most 16,000 characters.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
        session_id (str | Unset):
        client_ref (str | Unset): Idempotency reference; a resend answers `already_ingested`.
        tags (list[str] | Unset): At most 20 labels; repeats are stored once.
        importance (float | Unset): How much the memory matters, 0 to 1 (feeds ranking; 0.5 is neutral).
        event_type (str | Unset): What kind of memory this is, 1 to 64 characters, no control characters. Memories
            stored
            without one are `fact`. The vocabulary `types` filters accept is the built-in types
            (`fact`, `preference`, `profile`, `event`, `decision`, `task`, `note`, `conversation`,
            `document`) plus every event type a memory of the tenant carries.
        deduplicate (bool | Unset): Also answer a restatement of a stored fact with that memory (exact texts are always
            stored once). Default: True.
        end_user_id (str | Unset): The end user the write is for; the `X-End-User-ID` header wins when both are given.
    """

    text: str
    source: str | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    session_id: str | Unset = UNSET
    client_ref: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    importance: float | Unset = UNSET
    event_type: str | Unset = UNSET
    deduplicate: bool | Unset = True
    end_user_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        source = self.source

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        session_id = self.session_id

        client_ref = self.client_ref

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        importance = self.importance

        event_type = self.event_type

        deduplicate = self.deduplicate

        end_user_id = self.end_user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if session_id is not UNSET:
            field_dict["session_id"] = session_id
        if client_ref is not UNSET:
            field_dict["client_ref"] = client_ref
        if tags is not UNSET:
            field_dict["tags"] = tags
        if importance is not UNSET:
            field_dict["importance"] = importance
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if deduplicate is not UNSET:
            field_dict["deduplicate"] = deduplicate
        if end_user_id is not UNSET:
            field_dict["end_user_id"] = end_user_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata

        d = dict(src_dict)
        text = d.pop("text")

        source = d.pop("source", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        session_id = d.pop("session_id", UNSET)

        client_ref = d.pop("client_ref", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        importance = d.pop("importance", UNSET)

        event_type = d.pop("event_type", UNSET)

        deduplicate = d.pop("deduplicate", UNSET)

        end_user_id = d.pop("end_user_id", UNSET)

        add_memory_request = cls(
            text=text,
            source=source,
            metadata=metadata,
            session_id=session_id,
            client_ref=client_ref,
            tags=tags,
            importance=importance,
            event_type=event_type,
            deduplicate=deduplicate,
            end_user_id=end_user_id,
        )

        add_memory_request.additional_properties = d
        return add_memory_request

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
