from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.state_item_value import StateItemValue


T = TypeVar("T", bound="StateItem")


@_attrs_define
class StateItem:
    """A stored state record.

    Attributes:
        id (str): A history turn or state record id, `h_<n>`.
        namespace (list[str]):
        key (str):
        value (StateItemValue):
        text (str):
        source (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        score (float | Unset): Relevance to the query (search only).
    """

    id: str
    namespace: list[str]
    key: str
    value: StateItemValue
    text: str
    source: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    score: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        namespace = self.namespace

        key = self.key

        value = self.value.to_dict()

        text = self.text

        source = self.source

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "namespace": namespace,
                "key": key,
                "value": value,
                "text": text,
                "source": source,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.state_item_value import StateItemValue

        d = dict(src_dict)
        id = d.pop("id")

        namespace = cast(list[str], d.pop("namespace"))

        key = d.pop("key")

        value = StateItemValue.from_dict(d.pop("value"))

        text = d.pop("text")

        source = d.pop("source")

        created_at = isoparse(d.pop("created_at"))

        updated_at = isoparse(d.pop("updated_at"))

        score = d.pop("score", UNSET)

        state_item = cls(
            id=id,
            namespace=namespace,
            key=key,
            value=value,
            text=text,
            source=source,
            created_at=created_at,
            updated_at=updated_at,
            score=score,
        )

        state_item.additional_properties = d
        return state_item

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
