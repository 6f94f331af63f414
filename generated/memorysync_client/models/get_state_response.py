from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.state_item import StateItem


T = TypeVar("T", bound="GetStateResponse")


@_attrs_define
class GetStateResponse:
    """
    Attributes:
        item (None | StateItem):
    """

    item: None | StateItem
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.state_item import StateItem

        item: dict[str, Any] | None
        if isinstance(self.item, StateItem):
            item = self.item.to_dict()
        else:
            item = self.item

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "item": item,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.state_item import StateItem

        d = dict(src_dict)

        def _parse_item(data: object) -> None | StateItem:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                item_type_0 = StateItem.from_dict(data)

                return item_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StateItem, data)

        item = _parse_item(d.pop("item"))

        get_state_response = cls(
            item=item,
        )

        get_state_response.additional_properties = d
        return get_state_response

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
