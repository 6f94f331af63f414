from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ListStateNamespacesRequest")


@_attrs_define
class ListStateNamespacesRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
        prefix (list[str] | Unset): Matches namespaces segment by segment: `["agno"]` matches `["agno"]` and `["agno",
            "x"]`,
            not `["agnostic"]`. `[]` (like leaving it out) matches every namespace.
        max_depth (int | Unset): Cut each namespace to this many segments (duplicates merged); absent keeps them whole.
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
    """

    tenant_id: str
    user_id: str
    source: str | Unset = "api"
    prefix: list[str] | Unset = UNSET
    max_depth: int | Unset = UNSET
    limit: int | Unset = 100
    offset: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        source = self.source

        prefix: list[str] | Unset = UNSET
        if not isinstance(self.prefix, Unset):
            prefix = self.prefix

        max_depth = self.max_depth

        limit = self.limit

        offset = self.offset

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if max_depth is not UNSET:
            field_dict["max_depth"] = max_depth
        if limit is not UNSET:
            field_dict["limit"] = limit
        if offset is not UNSET:
            field_dict["offset"] = offset

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        source = d.pop("source", UNSET)

        prefix = cast(list[str], d.pop("prefix", UNSET))

        max_depth = d.pop("max_depth", UNSET)

        limit = d.pop("limit", UNSET)

        offset = d.pop("offset", UNSET)

        list_state_namespaces_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            source=source,
            prefix=prefix,
            max_depth=max_depth,
            limit=limit,
            offset=offset,
        )

        list_state_namespaces_request.additional_properties = d
        return list_state_namespaces_request

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
