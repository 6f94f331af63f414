from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="MemoryQueryFilters")


@_attrs_define
class MemoryQueryFilters:
    """Every given criterion must hold. `memory_type` matches `event_type`; `tags`: all listed
    tags; `since`/`until` bound `created_at` (inclusive). `include_summaries` and `tier` are
    accepted and change nothing on the local server (no summaries, one tier).

        Attributes:
            memory_type (str | Unset): What kind of memory this is, 1 to 64 characters, no control characters. Memories
                stored
                without one are `fact`. The vocabulary `types` filters accept is the built-in types
                (`fact`, `preference`, `profile`, `event`, `decision`, `task`, `note`, `conversation`,
                `document`) plus every event type a memory of the tenant carries.
            source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
            tags (list[str] | Unset): At most 20 labels; repeats are stored once.
            since (datetime.datetime | Unset):
            until (datetime.datetime | Unset):
            include_summaries (bool | Unset):
            tier (str | Unset):
    """

    memory_type: str | Unset = UNSET
    source: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    since: datetime.datetime | Unset = UNSET
    until: datetime.datetime | Unset = UNSET
    include_summaries: bool | Unset = UNSET
    tier: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_type = self.memory_type

        source = self.source

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        since: str | Unset = UNSET
        if not isinstance(self.since, Unset):
            since = self.since.isoformat()

        until: str | Unset = UNSET
        if not isinstance(self.until, Unset):
            until = self.until.isoformat()

        include_summaries = self.include_summaries

        tier = self.tier

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if memory_type is not UNSET:
            field_dict["memory_type"] = memory_type
        if source is not UNSET:
            field_dict["source"] = source
        if tags is not UNSET:
            field_dict["tags"] = tags
        if since is not UNSET:
            field_dict["since"] = since
        if until is not UNSET:
            field_dict["until"] = until
        if include_summaries is not UNSET:
            field_dict["include_summaries"] = include_summaries
        if tier is not UNSET:
            field_dict["tier"] = tier

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        memory_type = d.pop("memory_type", UNSET)

        source = d.pop("source", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        _since = d.pop("since", UNSET)
        since: datetime.datetime | Unset
        if isinstance(_since, Unset):
            since = UNSET
        else:
            since = isoparse(_since)

        _until = d.pop("until", UNSET)
        until: datetime.datetime | Unset
        if isinstance(_until, Unset):
            until = UNSET
        else:
            until = isoparse(_until)

        include_summaries = d.pop("include_summaries", UNSET)

        tier = d.pop("tier", UNSET)

        memory_query_filters = cls(
            memory_type=memory_type,
            source=source,
            tags=tags,
            since=since,
            until=until,
            include_summaries=include_summaries,
            tier=tier,
        )

        memory_query_filters.additional_properties = d
        return memory_query_filters

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
