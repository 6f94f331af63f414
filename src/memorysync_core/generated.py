"""The one module that knows how a generated operation is laid out inside.

openapi-python-client writes each operation as a module with two private helpers,
``_get_kwargs`` (our arguments -> the request) and ``_build_response`` (the answer -> the parsed
model), wrapped by its public ``sync_detailed`` / ``asyncio_detailed``. :mod:`.client` runs the
two steps itself, around its own HTTP exchange, so that a failure is blamed on the right party.
Those names are the generator's, not a published API: a generator upgrade that renames them
is mended here and nowhere else.

A generated operation's answer is typed as the union of every body openapi.yaml lists for it,
errors included (``RecallResponse | ErrorBody | TooManyRequestsBody | ...``). :func:`success`
narrows it to the 2xx model the caller expects, so code past it is checked against that model.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar, overload

import httpx
from memorysync_client import AuthenticatedClient
from memorysync_client.types import Response

from .errors import MemorySyncError

M1 = TypeVar("M1")
M2 = TypeVar("M2")
M3 = TypeVar("M3")


@dataclass(frozen=True)
class Operation:
    """A generated operation split into its request and its parse steps."""

    name: str  # "recall" for memorysync_client.api.memory.recall
    module: ModuleType

    def request(self, **kwargs: Any) -> dict[str, Any]:
        """The keyword arguments of ``httpx.Client.request`` for this call."""
        request: dict[str, Any] = self.module._get_kwargs(**kwargs)
        return request

    def parse(self, client: AuthenticatedClient, response: httpx.Response) -> Response[Any]:
        parsed: Response[Any] = self.module._build_response(client=client, response=response)
        return parsed


def operation(fn: Callable[..., Any]) -> Operation:
    """The operation a generated ``sync_detailed`` / ``asyncio_detailed`` function belongs to."""
    module_name = getattr(fn, "__module__", "") or ""
    module = sys.modules.get(module_name)
    if module is None or not hasattr(module, "_get_kwargs") or not hasattr(module, "_build_response"):
        raise TypeError(
            f"{fn!r} is not an operation of the generated memorysync_client "
            f"(e.g. memorysync_client.api.memory.recall.asyncio_detailed)"
        )
    return Operation(name=module_name.rsplit(".", 1)[-1], module=module)


@overload
def success(response: Response[Any], operation: str, expect: type[M1]) -> M1: ...
@overload
def success(
    response: Response[Any], operation: str, expect: tuple[type[M1], type[M2], type[M3]]
) -> M1 | M2 | M3: ...
@overload
def success(response: Response[Any], operation: str, expect: tuple[type[Any], ...]) -> Any: ...
def success(response: Response[Any], operation: str, expect: type[Any] | tuple[type[Any], ...]) -> Any:
    """The parsed 2xx body of ``response`` as ``expect`` (one model, or the models of an operation
    with several 2xx bodies); any other status raises :class:`MemorySyncError` with its detail."""
    if not 200 <= response.status_code < 300:
        raise MemorySyncError.from_http(response.status_code, response.content, operation)
    if isinstance(response.parsed, expect):
        return response.parsed
    # The generator parses a 2xx only into the spec's 2xx models, so this is a server (or a
    # base_url) that does not follow this openapi.yaml, not a passing failure.
    wanted = " | ".join(t.__name__ for t in (expect if isinstance(expect, tuple) else (expect,)))
    raise MemorySyncError.unparsable(
        response.status_code,
        response.content,
        operation,
        TypeError(f"parsed as {type(response.parsed).__name__}, expected {wanted}"),
    )
