from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteHistoryByIds")


@_attrs_define
class DeleteHistoryByIds:
    """Delete some turns by id.

    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        ids (list[int | str]): Turn ids, `h_<n>` or the bare number (`7` is `h_7`).
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        delete_derived_facts (bool | Unset): Also delete the facts extracted from the deleted turns. Default: False.
    """

    tenant_id: str
    user_id: str
    ids: list[int | str]
    source: str | Unset = UNSET
    delete_derived_facts: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        ids = []
        for ids_item_data in self.ids:
            ids_item: int | str
            ids_item = ids_item_data
            ids.append(ids_item)

        source = self.source

        delete_derived_facts = self.delete_derived_facts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "ids": ids,
            }
        )
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

        ids = []
        _ids = d.pop("ids")
        for ids_item_data in _ids:

            def _parse_ids_item(data: object) -> int | str:
                return cast(int | str, data)

            ids_item = _parse_ids_item(ids_item_data)

            ids.append(ids_item)

        source = d.pop("source", UNSET)

        delete_derived_facts = d.pop("delete_derived_facts", UNSET)

        delete_history_by_ids = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            ids=ids,
            source=source,
            delete_derived_facts=delete_derived_facts,
        )

        delete_history_by_ids.additional_properties = d
        return delete_history_by_ids

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
