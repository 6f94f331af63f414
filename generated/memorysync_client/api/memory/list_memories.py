from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_list import MemoryList
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tenant_id: str,
    user_id: str,
    *,
    limit: int | Unset = 0,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/memory/{tenant_id}/{user_id}/list".format(
            tenant_id=quote(str(tenant_id), safe=""),
            user_id=quote(str(user_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = MemoryList.from_dict(response.json())

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
) -> Response[ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 0,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
) -> Response[ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody]:
    """List every memory of one user, newest first

     Path segments must be percent-encoded by the client. `limit=0` or no limit returns every memory.

    Args:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for
            evaluation keys).
        user_id (str): The end user the rows belong to.
        limit (int | Unset):  Default: 0.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        user_id=user_id,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 0,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody | None:
    """List every memory of one user, newest first

     Path segments must be percent-encoded by the client. `limit=0` or no limit returns every memory.

    Args:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for
            evaluation keys).
        user_id (str): The end user the rows belong to.
        limit (int | Unset):  Default: 0.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        tenant_id=tenant_id,
        user_id=user_id,
        client=client,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
    ).parsed


async def asyncio_detailed(
    tenant_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 0,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
) -> Response[ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody]:
    """List every memory of one user, newest first

     Path segments must be percent-encoded by the client. `limit=0` or no limit returns every memory.

    Args:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for
            evaluation keys).
        user_id (str): The end user the rows belong to.
        limit (int | Unset):  Default: 0.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        user_id=user_id,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_id: str,
    user_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 0,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody | None:
    """List every memory of one user, newest first

     Path segments must be percent-encoded by the client. `limit=0` or no limit returns every memory.

    Args:
        tenant_id (str): The tenant the key acts in (from `GET /org/projects`, or `default` for
            evaluation keys).
        user_id (str): The end user the rows belong to.
        limit (int | Unset):  Default: 0.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryList | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            tenant_id=tenant_id,
            user_id=user_id,
            client=client,
            limit=limit,
            offset=offset,
            x_project_id=x_project_id,
        )
    ).parsed
