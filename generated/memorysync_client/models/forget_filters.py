from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="ForgetFilters")


@_attrs_define
class ForgetFilters:
    """Every given criterion must hold; at least one of `source`, `event_type`, `tags`, `before`,
    `after` (a filter naming none of them is `422`). `tier` is accepted as an unknown field
    and never narrows: the local server keeps one tier.

        Attributes:
            source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
            event_type (str | Unset): What kind of memory this is, 1 to 64 characters, no control characters. Memories
                stored
                without one are `fact`. The vocabulary `types` filters accept is the built-in types
                (`fact`, `preference`, `profile`, `event`, `decision`, `task`, `note`, `conversation`,
                `document`) plus every event type a memory of the tenant carries.
            tags (list[str] | Unset): All of these tags (1 to 20).
            before (datetime.datetime | Unset): Created before this moment.
            after (datetime.datetime | Unset): Created after this moment.
    """

    source: str | Unset = UNSET
    event_type: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    before: datetime.datetime | Unset = UNSET
    after: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        event_type = self.event_type

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        before: str | Unset = UNSET
        if not isinstance(self.before, Unset):
            before = self.before.isoformat()

        after: str | Unset = UNSET
        if not isinstance(self.after, Unset):
            after = self.after.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if source is not UNSET:
            field_dict["source"] = source
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if tags is not UNSET:
            field_dict["tags"] = tags
        if before is not UNSET:
            field_dict["before"] = before
        if after is not UNSET:
            field_dict["after"] = after

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source", UNSET)

        event_type = d.pop("event_type", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        _before = d.pop("before", UNSET)
        before: datetime.datetime | Unset
        if isinstance(_before, Unset):
            before = UNSET
        else:
            before = isoparse(_before)

        _after = d.pop("after", UNSET)
        after: datetime.datetime | Unset
        if isinstance(_after, Unset):
            after = UNSET
        else:
            after = isoparse(_after)

        forget_filters = cls(
            source=source,
            event_type=event_type,
            tags=tags,
            before=before,
            after=after,
        )

        forget_filters.additional_properties = d
        return forget_filters

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
