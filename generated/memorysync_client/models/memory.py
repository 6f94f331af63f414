from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stored_metadata import StoredMetadata


T = TypeVar("T", bound="Memory")


@_attrs_define
class Memory:
    """A memory as the legacy `/memory/*` routes return it. `summary` is always null and
    `is_summary` false on the local server (it makes no summaries); `score` is present on
    ranked results only. `importance` is null until set (ranking treats that as 0.5).

        Attributes:
            id (int): The memory's number (`m_<id>` on the v1 routes).
            text (str):
            summary (None | str):
            tags (list[str] | None):
            source (None | str):
            event_type (None | str):
            importance (float | None):
            metadata (None | StoredMetadata):
            is_summary (bool):
            created_at (datetime.datetime | None):
            updated_at (datetime.datetime | None):
            score (float | None | Unset): Relevance to the query (ranked results only).
    """

    id: int
    text: str
    summary: None | str
    tags: list[str] | None
    source: None | str
    event_type: None | str
    importance: float | None
    metadata: None | StoredMetadata
    is_summary: bool
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    score: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.stored_metadata import StoredMetadata

        id = self.id

        text = self.text

        summary: None | str
        summary = self.summary

        tags: list[str] | None
        if isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        source: None | str
        source = self.source

        event_type: None | str
        event_type = self.event_type

        importance: float | None
        importance = self.importance

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, StoredMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        is_summary = self.is_summary

        created_at: None | str
        if isinstance(self.created_at, datetime.datetime):
            created_at = self.created_at.isoformat()
        else:
            created_at = self.created_at

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        score: float | None | Unset
        if isinstance(self.score, Unset):
            score = UNSET
        else:
            score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "text": text,
                "summary": summary,
                "tags": tags,
                "source": source,
                "event_type": event_type,
                "importance": importance,
                "metadata": metadata,
                "is_summary": is_summary,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stored_metadata import StoredMetadata

        d = dict(src_dict)
        id = d.pop("id")

        text = d.pop("text")

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        def _parse_tags(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        tags = _parse_tags(d.pop("tags"))

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        def _parse_event_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        event_type = _parse_event_type(d.pop("event_type"))

        def _parse_importance(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        importance = _parse_importance(d.pop("importance"))

        def _parse_metadata(data: object) -> None | StoredMetadata:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = StoredMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StoredMetadata, data)

        metadata = _parse_metadata(d.pop("metadata"))

        is_summary = d.pop("is_summary")

        def _parse_created_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_at_type_0 = isoparse(data)

                return created_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        created_at = _parse_created_at(d.pop("created_at"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = isoparse(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        def _parse_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score = _parse_score(d.pop("score", UNSET))

        memory = cls(
            id=id,
            text=text,
            summary=summary,
            tags=tags,
            source=source,
            event_type=event_type,
            importance=importance,
            metadata=metadata,
            is_summary=is_summary,
            created_at=created_at,
            updated_at=updated_at,
            score=score,
        )

        memory.additional_properties = d
        return memory

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
