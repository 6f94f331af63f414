from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.forget_filters import ForgetFilters


T = TypeVar("T", bound="ForgetByFilter")


@_attrs_define
class ForgetByFilter:
    """
    Attributes:
        filters (ForgetFilters): Every given criterion must hold; at least one of `source`, `event_type`, `tags`,
            `before`,
            `after` (a filter naming none of them is `422`). `tier` is accepted as an unknown field
            and never narrows: the local server keeps one tier.
        reason (str | Unset):
        dry_run (bool | Unset): Report what would be deleted without deleting it. Default: False.
    """

    filters: ForgetFilters
    reason: str | Unset = UNSET
    dry_run: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filters = self.filters.to_dict()

        reason = self.reason

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filters": filters,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.forget_filters import ForgetFilters

        d = dict(src_dict)
        filters = ForgetFilters.from_dict(d.pop("filters"))

        reason = d.pop("reason", UNSET)

        dry_run = d.pop("dry_run", UNSET)

        forget_by_filter = cls(
            filters=filters,
            reason=reason,
            dry_run=dry_run,
        )

        forget_by_filter.additional_properties = d
        return forget_by_filter

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
