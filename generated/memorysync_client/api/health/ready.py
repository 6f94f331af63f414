from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.readiness import Readiness
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/ready",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Readiness | None:
    if response.status_code == 200:
        response_200 = Readiness.from_dict(response.json())

        return response_200

    if response.status_code == 503:
        response_503 = Readiness.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Readiness]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Readiness]:
    """Readiness

     `200` when every route can be served now: the database answers (within 2 s) and the
    search model, for the search modes that use one, is loaded. `503` otherwise (`starting`
    while the model loads in the first seconds after start; `unavailable` when the database
    does not answer or the model could not be loaded), with `detail` saying what is missing.
    Once the model is loaded, `encoder` says which of its graphs encodes and why.
    A load balancer sends traffic only to servers that answer `200` here. Needs no API key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Readiness]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Readiness | None:
    """Readiness

     `200` when every route can be served now: the database answers (within 2 s) and the
    search model, for the search modes that use one, is loaded. `503` otherwise (`starting`
    while the model loads in the first seconds after start; `unavailable` when the database
    does not answer or the model could not be loaded), with `detail` saying what is missing.
    Once the model is loaded, `encoder` says which of its graphs encodes and why.
    A load balancer sends traffic only to servers that answer `200` here. Needs no API key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Readiness
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Readiness]:
    """Readiness

     `200` when every route can be served now: the database answers (within 2 s) and the
    search model, for the search modes that use one, is loaded. `503` otherwise (`starting`
    while the model loads in the first seconds after start; `unavailable` when the database
    does not answer or the model could not be loaded), with `detail` saying what is missing.
    Once the model is loaded, `encoder` says which of its graphs encodes and why.
    A load balancer sends traffic only to servers that answer `200` here. Needs no API key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Readiness]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Readiness | None:
    """Readiness

     `200` when every route can be served now: the database answers (within 2 s) and the
    search model, for the search modes that use one, is loaded. `503` otherwise (`starting`
    while the model loads in the first seconds after start; `unavailable` when the database
    does not answer or the model could not be loaded), with `detail` saying what is missing.
    Once the model is loaded, `encoder` says which of its graphs encodes and why.
    A load balancer sends traffic only to servers that answer `200` here. Needs no API key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Readiness
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
