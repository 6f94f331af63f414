from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

T = TypeVar("T", bound="HistoryTurn")


@_attrs_define
class HistoryTurn:
    """A stored transcript turn.

    Attributes:
        id (str): A history turn or state record id, `h_<n>`.
        session_id (str):
        role (str):
        content (str):
        seq (int | None):
        occurred_at (datetime.datetime | None):
        payload (Any): The turn's payload, or null.
        source (str):
        created_at (datetime.datetime):
        created (bool): False when this append was a replay of a stored turn.
    """

    id: str
    session_id: str
    role: str
    content: str
    seq: int | None
    occurred_at: datetime.datetime | None
    payload: Any
    source: str
    created_at: datetime.datetime
    created: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        session_id = self.session_id

        role = self.role

        content = self.content

        seq: int | None
        seq = self.seq

        occurred_at: None | str
        if isinstance(self.occurred_at, datetime.datetime):
            occurred_at = self.occurred_at.isoformat()
        else:
            occurred_at = self.occurred_at

        payload = self.payload

        source = self.source

        created_at = self.created_at.isoformat()

        created = self.created

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "session_id": session_id,
                "role": role,
                "content": content,
                "seq": seq,
                "occurred_at": occurred_at,
                "payload": payload,
                "source": source,
                "created_at": created_at,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        session_id = d.pop("session_id")

        role = d.pop("role")

        content = d.pop("content")

        def _parse_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seq = _parse_seq(d.pop("seq"))

        def _parse_occurred_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                occurred_at_type_0 = isoparse(data)

                return occurred_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        occurred_at = _parse_occurred_at(d.pop("occurred_at"))

        payload = d.pop("payload")

        source = d.pop("source")

        created_at = isoparse(d.pop("created_at"))

        created = d.pop("created")

        history_turn = cls(
            id=id,
            session_id=session_id,
            role=role,
            content=content,
            seq=seq,
            occurred_at=occurred_at,
            payload=payload,
            source=source,
            created_at=created_at,
            created=created,
        )

        history_turn.additional_properties = d
        return history_turn

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
