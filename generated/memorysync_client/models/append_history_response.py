from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.append_history_response_status import (
    AppendHistoryResponseStatus,
    check_append_history_response_status,
)

if TYPE_CHECKING:
    from ..models.history_turn import HistoryTurn


T = TypeVar("T", bound="AppendHistoryResponse")


@_attrs_define
class AppendHistoryResponse:
    """
    Attributes:
        items (list[HistoryTurn]):
        request_ids (list[str]):
        status (AppendHistoryResponseStatus):
    """

    items: list[HistoryTurn]
    request_ids: list[str]
    status: AppendHistoryResponseStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        request_ids = self.request_ids

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "request_ids": request_ids,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.history_turn import HistoryTurn

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = HistoryTurn.from_dict(items_item_data)

            items.append(items_item)

        request_ids = cast(list[str], d.pop("request_ids"))

        status = check_append_history_response_status(d.pop("status"))

        append_history_response = cls(
            items=items,
            request_ids=request_ids,
            status=status,
        )

        append_history_response.additional_properties = d
        return append_history_response

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
