from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.project import Project
from ...models.too_many_requests_body import TooManyRequestsBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_project_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/org/projects",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | TooManyRequestsBody | list[Project] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = Project.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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

    if response.status_code == 429:
        response_429 = TooManyRequestsBody.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | TooManyRequestsBody | list[Project]]:
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
) -> Response[ErrorBody | TooManyRequestsBody | list[Project]]:
    """List the projects visible to this key

     Lists the projects of the key's organisation. Clients take the first project's
    `tenant_id` and cache it. Evaluation keys lack the `projects:read` scope and get
    `401`/`403` here; for them the tenant is the fixed namespace `default`.

    Args:
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TooManyRequestsBody | list[Project]]
    """

    kwargs = _get_kwargs(
        x_project_id=x_project_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | TooManyRequestsBody | list[Project] | None:
    """List the projects visible to this key

     Lists the projects of the key's organisation. Clients take the first project's
    `tenant_id` and cache it. Evaluation keys lack the `projects:read` scope and get
    `401`/`403` here; for them the tenant is the fixed namespace `default`.

    Args:
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TooManyRequestsBody | list[Project]
    """

    return sync_detailed(
        client=client,
        x_project_id=x_project_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
) -> Response[ErrorBody | TooManyRequestsBody | list[Project]]:
    """List the projects visible to this key

     Lists the projects of the key's organisation. Clients take the first project's
    `tenant_id` and cache it. Evaluation keys lack the `projects:read` scope and get
    `401`/`403` here; for them the tenant is the fixed namespace `default`.

    Args:
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TooManyRequestsBody | list[Project]]
    """

    kwargs = _get_kwargs(
        x_project_id=x_project_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_project_id: str | Unset = UNSET,
) -> ErrorBody | TooManyRequestsBody | list[Project] | None:
    """List the projects visible to this key

     Lists the projects of the key's organisation. Clients take the first project's
    `tenant_id` and cache it. Evaluation keys lack the `projects:read` scope and get
    `401`/`403` here; for them the tenant is the fixed namespace `default`.

    Args:
        x_project_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TooManyRequestsBody | list[Project]
    """

    return (
        await asyncio_detailed(
            client=client,
            x_project_id=x_project_id,
        )
    ).parsed
