from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.add_memory_accepted import AddMemoryAccepted
from ...models.add_memory_request import AddMemoryRequest
from ...models.add_memory_skipped import AddMemorySkipped
from ...models.error_body import ErrorBody
from ...models.memory import Memory
from ...models.too_many_requests_body import TooManyRequestsBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AddMemoryRequest,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_project_id, Unset):
        headers["X-Project-ID"] = x_project_id

    if not isinstance(x_end_user_id, Unset):
        headers["X-End-User-ID"] = x_end_user_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/memory/add",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
    | None
):
    if response.status_code == 200:

        def _parse_response_200(
            data: object,
        ) -> AddMemoryAccepted | AddMemorySkipped | Memory:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_add_memory_response_type_0 = Memory.from_dict(data)

                return componentsschemas_add_memory_response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_add_memory_response_type_1 = (
                    AddMemorySkipped.from_dict(data)
                )

                return componentsschemas_add_memory_response_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_add_memory_response_type_2 = AddMemoryAccepted.from_dict(
                data
            )

            return componentsschemas_add_memory_response_type_2

        response_200 = _parse_response_200(response.json())

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
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
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
    body: AddMemoryRequest,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str | Unset = UNSET,
) -> Response[
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
]:
    r"""Store one fact through the extraction path

     Legacy route. The end user is the `X-End-User-ID` header, else the body's `end_user_id`
    (the header wins when both are given; neither answers `400`). The text goes through
    extraction; a text with nothing durable in it answers
    `{\"status\": \"skipped\", \"reason\": \"no_high_value_content\"}`. A resent `client_ref`
    answers `already_ingested` with the ids the first write made.

    A fact's text is stored once per end user: sending a text the user already holds answers
    that stored memory. With `deduplicate` (the default) a restatement of a stored fact also
    answers the memory it restates instead of storing a second one: the same content words
    (stop words, word order and endings aside: \"I play cello\" restates \"I play the cello\")
    and vectors at least 0.8 alike by cosine. A different number or name is a different
    fact. `deduplicate: false` turns that check off.

    `tags`, `importance` and `event_type` are stored on the memory (`event_type` defaults to
    `fact`). The stored answer is the `Memory` object. Over the plan's limit (silent mode)
    nothing is stored and the answer is a bare `{\"status\": \"ok\"}` (no `id`), as the hosted
    service answers: clients read it as \"accepted, nothing to report\".

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str | Unset):
        body (AddMemoryRequest): One fact to store for the end user (`X-End-User-ID`, else
            `end_user_id`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddMemoryAccepted | AddMemorySkipped | Memory | ErrorBody | TooManyRequestsBody | ValidationErrorBody]
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
    body: AddMemoryRequest,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str | Unset = UNSET,
) -> (
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
    | None
):
    r"""Store one fact through the extraction path

     Legacy route. The end user is the `X-End-User-ID` header, else the body's `end_user_id`
    (the header wins when both are given; neither answers `400`). The text goes through
    extraction; a text with nothing durable in it answers
    `{\"status\": \"skipped\", \"reason\": \"no_high_value_content\"}`. A resent `client_ref`
    answers `already_ingested` with the ids the first write made.

    A fact's text is stored once per end user: sending a text the user already holds answers
    that stored memory. With `deduplicate` (the default) a restatement of a stored fact also
    answers the memory it restates instead of storing a second one: the same content words
    (stop words, word order and endings aside: \"I play cello\" restates \"I play the cello\")
    and vectors at least 0.8 alike by cosine. A different number or name is a different
    fact. `deduplicate: false` turns that check off.

    `tags`, `importance` and `event_type` are stored on the memory (`event_type` defaults to
    `fact`). The stored answer is the `Memory` object. Over the plan's limit (silent mode)
    nothing is stored and the answer is a bare `{\"status\": \"ok\"}` (no `id`), as the hosted
    service answers: clients read it as \"accepted, nothing to report\".

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str | Unset):
        body (AddMemoryRequest): One fact to store for the end user (`X-End-User-ID`, else
            `end_user_id`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddMemoryAccepted | AddMemorySkipped | Memory | ErrorBody | TooManyRequestsBody | ValidationErrorBody
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
    body: AddMemoryRequest,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str | Unset = UNSET,
) -> Response[
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
]:
    r"""Store one fact through the extraction path

     Legacy route. The end user is the `X-End-User-ID` header, else the body's `end_user_id`
    (the header wins when both are given; neither answers `400`). The text goes through
    extraction; a text with nothing durable in it answers
    `{\"status\": \"skipped\", \"reason\": \"no_high_value_content\"}`. A resent `client_ref`
    answers `already_ingested` with the ids the first write made.

    A fact's text is stored once per end user: sending a text the user already holds answers
    that stored memory. With `deduplicate` (the default) a restatement of a stored fact also
    answers the memory it restates instead of storing a second one: the same content words
    (stop words, word order and endings aside: \"I play cello\" restates \"I play the cello\")
    and vectors at least 0.8 alike by cosine. A different number or name is a different
    fact. `deduplicate: false` turns that check off.

    `tags`, `importance` and `event_type` are stored on the memory (`event_type` defaults to
    `fact`). The stored answer is the `Memory` object. Over the plan's limit (silent mode)
    nothing is stored and the answer is a bare `{\"status\": \"ok\"}` (no `id`), as the hosted
    service answers: clients read it as \"accepted, nothing to report\".

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str | Unset):
        body (AddMemoryRequest): One fact to store for the end user (`X-End-User-ID`, else
            `end_user_id`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddMemoryAccepted | AddMemorySkipped | Memory | ErrorBody | TooManyRequestsBody | ValidationErrorBody]
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
    body: AddMemoryRequest,
    x_project_id: str | Unset = UNSET,
    x_end_user_id: str | Unset = UNSET,
) -> (
    AddMemoryAccepted
    | AddMemorySkipped
    | Memory
    | ErrorBody
    | TooManyRequestsBody
    | ValidationErrorBody
    | None
):
    r"""Store one fact through the extraction path

     Legacy route. The end user is the `X-End-User-ID` header, else the body's `end_user_id`
    (the header wins when both are given; neither answers `400`). The text goes through
    extraction; a text with nothing durable in it answers
    `{\"status\": \"skipped\", \"reason\": \"no_high_value_content\"}`. A resent `client_ref`
    answers `already_ingested` with the ids the first write made.

    A fact's text is stored once per end user: sending a text the user already holds answers
    that stored memory. With `deduplicate` (the default) a restatement of a stored fact also
    answers the memory it restates instead of storing a second one: the same content words
    (stop words, word order and endings aside: \"I play cello\" restates \"I play the cello\")
    and vectors at least 0.8 alike by cosine. A different number or name is a different
    fact. `deduplicate: false` turns that check off.

    `tags`, `importance` and `event_type` are stored on the memory (`event_type` defaults to
    `fact`). The stored answer is the `Memory` object. Over the plan's limit (silent mode)
    nothing is stored and the answer is a bare `{\"status\": \"ok\"}` (no `id`), as the hosted
    service answers: clients read it as \"accepted, nothing to report\".

    Args:
        x_project_id (str | Unset):
        x_end_user_id (str | Unset):
        body (AddMemoryRequest): One fact to store for the end user (`X-End-User-ID`, else
            `end_user_id`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddMemoryAccepted | AddMemorySkipped | Memory | ErrorBody | TooManyRequestsBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_project_id=x_project_id,
            x_end_user_id=x_end_user_id,
        )
    ).parsed
