from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/metrics",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | str]:
    """Metrics in the Prometheus text format

     The server's figures for a Prometheus scraper (local server only; not a route of hosted
    MemorySync): requests and their latency by route template, method and status
    (`memorysync_http_requests_total`, `memorysync_http_request_duration_seconds`), recalls
    and those that found nothing (`memorysync_recalls_total`,
    `memorysync_recalls_empty_total`), extraction failures, the write queue
    (`memorysync_write_queue_depth`), the entries of each in-memory cache, the search mode
    and encoder (`memorysync_encoder_info`) and the release (`memorysync_build_info`).
    With `serve --workers N` the figures of every worker are added up, whichever answers.
    Needs an API key the server accepts, as the inspector's data does, unless the server runs
    with `--metrics open`; with `--metrics off` this route answers `404`. No figure names a
    tenant, a user or any text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> ErrorBody | str | None:
    """Metrics in the Prometheus text format

     The server's figures for a Prometheus scraper (local server only; not a route of hosted
    MemorySync): requests and their latency by route template, method and status
    (`memorysync_http_requests_total`, `memorysync_http_request_duration_seconds`), recalls
    and those that found nothing (`memorysync_recalls_total`,
    `memorysync_recalls_empty_total`), extraction failures, the write queue
    (`memorysync_write_queue_depth`), the entries of each in-memory cache, the search mode
    and encoder (`memorysync_encoder_info`) and the release (`memorysync_build_info`).
    With `serve --workers N` the figures of every worker are added up, whichever answers.
    Needs an API key the server accepts, as the inspector's data does, unless the server runs
    with `--metrics open`; with `--metrics off` this route answers `404`. No figure names a
    tenant, a user or any text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | str]:
    """Metrics in the Prometheus text format

     The server's figures for a Prometheus scraper (local server only; not a route of hosted
    MemorySync): requests and their latency by route template, method and status
    (`memorysync_http_requests_total`, `memorysync_http_request_duration_seconds`), recalls
    and those that found nothing (`memorysync_recalls_total`,
    `memorysync_recalls_empty_total`), extraction failures, the write queue
    (`memorysync_write_queue_depth`), the entries of each in-memory cache, the search mode
    and encoder (`memorysync_encoder_info`) and the release (`memorysync_build_info`).
    With `serve --workers N` the figures of every worker are added up, whichever answers.
    Needs an API key the server accepts, as the inspector's data does, unless the server runs
    with `--metrics open`; with `--metrics off` this route answers `404`. No figure names a
    tenant, a user or any text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> ErrorBody | str | None:
    """Metrics in the Prometheus text format

     The server's figures for a Prometheus scraper (local server only; not a route of hosted
    MemorySync): requests and their latency by route template, method and status
    (`memorysync_http_requests_total`, `memorysync_http_request_duration_seconds`), recalls
    and those that found nothing (`memorysync_recalls_total`,
    `memorysync_recalls_empty_total`), extraction failures, the write queue
    (`memorysync_write_queue_depth`), the entries of each in-memory cache, the search mode
    and encoder (`memorysync_encoder_info`) and the release (`memorysync_build_info`).
    With `serve --workers N` the figures of every worker are added up, whichever answers.
    Needs an API key the server accepts, as the inspector's data does, unless the server runs
    with `--metrics open`; with `--metrics off` this route answers `404`. No figure names a
    tenant, a user or any text.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
