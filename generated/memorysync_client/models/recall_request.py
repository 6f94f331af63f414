from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecallRequest")


@_attrs_define
class RecallRequest:
    """A prompt to recall memories for.

    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        prompt (str): Non-empty after trimming; at most 16,000 characters.
        k (int | Unset): How many memories to consider.
        types (list[str] | Unset): Narrows the result to memories whose `event_type` is listed. Names outside the
            vocabulary (see `EventType`) are dropped rather than refused, and the answer names them
            in the `X-MemorySync-Dropped-Types` header; when every name is dropped nothing is
            narrowed (as if `types` were absent). At most 32 names.
    """

    tenant_id: str
    user_id: str
    prompt: str
    k: int | Unset = UNSET
    types: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        prompt = self.prompt

        k = self.k

        types: list[str] | Unset = UNSET
        if not isinstance(self.types, Unset):
            types = self.types

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "prompt": prompt,
            }
        )
        if k is not UNSET:
            field_dict["k"] = k
        if types is not UNSET:
            field_dict["types"] = types

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        prompt = d.pop("prompt")

        k = d.pop("k", UNSET)

        types = cast(list[str], d.pop("types", UNSET))

        recall_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            prompt=prompt,
            k=k,
            types=types,
        )

        recall_request.additional_properties = d
        return recall_request

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
