from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ListHistoryRequest")


@_attrs_define
class ListHistoryRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        session_id (str):
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        limit (int | Unset): Only the latest this many turns (still oldest first); `0` means all. Default: 0.
    """

    tenant_id: str
    user_id: str
    session_id: str
    source: str | Unset = UNSET
    limit: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        session_id = self.session_id

        source = self.source

        limit = self.limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "session_id": session_id,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        session_id = d.pop("session_id")

        source = d.pop("source", UNSET)

        limit = d.pop("limit", UNSET)

        list_history_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            session_id=session_id,
            source=source,
            limit=limit,
        )

        list_history_request.additional_properties = d
        return list_history_request

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
