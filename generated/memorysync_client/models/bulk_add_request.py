from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bulk_add_item import BulkAddItem


T = TypeVar("T", bound="BulkAddRequest")


@_attrs_define
class BulkAddRequest:
    """
    Attributes:
        items (list[BulkAddItem]):
        deduplicate (bool | Unset): As on `POST /memory/add`, for every item. Default: True.
    """

    items: list[BulkAddItem]
    deduplicate: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        deduplicate = self.deduplicate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
            }
        )
        if deduplicate is not UNSET:
            field_dict["deduplicate"] = deduplicate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_add_item import BulkAddItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = BulkAddItem.from_dict(items_item_data)

            items.append(items_item)

        deduplicate = d.pop("deduplicate", UNSET)

        bulk_add_request = cls(
            items=items,
            deduplicate=deduplicate,
        )

        bulk_add_request.additional_properties = d
        return bulk_add_request

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
