from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata
    from ..models.turn import Turn


T = TypeVar("T", bound="AppendHistoryRequest")


@_attrs_define
class AppendHistoryRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        session_id (str):
        turns (list[Turn]):
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
        extract (bool | Unset): Also extract facts from the user turns. Default: True.
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
    """

    tenant_id: str
    user_id: str
    session_id: str
    turns: list[Turn]
    source: str | Unset = "api"
    extract: bool | Unset = True
    metadata: Metadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        session_id = self.session_id

        turns = []
        for turns_item_data in self.turns:
            turns_item = turns_item_data.to_dict()
            turns.append(turns_item)

        source = self.source

        extract = self.extract

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "session_id": session_id,
                "turns": turns,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if extract is not UNSET:
            field_dict["extract"] = extract
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata
        from ..models.turn import Turn

        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        session_id = d.pop("session_id")

        turns = []
        _turns = d.pop("turns")
        for turns_item_data in _turns:
            turns_item = Turn.from_dict(turns_item_data)

            turns.append(turns_item)

        source = d.pop("source", UNSET)

        extract = d.pop("extract", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        append_history_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            session_id=session_id,
            turns=turns,
            source=source,
            extract=extract,
            metadata=metadata,
        )

        append_history_request.additional_properties = d
        return append_history_request

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
