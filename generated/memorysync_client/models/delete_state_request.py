from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteStateRequest")


@_attrs_define
class DeleteStateRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        namespace (list[str]): A namespace path of 1 to 20 non-empty segments.
        keys (list[str] | None | Unset): Keys to delete. Absent or null deletes the whole namespace; an empty list
            deletes nothing.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
        delete_derived_facts (bool | Unset):  Default: False.
    """

    tenant_id: str
    user_id: str
    namespace: list[str]
    keys: list[str] | None | Unset = UNSET
    source: str | Unset = "api"
    delete_derived_facts: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        namespace = self.namespace

        keys: list[str] | None | Unset
        if isinstance(self.keys, Unset):
            keys = UNSET
        elif isinstance(self.keys, list):
            keys = self.keys

        else:
            keys = self.keys

        source = self.source

        delete_derived_facts = self.delete_derived_facts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "namespace": namespace,
            }
        )
        if keys is not UNSET:
            field_dict["keys"] = keys
        if source is not UNSET:
            field_dict["source"] = source
        if delete_derived_facts is not UNSET:
            field_dict["delete_derived_facts"] = delete_derived_facts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        namespace = cast(list[str], d.pop("namespace"))

        def _parse_keys(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                keys_type_0 = cast(list[str], data)

                return keys_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        keys = _parse_keys(d.pop("keys", UNSET))

        source = d.pop("source", UNSET)

        delete_derived_facts = d.pop("delete_derived_facts", UNSET)

        delete_state_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            namespace=namespace,
            keys=keys,
            source=source,
            delete_derived_facts=delete_derived_facts,
        )

        delete_state_request.additional_properties = d
        return delete_state_request

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
