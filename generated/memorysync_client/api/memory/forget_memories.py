from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.forget_by_filter import ForgetByFilter
from ...models.forget_by_ids import ForgetByIds
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ForgetByFilter | ForgetByIds,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    headers["X-End-User-ID"] = x_end_user_id

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/memory/forget",
    }

    if isinstance(body, ForgetByIds):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int] | None:
    if response.status_code == 200:
        response_200 = cast(list[int], response.json())

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
) -> Response[ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ForgetByFilter | ForgetByIds,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]]:
    r"""Delete facts by id or by filter

     Deletes facts of the end user named by `X-End-User-ID`, selected by exactly one of
    `memory_ids` (1 to 100; ints or `m_<n>`) or `filters` (every given criterion must hold:
    `source`, `event_type`, `tags` (all listed tags), `before`/`after` on `created_at`; a
    filter naming none of these is `422`: to clear everything use a wide criterion such as
    `{\"before\": \"<now>\"}`). `tier` is accepted and never narrows: the local server keeps one
    tier. The answer is a JSON array of the integer ids deleted (with `dry_run`, the ids
    that would be, and nothing is deleted). Ids that do not exist for this user are simply
    absent, so the call is idempotent. It never deletes another user's rows. Not metered.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (ForgetByFilter | ForgetByIds): Exactly one of `memory_ids` or `filters`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]]
    """

    kwargs = _get_kwargs(
        body=body,
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
    body: ForgetByFilter | ForgetByIds,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int] | None:
    r"""Delete facts by id or by filter

     Deletes facts of the end user named by `X-End-User-ID`, selected by exactly one of
    `memory_ids` (1 to 100; ints or `m_<n>`) or `filters` (every given criterion must hold:
    `source`, `event_type`, `tags` (all listed tags), `before`/`after` on `created_at`; a
    filter naming none of these is `422`: to clear everything use a wide criterion such as
    `{\"before\": \"<now>\"}`). `tier` is accepted and never narrows: the local server keeps one
    tier. The answer is a JSON array of the integer ids deleted (with `dry_run`, the ids
    that would be, and nothing is deleted). Ids that do not exist for this user are simply
    absent, so the call is idempotent. It never deletes another user's rows. Not metered.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (ForgetByFilter | ForgetByIds): Exactly one of `memory_ids` or `filters`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]
    """

    return sync_detailed(
        client=client,
        body=body,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ForgetByFilter | ForgetByIds,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> Response[ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]]:
    r"""Delete facts by id or by filter

     Deletes facts of the end user named by `X-End-User-ID`, selected by exactly one of
    `memory_ids` (1 to 100; ints or `m_<n>`) or `filters` (every given criterion must hold:
    `source`, `event_type`, `tags` (all listed tags), `before`/`after` on `created_at`; a
    filter naming none of these is `422`: to clear everything use a wide criterion such as
    `{\"before\": \"<now>\"}`). `tier` is accepted and never narrows: the local server keeps one
    tier. The answer is a JSON array of the integer ids deleted (with `dry_run`, the ids
    that would be, and nothing is deleted). Ids that do not exist for this user are simply
    absent, so the call is idempotent. It never deletes another user's rows. Not metered.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (ForgetByFilter | ForgetByIds): Exactly one of `memory_ids` or `filters`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]]
    """

    kwargs = _get_kwargs(
        body=body,
        x_project_id=x_project_id,
        x_end_user_id=x_end_user_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ForgetByFilter | ForgetByIds,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str,
) -> ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int] | None:
    r"""Delete facts by id or by filter

     Deletes facts of the end user named by `X-End-User-ID`, selected by exactly one of
    `memory_ids` (1 to 100; ints or `m_<n>`) or `filters` (every given criterion must hold:
    `source`, `event_type`, `tags` (all listed tags), `before`/`after` on `created_at`; a
    filter naming none of these is `422`: to clear everything use a wide criterion such as
    `{\"before\": \"<now>\"}`). `tier` is accepted and never narrows: the local server keeps one
    tier. The answer is a JSON array of the integer ids deleted (with `dry_run`, the ids
    that would be, and nothing is deleted). Ids that do not exist for this user are simply
    absent, so the call is idempotent. It never deletes another user's rows. Not metered.

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str):
        body (ForgetByFilter | ForgetByIds): Exactly one of `memory_ids` or `filters`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TooManyRequestsBody | ValidationErrorBody | list[int]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_project_id=x_project_id,
            x_end_user_id=x_end_user_id,
        )
    ).parsed
