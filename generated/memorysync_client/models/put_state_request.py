from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata
    from ..models.put_state_request_value import PutStateRequestValue


T = TypeVar("T", bound="PutStateRequest")


@_attrs_define
class PutStateRequest:
    """
    Attributes:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for evaluation keys).
        user_id (str): The end user the rows belong to.
        namespace (list[str]): A namespace path of 1 to 20 non-empty segments.
        key (str): A record's key inside its namespace.
        value (PutStateRequestValue): The record's value (a JSON object); at most 256 KiB as compact UTF-8 JSON.
        text (str | Unset): What is embedded and extracted; default the value's JSON.
        source (str | Unset): The integration that wrote the row, e.g. `ag2` or `agno`. Default: 'api'.
        index (bool | Unset): Embed `text` for search. Default: True.
        extract (bool | Unset): Also extract facts from `text`. Default: False.
        as_fact (bool | Unset): Also keep `text` itself as this record's one fact, as written, with no extraction: a
            memory another framework already distilled (agno keeps each of its memories as a record). The fact is a memory
            like any other for every reader (recall, query, the list, the export, the inspector), carries the put's
            `metadata`, and names its record (`metadata.distilled_from` = the item's `h_<n>`). With `replace_derived_facts`
            a put that changes the text replaces the fact; a delete with `delete_derived_facts` removes it. Not together
            with `extract` (422). Default: False.
        replace_derived_facts (bool | Unset): Delete the facts extracted from the value this put replaces. Default:
            False.
        metadata (Metadata | Unset): Free-form metadata. Scalar values are copied onto every fact extracted from this
            write, so
            its size is bounded: at most 64 keys of at most 128 characters, string values of at most
            4,000 characters, and at most 16 KiB as compact UTF-8 JSON (`x-max-json-bytes`).
    """

    tenant_id: str
    user_id: str
    namespace: list[str]
    key: str
    value: PutStateRequestValue
    text: str | Unset = UNSET
    source: str | Unset = "api"
    index: bool | Unset = True
    extract: bool | Unset = False
    as_fact: bool | Unset = False
    replace_derived_facts: bool | Unset = False
    metadata: Metadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        user_id = self.user_id

        namespace = self.namespace

        key = self.key

        value = self.value.to_dict()

        text = self.text

        source = self.source

        index = self.index

        extract = self.extract

        as_fact = self.as_fact

        replace_derived_facts = self.replace_derived_facts

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_id": tenant_id,
                "user_id": user_id,
                "namespace": namespace,
                "key": key,
                "value": value,
            }
        )
        if text is not UNSET:
            field_dict["text"] = text
        if source is not UNSET:
            field_dict["source"] = source
        if index is not UNSET:
            field_dict["index"] = index
        if extract is not UNSET:
            field_dict["extract"] = extract
        if as_fact is not UNSET:
            field_dict["as_fact"] = as_fact
        if replace_derived_facts is not UNSET:
            field_dict["replace_derived_facts"] = replace_derived_facts
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata
        from ..models.put_state_request_value import PutStateRequestValue

        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        user_id = d.pop("user_id")

        namespace = cast(list[str], d.pop("namespace"))

        key = d.pop("key")

        value = PutStateRequestValue.from_dict(d.pop("value"))

        text = d.pop("text", UNSET)

        source = d.pop("source", UNSET)

        index = d.pop("index", UNSET)

        extract = d.pop("extract", UNSET)

        as_fact = d.pop("as_fact", UNSET)

        replace_derived_facts = d.pop("replace_derived_facts", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        put_state_request = cls(
            tenant_id=tenant_id,
            user_id=user_id,
            namespace=namespace,
            key=key,
            value=value,
            text=text,
            source=source,
            index=index,
            extract=extract,
            as_fact=as_fact,
            replace_derived_facts=replace_derived_facts,
            metadata=metadata,
        )

        put_state_request.additional_properties = d
        return put_state_request

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
