from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_export import MemoryExport
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    headers["X-End-User-ID"] = x_end_user_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/memory/export",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = MemoryExport.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = ValidationErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = TooManyRequestsBody.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody]:
    """Every memory of the end user, for export

     Every memory of the end user named by `X-End-User-ID`, newest first, as `Memory`
    objects. `user_id` is a stable positive integer derived from (tenant, end user): the
    first 52 bits of the BLAKE2b hash of the two, so it is the same on every call and
    never names another end user of the tenant in practice; it is not the end user's
    string id, which the caller already knows. Over the plan's limit (silent mode)
    `memories` is empty.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody | None:
    """Every memory of the end user, for export

     Every memory of the end user named by `X-End-User-ID`, newest first, as `Memory`
    objects. `user_id` is a stable positive integer derived from (tenant, end user): the
    first 52 bits of the BLAKE2b hash of the two, so it is the same on every call and
    never names another end user of the tenant in practice; it is not the end user's
    string id, which the caller already knows. Over the plan's limit (silent mode)
    `memories` is empty.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody]:
    """Every memory of the end user, for export

     Every memory of the end user named by `X-End-User-ID`, newest first, as `Memory`
    objects. `user_id` is a stable positive integer derived from (tenant, end user): the
    first 52 bits of the BLAKE2b hash of the two, so it is the same on every call and
    never names another end user of the tenant in practice; it is not the end user's
    string id, which the caller already knows. Over the plan's limit (silent mode)
    `memories` is empty.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody | None:
    """Every memory of the end user, for export

     Every memory of the end user named by `X-End-User-ID`, newest first, as `Memory`
    objects. `user_id` is a stable positive integer derived from (tenant, end user): the
    first 52 bits of the BLAKE2b hash of the two, so it is the same on every call and
    never names another end user of the tenant in practice; it is not the end user's
    string id, which the caller already knows. Over the plan's limit (silent mode)
    `memories` is empty.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryExport | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            x_project_id=x_project_id,
            x_end_user_id=x_end_user_id,
        )
    ).parsed
