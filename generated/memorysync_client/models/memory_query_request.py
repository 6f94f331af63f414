from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory_query_filters import MemoryQueryFilters


T = TypeVar("T", bound="MemoryQueryRequest")


@_attrs_define
class MemoryQueryRequest:
    """
    Attributes:
        query (str): What to search for (at most 4,000 characters).
        k (int | Unset): How many memories to return (default 10).
        filters (MemoryQueryFilters | Unset): Every given criterion must hold. `memory_type` matches `event_type`;
            `tags`: all listed
            tags; `since`/`until` bound `created_at` (inclusive). `include_summaries` and `tier` are
            accepted and change nothing on the local server (no summaries, one tier).
        session_id (str | Unset): Echoed back; memories belong to the end user, so it does not narrow the search.
        traversal_depth (int | Unset): Accepted; the local server keeps no memory graph, so it changes nothing.
        rerank (bool | Unset): Accepted; the ranking is the same either way.
    """

    query: str
    k: int | Unset = UNSET
    filters: MemoryQueryFilters | Unset = UNSET
    session_id: str | Unset = UNSET
    traversal_depth: int | Unset = UNSET
    rerank: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        k = self.k

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        session_id = self.session_id

        traversal_depth = self.traversal_depth

        rerank = self.rerank

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "query": query,
            }
        )
        if k is not UNSET:
            field_dict["k"] = k
        if filters is not UNSET:
            field_dict["filters"] = filters
        if session_id is not UNSET:
            field_dict["session_id"] = session_id
        if traversal_depth is not UNSET:
            field_dict["traversal_depth"] = traversal_depth
        if rerank is not UNSET:
            field_dict["rerank"] = rerank

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory_query_filters import MemoryQueryFilters

        d = dict(src_dict)
        query = d.pop("query")

        k = d.pop("k", UNSET)

        _filters = d.pop("filters", UNSET)
        filters: MemoryQueryFilters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = MemoryQueryFilters.from_dict(_filters)

        session_id = d.pop("session_id", UNSET)

        traversal_depth = d.pop("traversal_depth", UNSET)

        rerank = d.pop("rerank", UNSET)

        memory_query_request = cls(
            query=query,
            k=k,
            filters=filters,
            session_id=session_id,
            traversal_depth=traversal_depth,
            rerank=rerank,
        )

        memory_query_request.additional_properties = d
        return memory_query_request

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
