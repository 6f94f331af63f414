from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.add_turn_request import AddTurnRequest
from ...models.add_turn_response import AddTurnResponse
from ...models.error_body import ErrorBody
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AddTurnRequest,
    x_project_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/memory/add_turn",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 201:
        response_201 = AddTurnResponse.from_dict(response.json())

        return response_201

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
) -> Response[AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AddTurnRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody]:
    r"""Send one conversation turn to fact extraction

     Runs the turn through the server pipeline: role resolution, the low-value filter,
    30-day replay detection on (tenant, user, speaker, occurred_at, text), then fact
    extraction. Only the user's turns produce facts; the turn text itself is never
    stored as a memory. Facts carry the caller's scalar metadata (minus reserved keys)
    plus `write_origin: \"turn-extraction\"` and `turn_role: \"user\"`. The local server adds
    `said_in` to a fact whose turn told more than its facts hold: up to 200 characters of the
    turn, which the fact is searched with (its text stays as extracted).

    Args:
        x_project_id (str | Unset):
        body (AddTurnRequest): One conversation turn to extract durable facts from.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        x_project_id=x_project_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: AddTurnRequest,
    x_project_id: str | Unset = UNSET,
) -> AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody | None:
    r"""Send one conversation turn to fact extraction

     Runs the turn through the server pipeline: role resolution, the low-value filter,
    30-day replay detection on (tenant, user, speaker, occurred_at, text), then fact
    extraction. Only the user's turns produce facts; the turn text itself is never
    stored as a memory. Facts carry the caller's scalar metadata (minus reserved keys)
    plus `write_origin: \"turn-extraction\"` and `turn_role: \"user\"`. The local server adds
    `said_in` to a fact whose turn told more than its facts hold: up to 200 characters of the
    turn, which the fact is searched with (its text stays as extracted).

    Args:
        x_project_id (str | Unset):
        body (AddTurnRequest): One conversation turn to extract durable facts from.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        x_project_id=x_project_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AddTurnRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody]:
    r"""Send one conversation turn to fact extraction

     Runs the turn through the server pipeline: role resolution, the low-value filter,
    30-day replay detection on (tenant, user, speaker, occurred_at, text), then fact
    extraction. Only the user's turns produce facts; the turn text itself is never
    stored as a memory. Facts carry the caller's scalar metadata (minus reserved keys)
    plus `write_origin: \"turn-extraction\"` and `turn_role: \"user\"`. The local server adds
    `said_in` to a fact whose turn told more than its facts hold: up to 200 characters of the
    turn, which the fact is searched with (its text stays as extracted).

    Args:
        x_project_id (str | Unset):
        body (AddTurnRequest): One conversation turn to extract durable facts from.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        x_project_id=x_project_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: AddTurnRequest,
    x_project_id: str | Unset = UNSET,
) -> AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody | None:
    r"""Send one conversation turn to fact extraction

     Runs the turn through the server pipeline: role resolution, the low-value filter,
    30-day replay detection on (tenant, user, speaker, occurred_at, text), then fact
    extraction. Only the user's turns produce facts; the turn text itself is never
    stored as a memory. Facts carry the caller's scalar metadata (minus reserved keys)
    plus `write_origin: \"turn-extraction\"` and `turn_role: \"user\"`. The local server adds
    `said_in` to a fact whose turn told more than its facts hold: up to 200 characters of the
    turn, which the fact is searched with (its text stays as extracted).

    Args:
        x_project_id (str | Unset):
        body (AddTurnRequest): One conversation turn to extract durable facts from.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddTurnResponse | ErrorBody | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_project_id=x_project_id,
        )
    ).parsed
