from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.add_turn_response_processing_status import (
    AddTurnResponseProcessingStatus,
    check_add_turn_response_processing_status,
)
from ..models.add_turn_response_status import (
    AddTurnResponseStatus,
    check_add_turn_response_status,
)

T = TypeVar("T", bound="AddTurnResponse")


@_attrs_define
class AddTurnResponse:
    """What the pipeline did with the turn.

    Attributes:
        memory_id (None): Always null; facts get their own ids.
        status (AddTurnResponseStatus): `processing` when extraction started, `ok` otherwise.
        processing_status (AddTurnResponseProcessingStatus):
        already_exists (bool): True when the same turn was seen in the last 30 days.
        request_id (None | str):
    """

    memory_id: None
    status: AddTurnResponseStatus
    processing_status: AddTurnResponseProcessingStatus
    already_exists: bool
    request_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memory_id = self.memory_id

        status: str = self.status

        processing_status: str = self.processing_status

        already_exists = self.already_exists

        request_id: None | str
        request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memory_id": memory_id,
                "status": status,
                "processing_status": processing_status,
                "already_exists": already_exists,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        memory_id = d.pop("memory_id")

        status = check_add_turn_response_status(d.pop("status"))

        processing_status = check_add_turn_response_processing_status(
            d.pop("processing_status")
        )

        already_exists = d.pop("already_exists")

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("request_id"))

        add_turn_response = cls(
            memory_id=memory_id,
            status=status,
            processing_status=processing_status,
            already_exists=already_exists,
            request_id=request_id,
        )

        add_turn_response.additional_properties = d
        return add_turn_response

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
