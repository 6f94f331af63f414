from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchStateRequest")


@_attrs_define
class SearchStateRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        query (str):
        namespace_prefix (list[str] | Unset): Matches namespaces segment by segment: `["agno"]` matches `["agno"]` and
            `["agno", "x"]`,
            not `["agnostic"]`. `[]` (like leaving it out) matches every namespace.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
        limit (int | Unset):  Default: 10.
    """

    tenant_id: str
    user_id: str
    query: str
    namespace_prefix: list[str] | Unset = UNSET
    source: str | Unset = "api"
    limit: int | Unset = 10
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        query = self.query

        namespace_prefix: list[str] | Unset = UNSET
        if not isinstance(self.namespace_prefix, Unset):
            namespace_prefix = self.namespace_prefix

        source = self.source

        limit = self.limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "query": query,
            }
        )
        if namespace_prefix is not UNSET:
            field_dict["namespace_prefix"] = namespace_prefix
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

        query = d.pop("query")

        namespace_prefix = cast(list[str], d.pop("namespace_prefix", UNSET))

        source = d.pop("source", UNSET)

        limit = d.pop("limit", UNSET)

        search_state_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            query=query,
            namespace_prefix=namespace_prefix,
            source=source,
            limit=limit,
        )

        search_state_request.additional_properties = d
        return search_state_request

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
