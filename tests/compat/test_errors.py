"""What an SDK user reads when a request is wrong. The SDK raises ValidationError with only the first
``detail[].msg`` of a 422 (never its ``loc``), so the message itself must name the field and say
what is wrong with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import memorysync
import pytest

from memorysync_server.launcher import LocalServer
from tests.compat.driver import Sdk


@pytest.fixture(scope="module")
def server(module_server: LocalServer) -> LocalServer:
    return module_server


BAD_CALLS: dict[str, tuple[Callable[[Sdk], Any], str]] = {
    "blank text": (lambda s: s.add("   "), "text"),
    "importance above 1": (lambda s: s.add("I live in Leeds", importance=1.5), "importance"),
    "client_ref too long": (lambda s: s.add("I live in Leeds", client_ref="r" * 129), "client_ref"),
    "text too long": (lambda s: s.add("x" * 16_001), "text"),
    "k of 0": (lambda s: s.query("where", k=0), "k"),
    "a filter date that is no date": (lambda s: s.forget(filters={"before": "yesterday"}), "before"),
    "too many ids": (lambda s: s.forget(list(range(1, 102))), "memory_ids"),
    "importance below 0 on update": (lambda s: s.update(1, importance=-0.5), "importance"),
}


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_a_bad_request_tells_the_sdk_user_which_field_and_why(sdk: Sdk, name: str) -> None:
    call, field = BAD_CALLS[name]
    with pytest.raises(memorysync.ValidationError) as caught:
        call(sdk)
    assert caught.value.status_code == 422
    message = str(caught.value)
    assert field in message
    assert len(message) < 400, "the message should not echo a long value or the whole body"
