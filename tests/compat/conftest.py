"""Fixtures of the compat suite: the official SDK's two clients against a real local server.

Every test taking ``sdk`` runs twice, once through ``MemorySyncClient`` and once through
``AsyncMemorySyncClient``, with the same body. After each test, every field the server answered it
had ignored (``X-MemorySync-Ignored-Fields``) must be one the SDK sends that the local server
deliberately has no use for, listed in ``TOLERATED_IGNORED``: anything else means a field the SDK
relies on is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memorysync_server.launcher import LocalServer
from tests.compat.driver import Sdk, SdkFactory

# Fields the SDK sends that the local server accepts and ignores on purpose, by route.
TOLERATED_IGNORED: dict[str, set[str]] = {}


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """One server for a whole module, for tests that look only at requests and refusals (a module
    overrides ``server`` with it); tests that read back what they stored use a server each."""
    srv = LocalServer(tmp_path_factory.mktemp("compat") / "memorysync.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(params=["sync", "async"])
def sdk_factory(request: pytest.FixtureRequest, server: LocalServer) -> Iterator[SdkFactory]:
    factory = SdkFactory(server.base_url, server.api_key, server.tenant_id, request.param)
    try:
        yield factory
    finally:
        factory.close()
    unexpected = [
        f"{method} {path}: {name}"
        for method, path, name in factory.ignored()
        if name.split("[")[0].split(".")[0] not in TOLERATED_IGNORED.get(path, set())
    ]
    assert not unexpected, f"the server ignored fields the SDK sent: {unexpected}"


@pytest.fixture
def sdk(sdk_factory: SdkFactory) -> Sdk:
    """The SDK acting for end user ``alice`` (sync and async, one run each)."""
    return sdk_factory.client("alice")
