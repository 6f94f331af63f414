from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bulk_add_result import BulkAddResult


T = TypeVar("T", bound="BulkAddResponse")


@_attrs_define
class BulkAddResponse:
    """
    Attributes:
        total (int):
        created (int):
        skipped (int):
        rejected (int):
        results (list[BulkAddResult] | Unset): One per item, in order; absent over the plan's limit (nothing was
            stored).
    """

    total: int
    created: int
    skipped: int
    rejected: int
    results: list[BulkAddResult] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        created = self.created

        skipped = self.skipped

        rejected = self.rejected

        results: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.results, Unset):
            results = []
            for results_item_data in self.results:
                results_item = results_item_data.to_dict()
                results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "created": created,
                "skipped": skipped,
                "rejected": rejected,
            }
        )
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_add_result import BulkAddResult

        d = dict(src_dict)
        total = d.pop("total")

        created = d.pop("created")

        skipped = d.pop("skipped")

        rejected = d.pop("rejected")

        _results = d.pop("results", UNSET)
        results: list[BulkAddResult] | Unset = UNSET
        if _results is not UNSET:
            results = []
            for results_item_data in _results:
                results_item = BulkAddResult.from_dict(results_item_data)

                results.append(results_item)

        bulk_add_response = cls(
            total=total,
            created=created,
            skipped=skipped,
            rejected=rejected,
            results=results,
        )

        bulk_add_response.additional_properties = d
        return bulk_add_response

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
