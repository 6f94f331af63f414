from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_model import ReadinessModel, check_readiness_model
from ..models.readiness_status import ReadinessStatus, check_readiness_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.encoder_choice import EncoderChoice


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """The answer of `GET /ready`.

    Attributes:
        status (ReadinessStatus):
        database (str): `ok`, or why the database did not answer.
        model (ReadinessModel): The search model; `not used` by the search modes that need none.
        detail (str | Unset): What is missing, when not ready.
        encoder (EncoderChoice | Unset): Which graph of the search model encodes, once it is loaded. With `--encoder
            auto` (the
            default) the server times the int8-compute graph and the published one, at one thread and
            at several, on a few probe texts and keeps the fastest whose vectors agree with the
            published graph's, and never one slower than the published graph on one thread.
    """

    status: ReadinessStatus
    database: str
    model: ReadinessModel
    detail: str | Unset = UNSET
    encoder: EncoderChoice | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        database = self.database

        model: str = self.model

        detail = self.detail

        encoder: dict[str, Any] | Unset = UNSET
        if not isinstance(self.encoder, Unset):
            encoder = self.encoder.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "database": database,
                "model": model,
            }
        )
        if detail is not UNSET:
            field_dict["detail"] = detail
        if encoder is not UNSET:
            field_dict["encoder"] = encoder

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.encoder_choice import EncoderChoice

        d = dict(src_dict)
        status = check_readiness_status(d.pop("status"))

        database = d.pop("database")

        model = check_readiness_model(d.pop("model"))

        detail = d.pop("detail", UNSET)

        _encoder = d.pop("encoder", UNSET)
        encoder: EncoderChoice | Unset
        if isinstance(_encoder, Unset):
            encoder = UNSET
        else:
            encoder = EncoderChoice.from_dict(_encoder)

        readiness = cls(
            status=status,
            database=database,
            model=model,
            detail=detail,
            encoder=encoder,
        )

        readiness.additional_properties = d
        return readiness

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
