from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="Turn")


@_attrs_define
class Turn:
    """One turn of a transcript.

    Attributes:
        role (str): Who spoke; stored lower-cased, `human` becomes `user` and `ai` becomes `assistant`.
        content (str): Stored exactly as given, and may be empty (an assistant turn that only called a tool has no
            text); at most 16,000 characters. A blank user turn extracts nothing.
        seq (int | Unset): Position in the session; orders the transcript.
        occurred_at (datetime.datetime | Unset):
        payload (Any | Unset): Any JSON value kept with the turn; at most 16 KiB as compact UTF-8 JSON.
        idempotency_key (str | Unset): A retry with the same key is not stored twice. Also the speaker seed for
            extraction when `speaker` is absent.
        speaker (str | Unset): The idempotency seed for extraction, as in add_turn: a user turn whose speaker and text
            were extracted in the last 30 days is not extracted again. Lets a client give the same words said twice two
            transcript rows (two idempotency keys) but one extraction (one speaker). Absent: the idempotency key is the
            seed.
    """

    role: str
    content: str
    seq: int | Unset = UNSET
    occurred_at: datetime.datetime | Unset = UNSET
    payload: Any | Unset = UNSET
    idempotency_key: str | Unset = UNSET
    speaker: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role

        content = self.content

        seq = self.seq

        occurred_at: str | Unset = UNSET
        if not isinstance(self.occurred_at, Unset):
            occurred_at = self.occurred_at.isoformat()

        payload = self.payload

        idempotency_key = self.idempotency_key

        speaker = self.speaker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if seq is not UNSET:
            field_dict["seq"] = seq
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at
        if payload is not UNSET:
            field_dict["payload"] = payload
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = d.pop("role")

        content = d.pop("content")

        seq = d.pop("seq", UNSET)

        _occurred_at = d.pop("occurred_at", UNSET)
        occurred_at: datetime.datetime | Unset
        if isinstance(_occurred_at, Unset):
            occurred_at = UNSET
        else:
            occurred_at = isoparse(_occurred_at)

        payload = d.pop("payload", UNSET)

        idempotency_key = d.pop("idempotency_key", UNSET)

        speaker = d.pop("speaker", UNSET)

        turn = cls(
            role=role,
            content=content,
            seq=seq,
            occurred_at=occurred_at,
            payload=payload,
            idempotency_key=idempotency_key,
            speaker=speaker,
        )

        turn.additional_properties = d
        return turn

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
