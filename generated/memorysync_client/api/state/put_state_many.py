from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.put_state_many_request import PutStateManyRequest
from ...models.put_state_many_response import PutStateManyResponse
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PutStateManyRequest,
    x_project_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/state/put_many",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody | None
):
    if response.status_code == 200:
        response_200 = PutStateManyResponse.from_dict(response.json())

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
) -> Response[
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PutStateManyRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody
]:
    """Create or replace several state records in one call

     Local server only; not a route of hosted MemorySync, which answers `404`: a client sends
    `/v1/state/put` once per record there (the agno adapter does so by itself after one
    `404`). Each item is a `/v1/state/put` body and is answered as that put would be, in the
    order given, with one difference: the records are stored together or not at all (a
    `422`, `403` or `507` stores none of them). Every item names the key's tenant (`403`
    naming the item otherwise); items may name different users. A record named twice is
    written in order, as two puts would be. Identical records are answered
    `created: false` and not written, as by `/v1/state/put`. Over the plan's quota, items
    past it are answered `status: skipped` and nothing of them is stored.
    The texts of the batch are encoded in one model run, and the batch is one transaction:
    for a client storing many records this is several times faster than one put each.
    The items' texts (each item's `text`, or its value as JSON where it has none) add up to
    at most 32,000 characters (`x-max-total-text-chars`), so one call costs the server
    about as much as two of the largest puts; past that the call is a `422` that says so,
    and nothing is stored: send the rest in another call.

    Args:
        x_project_id (str | Unset):
        body (PutStateManyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody]
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
    body: PutStateManyRequest,
    x_project_id: str | Unset = UNSET,
) -> (
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody | None
):
    """Create or replace several state records in one call

     Local server only; not a route of hosted MemorySync, which answers `404`: a client sends
    `/v1/state/put` once per record there (the agno adapter does so by itself after one
    `404`). Each item is a `/v1/state/put` body and is answered as that put would be, in the
    order given, with one difference: the records are stored together or not at all (a
    `422`, `403` or `507` stores none of them). Every item names the key's tenant (`403`
    naming the item otherwise); items may name different users. A record named twice is
    written in order, as two puts would be. Identical records are answered
    `created: false` and not written, as by `/v1/state/put`. Over the plan's quota, items
    past it are answered `status: skipped` and nothing of them is stored.
    The texts of the batch are encoded in one model run, and the batch is one transaction:
    for a client storing many records this is several times faster than one put each.
    The items' texts (each item's `text`, or its value as JSON where it has none) add up to
    at most 32,000 characters (`x-max-total-text-chars`), so one call costs the server
    about as much as two of the largest puts; past that the call is a `422` that says so,
    and nothing is stored: send the rest in another call.

    Args:
        x_project_id (str | Unset):
        body (PutStateManyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        x_project_id=x_project_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PutStateManyRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody
]:
    """Create or replace several state records in one call

     Local server only; not a route of hosted MemorySync, which answers `404`: a client sends
    `/v1/state/put` once per record there (the agno adapter does so by itself after one
    `404`). Each item is a `/v1/state/put` body and is answered as that put would be, in the
    order given, with one difference: the records are stored together or not at all (a
    `422`, `403` or `507` stores none of them). Every item names the key's tenant (`403`
    naming the item otherwise); items may name different users. A record named twice is
    written in order, as two puts would be. Identical records are answered
    `created: false` and not written, as by `/v1/state/put`. Over the plan's quota, items
    past it are answered `status: skipped` and nothing of them is stored.
    The texts of the batch are encoded in one model run, and the batch is one transaction:
    for a client storing many records this is several times faster than one put each.
    The items' texts (each item's `text`, or its value as JSON where it has none) add up to
    at most 32,000 characters (`x-max-total-text-chars`), so one call costs the server
    about as much as two of the largest puts; past that the call is a `422` that says so,
    and nothing is stored: send the rest in another call.

    Args:
        x_project_id (str | Unset):
        body (PutStateManyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody]
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
    body: PutStateManyRequest,
    x_project_id: str | Unset = UNSET,
) -> (
    ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody | None
):
    """Create or replace several state records in one call

     Local server only; not a route of hosted MemorySync, which answers `404`: a client sends
    `/v1/state/put` once per record there (the agno adapter does so by itself after one
    `404`). Each item is a `/v1/state/put` body and is answered as that put would be, in the
    order given, with one difference: the records are stored together or not at all (a
    `422`, `403` or `507` stores none of them). Every item names the key's tenant (`403`
    naming the item otherwise); items may name different users. A record named twice is
    written in order, as two puts would be. Identical records are answered
    `created: false` and not written, as by `/v1/state/put`. Over the plan's quota, items
    past it are answered `status: skipped` and nothing of them is stored.
    The texts of the batch are encoded in one model run, and the batch is one transaction:
    for a client storing many records this is several times faster than one put each.
    The items' texts (each item's `text`, or its value as JSON where it has none) add up to
    at most 32,000 characters (`x-max-total-text-chars`), so one call costs the server
    about as much as two of the largest puts; past that the call is a `422` that says so,
    and nothing is stored: send the rest in another call.

    Args:
        x_project_id (str | Unset):
        body (PutStateManyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PutStateManyResponse | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_project_id=x_project_id,
        )
    ).parsed
