from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory_history import MemoryHistory
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    memory_id: int,
    *,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    headers["X-End-User-ID"] = x_end_user_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/memory/{memory_id}/history".format(
            memory_id=quote(str(memory_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = MemoryHistory.from_dict(response.json())

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
) -> Response[ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody]:
    r"""The revisions of one memory, oldest first

     Revision 0 is `created` (for memories stored by an older release it is synthesised from
    `created_at`). Later revisions are `updated` (an edit, feedback that moved importance,
    or a cleared supersede mark) and `superseded` (a newer memory replaced this one's value).
    `diff` maps each changed field to `{\"before\": ..., \"after\": ...}`. `actor` is `api` for
    a change a caller asked for and null for one the server made itself (extraction,
    supersede). Not metered.

    Args:
        memory_id (int):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        memory_id=memory_id,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody | None:
    r"""The revisions of one memory, oldest first

     Revision 0 is `created` (for memories stored by an older release it is synthesised from
    `created_at`). Later revisions are `updated` (an edit, feedback that moved importance,
    or a cleared supersede mark) and `superseded` (a newer memory replaced this one's value).
    `diff` maps each changed field to `{\"before\": ..., \"after\": ...}`. `actor` is `api` for
    a change a caller asked for and null for one the server made itself (extraction,
    supersede). Not metered.

    Args:
        memory_id (int):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        memory_id=memory_id,
        client=client,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    ).parsed


async def asyncio_detailed(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody]:
    r"""The revisions of one memory, oldest first

     Revision 0 is `created` (for memories stored by an older release it is synthesised from
    `created_at`). Later revisions are `updated` (an edit, feedback that moved importance,
    or a cleared supersede mark) and `superseded` (a newer memory replaced this one's value).
    `diff` maps each changed field to `{\"before\": ..., \"after\": ...}`. `actor` is `api` for
    a change a caller asked for and null for one the server made itself (extraction,
    supersede). Not metered.

    Args:
        memory_id (int):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        memory_id=memory_id,
        limit=limit,
        offset=offset,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody | None:
    r"""The revisions of one memory, oldest first

     Revision 0 is `created` (for memories stored by an older release it is synthesised from
    `created_at`). Later revisions are `updated` (an edit, feedback that moved importance,
    or a cleared supersede mark) and `superseded` (a newer memory replaced this one's value).
    `diff` maps each changed field to `{\"before\": ..., \"after\": ...}`. `actor` is `api` for
    a change a caller asked for and null for one the server made itself (extraction,
    supersede). Not metered.

    Args:
        memory_id (int):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_project_id (str | Unset):
        x_end_user_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MemoryHistory | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            memory_id=memory_id,
            client=client,
            limit=limit,
            offset=offset,
            x_project_id=x_project_id,
            x_end_user_id=x_end_user_id,
        )
    ).parsed
