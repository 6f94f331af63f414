from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.memory_revision_event import (
    MemoryRevisionEvent,
    check_memory_revision_event,
)

if TYPE_CHECKING:
    from ..models.memory_revision_diff import MemoryRevisionDiff


T = TypeVar("T", bound="MemoryRevision")


@_attrs_define
class MemoryRevision:
    """
    Attributes:
        revision (int):
        event (MemoryRevisionEvent): The local server records `created`, `updated` and `superseded`.
        changed_fields (list[str]):
        diff (MemoryRevisionDiff): Each changed field: `{"before": ..., "after": ...}`.
        actor (None | str):
        created_at (datetime.datetime | None):
    """

    revision: int
    event: MemoryRevisionEvent
    changed_fields: list[str]
    diff: MemoryRevisionDiff
    actor: None | str
    created_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        revision = self.revision

        event: str = self.event

        changed_fields = self.changed_fields

        diff = self.diff.to_dict()

        actor: None | str
        actor = self.actor

        created_at: None | str
        if isinstance(self.created_at, datetime.datetime):
            created_at = self.created_at.isoformat()
        else:
            created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "revision": revision,
                "event": event,
                "changed_fields": changed_fields,
                "diff": diff,
                "actor": actor,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_revision_diff import MemoryRevisionDiff

        d = dict(src_dict)
        revision = d.pop("revision")

        event = check_memory_revision_event(d.pop("event"))

        changed_fields = cast(list[str], d.pop("changed_fields"))

        diff = MemoryRevisionDiff.from_dict(d.pop("diff"))

        def _parse_actor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor = _parse_actor(d.pop("actor"))

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

        memory_revision = cls(
            revision=revision,
            event=event,
            changed_fields=changed_fields,
            diff=diff,
            actor=actor,
            created_at=created_at,
        )

        memory_revision.additional_properties = d
        return memory_revision

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
