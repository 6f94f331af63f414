"""The one module that knows how a generated operation is laid out inside.

openapi-python-client writes each operation as a module with two private helpers,
``_get_kwargs`` (our arguments -> the request) and ``_build_response`` (the answer -> the parsed
model), wrapped by its public ``sync_detailed`` / ``asyncio_detailed``. :mod:`.client` runs the
two steps itself, around its own HTTP exchange, so that a failure is blamed on the right party.
Those names are the generator's, not a published API: a generator upgrade that renames them
is mended here and nowhere else.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import httpx
from memorysync_client import AuthenticatedClient
from memorysync_client.types import Response


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
