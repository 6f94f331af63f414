from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.memory import Memory


T = TypeVar("T", bound="MemoryQueryResponse")


@_attrs_define
class MemoryQueryResponse:
    """
    Attributes:
        memories (list[Memory]):
        context (None | str): One `- <text>` line per memory, best first.
        latency_ms (float | None):
        session_id (None | str):
        query_intent (None | str): Always null on the local server (it does not classify queries).
    """

    memories: list[Memory]
    context: None | str
    latency_ms: float | None
    session_id: None | str
    query_intent: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        memories = []
        for memories_item_data in self.memories:
            memories_item = memories_item_data.to_dict()
            memories.append(memories_item)

        context: None | str
        context = self.context

        latency_ms: float | None
        latency_ms = self.latency_ms

        session_id: None | str
        session_id = self.session_id

        query_intent: None | str
        query_intent = self.query_intent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "memories": memories,
                "context": context,
                "latency_ms": latency_ms,
                "session_id": session_id,
                "query_intent": query_intent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.memory import Memory

        d = dict(src_dict)
        memories = []
        _memories = d.pop("memories")
        for memories_item_data in _memories:
            memories_item = Memory.from_dict(memories_item_data)

            memories.append(memories_item)

        def _parse_context(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        context = _parse_context(d.pop("context"))

        def _parse_latency_ms(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        latency_ms = _parse_latency_ms(d.pop("latency_ms"))

        def _parse_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        session_id = _parse_session_id(d.pop("session_id"))

        def _parse_query_intent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        query_intent = _parse_query_intent(d.pop("query_intent"))

        memory_query_response = cls(
            memories=memories,
            context=context,
            latency_ms=latency_ms,
            session_id=session_id,
            query_intent=query_intent,
        )

        memory_query_response.additional_properties = d
        return memory_query_response

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
