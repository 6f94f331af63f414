from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.put_state_response_status import (
    PutStateResponseStatus,
    check_put_state_response_status,
)

if TYPE_CHECKING:
    from ..models.state_item import StateItem


T = TypeVar("T", bound="PutStateResponse")


@_attrs_define
class PutStateResponse:
    """
    Attributes:
        item (StateItem): A stored state record.
        created (bool): False when the key existed (replaced or identical).
        request_id (None | str):
        deleted_fact_ids (list[str]):
        status (PutStateResponseStatus):
    """

    item: StateItem
    created: bool
    request_id: None | str
    deleted_fact_ids: list[str]
    status: PutStateResponseStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        item = self.item.to_dict()

        created = self.created

        request_id: None | str
        request_id = self.request_id

        deleted_fact_ids = self.deleted_fact_ids

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "item": item,
                "created": created,
                "request_id": request_id,
                "deleted_fact_ids": deleted_fact_ids,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.state_item import StateItem

        d = dict(src_dict)
        item = StateItem.from_dict(d.pop("item"))

        created = d.pop("created")

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("request_id"))

        deleted_fact_ids = cast(list[str], d.pop("deleted_fact_ids"))

        status = check_put_state_response_status(d.pop("status"))

        put_state_response = cls(
            item=item,
            created=created,
            request_id=request_id,
            deleted_fact_ids=deleted_fact_ids,
            status=status,
        )

        put_state_response.additional_properties = d
        return put_state_response

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
