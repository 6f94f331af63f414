from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteHistoryBySession")


@_attrs_define
class DeleteHistoryBySession:
    """Delete every turn of one session.

    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        session_id (str):
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`.
        delete_derived_facts (bool | Unset): Also delete the facts extracted from the deleted turns. Default: False.
    """

    tenant_id: str
    user_id: str
    session_id: str
    source: str | Unset = UNSET
    delete_derived_facts: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        session_id = self.session_id

        source = self.source

        delete_derived_facts = self.delete_derived_facts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "session_id": session_id,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if delete_derived_facts is not UNSET:
            field_dict["delete_derived_facts"] = delete_derived_facts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        session_id = d.pop("session_id")

        source = d.pop("source", UNSET)

        delete_derived_facts = d.pop("delete_derived_facts", UNSET)

        delete_history_by_session = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            session_id=session_id,
            source=source,
            delete_derived_facts=delete_derived_facts,
        )

        return delete_history_by_session
