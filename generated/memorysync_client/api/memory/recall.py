from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.recall_request import RecallRequest
from ...models.recall_response import RecallResponse
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RecallRequest,
    x_project_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/memory/recall",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = RecallResponse.from_dict(response.json())

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecallRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody]:
    r"""Build a prompt-ready context block for a prompt

     Finds the user's memories relevant to `prompt` and returns them both as a block to
    paste into a prompt (`context`: one line per memory, most relevant first; `\"\"` when
    nothing is relevant) and as structured `memories`. The block holds at most the server's
    character budget (`--recall-chars`, 700 by default): the `k` best memories take their
    lines first and, while the budget has room, the next best follow (at most `2k` lines).

    Args:
        x_project_id (str | Unset):
        body (RecallRequest): A prompt to recall memories for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody]
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
    body: RecallRequest,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody | None:
    r"""Build a prompt-ready context block for a prompt

     Finds the user's memories relevant to `prompt` and returns them both as a block to
    paste into a prompt (`context`: one line per memory, most relevant first; `\"\"` when
    nothing is relevant) and as structured `memories`. The block holds at most the server's
    character budget (`--recall-chars`, 700 by default): the `k` best memories take their
    lines first and, while the budget has room, the next best follow (at most `2k` lines).

    Args:
        x_project_id (str | Unset):
        body (RecallRequest): A prompt to recall memories for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        x_project_id=x_project_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecallRequest,
    x_project_id: str | Unset = UNSET,
) -> Response[ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody]:
    r"""Build a prompt-ready context block for a prompt

     Finds the user's memories relevant to `prompt` and returns them both as a block to
    paste into a prompt (`context`: one line per memory, most relevant first; `\"\"` when
    nothing is relevant) and as structured `memories`. The block holds at most the server's
    character budget (`--recall-chars`, 700 by default): the `k` best memories take their
    lines first and, while the budget has room, the next best follow (at most `2k` lines).

    Args:
        x_project_id (str | Unset):
        body (RecallRequest): A prompt to recall memories for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody]
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
    body: RecallRequest,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody | None:
    r"""Build a prompt-ready context block for a prompt

     Finds the user's memories relevant to `prompt` and returns them both as a block to
    paste into a prompt (`context`: one line per memory, most relevant first; `\"\"` when
    nothing is relevant) and as structured `memories`. The block holds at most the server's
    character budget (`--recall-chars`, 700 by default): the `k` best memories take their
    lines first and, while the budget has room, the next best follow (at most `2k` lines).

    Args:
        x_project_id (str | Unset):
        body (RecallRequest): A prompt to recall memories for.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RecallResponse | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_project_id=x_project_id,
        )
    ).parsed
