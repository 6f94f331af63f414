from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.batch_update_result import BatchUpdateResult


T = TypeVar("T", bound="BatchUpdateResponse")


@_attrs_define
class BatchUpdateResponse:
    """
    Attributes:
        total (int):
        updated (int):
        not_found (int):
        results (list[BatchUpdateResult]):
    """

    total: int
    updated: int
    not_found: int
    results: list[BatchUpdateResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        updated = self.updated

        not_found = self.not_found

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "updated": updated,
                "not_found": not_found,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_update_result import BatchUpdateResult

        d = dict(src_dict)
        total = d.pop("total")

        updated = d.pop("updated")

        not_found = d.pop("not_found")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = BatchUpdateResult.from_dict(results_item_data)

            results.append(results_item)

        batch_update_response = cls(
            total=total,
            updated=updated,
            not_found=not_found,
            results=results,
        )

        batch_update_response.additional_properties = d
        return batch_update_response

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
