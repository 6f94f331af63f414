from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.add_turn_request_role import (
    AddTurnRequestRole,
    check_add_turn_request_role,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata


T = TypeVar("T", bound="AddTurnRequest")


@_attrs_define
class AddTurnRequest:
    """One conversation turn to extract durable facts from.

    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        text (str): Non-empty after trimming; at most 16,000 characters.
        role (AddTurnRequestRole | Unset): Who spoke. `user` turns are extracted; others are skipped. Absent means
            resolved from a `role:` prefix, the speaker seed, `metadata.role`, else `user`.
        speaker (str | Unset): The idempotency seed, `<role>@<scope>#h<fnv1a64>`; the part before `@` also names the
            role.
        occurred_at (datetime.datetime | Unset): When the turn was said.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'chat'.
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
        sync_embed (bool | Unset): Accepted for compatibility; has no effect.
    """

    tenant_id: str
    user_id: str
    text: str
    role: AddTurnRequestRole | Unset = UNSET
    speaker: str | Unset = UNSET
    occurred_at: datetime.datetime | Unset = UNSET
    source: str | Unset = "chat"
    metadata: Metadata | Unset = UNSET
    sync_embed: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        text = self.text

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role

        speaker = self.speaker

        occurred_at: str | Unset = UNSET
        if not isinstance(self.occurred_at, Unset):
            occurred_at = self.occurred_at.isoformat()

        source = self.source

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        sync_embed = self.sync_embed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "text": text,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role
        if speaker is not UNSET:
            field_dict["speaker"] = speaker
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at
        if source is not UNSET:
            field_dict["source"] = source
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if sync_embed is not UNSET:
            field_dict["sync_embed"] = sync_embed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata

        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        text = d.pop("text")

        _role = d.pop("role", UNSET)
        role: AddTurnRequestRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = check_add_turn_request_role(_role)

        speaker = d.pop("speaker", UNSET)

        _occurred_at = d.pop("occurred_at", UNSET)
        occurred_at: datetime.datetime | Unset
        if isinstance(_occurred_at, Unset):
            occurred_at = UNSET
        else:
            occurred_at = isoparse(_occurred_at)

        source = d.pop("source", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        sync_embed = d.pop("sync_embed", UNSET)

        add_turn_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            text=text,
            role=role,
            speaker=speaker,
            occurred_at=occurred_at,
            source=source,
            metadata=metadata,
            sync_embed=sync_embed,
        )

        add_turn_request.additional_properties = d
        return add_turn_request

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
