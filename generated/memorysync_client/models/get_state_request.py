from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GetStateRequest")


@_attrs_define
class GetStateRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        namespace (list[str]): A namespace path of 1 to 20 non-empty segments.
        key (str): A record's key inside its namespace.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
    """

    tenant_id: str
    user_id: str
    namespace: list[str]
    key: str
    source: str | Unset = "api"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        namespace = self.namespace

        key = self.key

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "namespace": namespace,
                "key": key,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        namespace = cast(list[str], d.pop("namespace"))

        key = d.pop("key")

        source = d.pop("source", UNSET)

        get_state_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            namespace=namespace,
            key=key,
            source=source,
        )

        get_state_request.additional_properties = d
        return get_state_request

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
