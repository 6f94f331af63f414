from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.memory import Memory
from ...models.memory_update import MemoryUpdate
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    memory_id: int,
    *,
    body: MemoryUpdate,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    headers["X-End-User-ID"] = x_end_user_id

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/memory/{memory_id}".format(
            memory_id=quote(str(memory_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = Memory.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ValidationErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = TooManyRequestsBody.from_dict(response.json())

        return response_429

    if response.status_code == 507:
        response_507 = ErrorBody.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody]:
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
    body: MemoryUpdate,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody]:
    """Edit a memory's tags, importance, metadata, source or event type

     Sets the given fields; at least one is required. A memory's `text` is not editable (nor
    its vectors, owner, tenant or project): a body with `text` answers `422`; store the new
    text with `POST /memory/add` and forget the old memory. `metadata` merges into the
    stored metadata (a key set to `null` is removed); the server's own keys (`write_origin`,
    `distilled_from`, `turn_role`, `history_id`, `episodic`, `superseded_by`, `occurred_at`,
    `said_in`) cannot be set
    and stay as they are. A change records an `updated` revision. Not metered.

    Args:
        memory_id (int):
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (MemoryUpdate): At least one editable field. `text` is not editable (a body with it
            is `422`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        memory_id=memory_id,
        body=body,
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
    body: MemoryUpdate,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody | None:
    """Edit a memory's tags, importance, metadata, source or event type

     Sets the given fields; at least one is required. A memory's `text` is not editable (nor
    its vectors, owner, tenant or project): a body with `text` answers `422`; store the new
    text with `POST /memory/add` and forget the old memory. `metadata` merges into the
    stored metadata (a key set to `null` is removed); the server's own keys (`write_origin`,
    `distilled_from`, `turn_role`, `history_id`, `episodic`, `superseded_by`, `occurred_at`,
    `said_in`) cannot be set
    and stay as they are. A change records an `updated` revision. Not metered.

    Args:
        memory_id (int):
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (MemoryUpdate): At least one editable field. `text` is not editable (a body with it
            is `422`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        memory_id=memory_id,
        client=client,
        body=body,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    ).parsed


async def asyncio_detailed(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    body: MemoryUpdate,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody]:
    """Edit a memory's tags, importance, metadata, source or event type

     Sets the given fields; at least one is required. A memory's `text` is not editable (nor
    its vectors, owner, tenant or project): a body with `text` answers `422`; store the new
    text with `POST /memory/add` and forget the old memory. `metadata` merges into the
    stored metadata (a key set to `null` is removed); the server's own keys (`write_origin`,
    `distilled_from`, `turn_role`, `history_id`, `episodic`, `superseded_by`, `occurred_at`,
    `said_in`) cannot be set
    and stay as they are. A change records an `updated` revision. Not metered.

    Args:
        memory_id (int):
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (MemoryUpdate): At least one editable field. `text` is not editable (a body with it
            is `422`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        memory_id=memory_id,
        body=body,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    memory_id: int,
    *,
    client: AuthenticatedClient | Client,
    body: MemoryUpdate,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody | None:
    """Edit a memory's tags, importance, metadata, source or event type

     Sets the given fields; at least one is required. A memory's `text` is not editable (nor
    its vectors, owner, tenant or project): a body with `text` answers `422`; store the new
    text with `POST /memory/add` and forget the old memory. `metadata` merges into the
    stored metadata (a key set to `null` is removed); the server's own keys (`write_origin`,
    `distilled_from`, `turn_role`, `history_id`, `episodic`, `superseded_by`, `occurred_at`,
    `said_in`) cannot be set
    and stay as they are. A change records an `updated` revision. Not metered.

    Args:
        memory_id (int):
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (MemoryUpdate): At least one editable field. `text` is not editable (a body with it
            is `422`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Memory | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            memory_id=memory_id,
            client=client,
            body=body,
            x_project_id=x_project_id,
            x_end_user_id=x_end_user_id,
        )
    ).parsed
