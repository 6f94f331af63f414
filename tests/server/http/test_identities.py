"""Every identity has one meaning on every route.

An id that begins or ends with whitespace or holds a control character is refused with 400 on
every operation that takes one, wherever it sits (body, nested item, path, header), read off
openapi.yaml's ``x-identity`` marks, so a route added later is covered too. HTTP drops the
whitespace around a header value before any application sees it (RFC 9110, 5.5), so over a real
socket ``X-End-User-ID: alice `` is alice, and no route can store a user ``"alice "`` beside her.
A JSON object with a key given twice is refused on every route with a body, and the inspector
answers two different ``X-API-Key`` headers as the API does.
"""

from __future__ import annotations

import asyncio
import copy
import json
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, unquote

import httpx
import pytest

from memorysync_server import LocalServer
from memorysync_server.http.spec import identity_pattern, load_spec

from ..api import JSON, Api

SPEC = load_spec()
DOC = SPEC.document
BAD_IDS = ["alice ", " alice", "alice\t", "\u00a0alice", "alice\u2028", "al\x00ice", "al\x1bice", "al\x85ice"]
USER = "customer-42"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with LocalServer(tmp_path_factory.mktemp("identities") / "ids.db", search="lexical") as running:
        yield running


def _resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = DOC
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def _identity_paths(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Where a request body's schema holds an identity (``x-identity``); ``0`` stands for a list item."""
    node = _resolve(node)
    if not isinstance(node, dict):
        return
    if node.get("x-identity"):
        yield path
    for name, sub in node.get("properties", {}).items():
        yield from _identity_paths(sub, (*path, name))
    if "items" in node:
        yield from _identity_paths(node["items"], (*path, 0))
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, ()):
            yield from _identity_paths(branch, path)


def _placed(body: Any, path: tuple[str | int, ...], value: str) -> Any | None:
    """``body`` with ``value`` at ``path`` (None when the example has no list item to put it in)."""
    out = copy.deepcopy(body)
    node = out
    for part in path[:-1]:
        if isinstance(part, int):
            if not isinstance(node, list) or not node:
                return None
            node = node[0]
        else:
            node = node.setdefault(part, {})
    node[path[-1]] = value
    return out


def _cases() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(operation, where, method, request kwargs) with one identity replaced by a marker."""
    for op in SPEC.operations:
        raw = DOC["paths"][op.path][op.method.lower()]
        params = {p["name"]: p for p in (_resolve(p) for p in raw.get("parameters", []))}
        path_values = {n: ({"tenant_id": "{tenant}", "memory_id": "1"}.get(n, USER)) for n in op.path_names}
        headers = {"X-End-User-ID": USER} if "X-End-User-ID" in params else {}
        body = None
        if op.body is not None:
            body = raw["requestBody"]["content"]["application/json"]["example"]
            body = {**body, "tenant_id": "{tenant}"} if "tenant_id" in body else body
        base = {"path": path_values, "headers": headers, "body": body}
        for name, param in params.items():
            if _resolve(param["schema"]).get("x-identity") and param["in"] == "header":
                yield (
                    op.operation_id,
                    f"header {name}",
                    op.method,
                    {**base, "headers": {**headers, name: "@"}},
                )
            if _resolve(param["schema"]).get("x-identity") and param["in"] == "path":
                yield op.operation_id, f"path {name}", op.method, {**base, "path": {**path_values, name: "@"}}
        if body is not None:
            for where in dict.fromkeys(
                _identity_paths(raw["requestBody"]["content"]["application/json"]["schema"])
            ):
                placed = _placed(body, where, "@")
                if placed is not None:
                    yield (
                        op.operation_id,
                        "body " + ".".join(map(str, where)),
                        op.method,
                        {**base, "body": placed},
                    )


CASES = list(_cases())


def _request(
    server: LocalServer, op_path: str, case: dict[str, Any], value: str
) -> tuple[str, dict[str, str], bytes | None]:
    """(path, headers, body) of ``case`` with ``value`` where its marker is."""

    def fill(text: str) -> str:
        return text.replace("{tenant}", server.tenant_id).replace("@", value)

    path = op_path
    for name, raw in case["path"].items():
        path = path.replace("{" + name + "}", quote(fill(raw), safe=""))
    headers = {k: fill(v) for k, v in case["headers"].items()}
    if case["body"] is None:
        return path, headers, None
    content = json.dumps(case["body"]).replace('"{tenant}"', json.dumps(server.tenant_id))
    return path, {**headers, **JSON}, content.replace('"@"', json.dumps(value)).encode()


def _through_the_app(app: Any, method: str, path: str, headers: dict[str, str], body: bytes | None) -> Any:
    """One request handed to the ASGI app as bytes (no HTTP parser in between), its answer decoded.
    Header values go as UTF-8, as the server reads them."""
    sent: list[dict[str, Any]] = []
    pending = [{"type": "http.request", "body": body or b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("ids", 80),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))


def test_the_cases_cover_every_operation_that_takes_an_identity() -> None:
    taking = {op for op, *_ in CASES}
    # Every operation with a key takes a project id; the v1 and legacy ones an end user too.
    assert taking == {
        op.operation_id for op in SPEC.operations if op.operation_id not in ("health", "ready", "metrics")
    }
    assert {where for _, where, *_ in CASES} >= {
        "body tenant_id", "body user_id", "body end_user_id", "body session_id", "body items.0.end_user_id",
        "header X-End-User-ID", "header X-Project-ID", "path tenant_id", "path user_id",
    }  # fmt: skip


@pytest.mark.parametrize("operation,where,method,case", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_an_identity_with_whitespace_at_an_end_or_a_control_character_is_a_400_on_every_route(
    server: LocalServer, api: Api, operation: str, where: str, method: str, case: dict[str, Any]
) -> None:
    op = SPEC.by_id(operation)
    # The same request with a clean id is not refused as ambiguous (the probe is the id alone).
    clean = {"tenant_id": server.tenant_id, "X-Project-ID": f"proj_{server.tenant_id}"}
    name = where.split(" ", 1)[1].split(".")[-1]
    path, headers, body = _request(server, op.path, case, clean.get(name, "ok-id"))
    assert api.http.request(method, path, headers=headers, content=body).status_code != 400
    # ASGI applications receive header bytes as sent: through the app itself the header cases
    # include surrounding whitespace, which a real socket's HTTP parser would already have dropped.
    for bad in BAD_IDS:
        if where.startswith("header") and "\x00" in bad:
            continue  # NUL cannot be a header byte at all
        path, headers, body = _request(server, op.path, case, bad)
        status, answer = _through_the_app(
            server.app, method, path, {**headers, "X-API-Key": server.api_key}, body
        )
        assert status == 400, (operation, where, repr(bad), answer)
        assert f"{name}' must not begin or end with whitespace" in answer["detail"], answer
    # Nothing was stored under any of them.
    users = api.http.get("/inspector/api/users").json()["users"]
    pattern = identity_pattern(DOC)
    assert [u["user_id"] for u in users if not pattern.search(u["user_id"])] == []


def _raw(server: LocalServer, request: bytes) -> tuple[int, bytes]:
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_over_a_socket_the_header_and_the_body_agree_on_who_alice_with_a_space_is(
    server: LocalServer,
) -> None:
    """HTTP's parser drops a header value's surrounding whitespace, so ``alice `` in the header is
    alice; the same id in a body is refused rather than stored as another user."""
    key = server.api_key.encode()
    body = json.dumps({"text": "I collect antique maps", "client_ref": "maps-1"}).encode()
    status, answer = _raw(
        server,
        b"POST /memory/add HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: " + key
        + b"\r\nX-End-User-ID: alice-ws \t\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode() + b"\r\n\r\n" + body,
    )  # fmt: skip
    assert status == 200, answer
    api = Api(server)
    try:
        assert api.texts("alice-ws") == ["User collects antique maps"]
        refused = api.post(
            "/memory/add", {"text": "I collect stamps", "end_user_id": "alice-ws "}, expect=400
        )
        assert "'end_user_id' must not begin or end with whitespace" in refused["detail"]
        assert api.v1("/v1/memory/add_turn", "alice-ws ", expect=400, text="I collect stamps")
        assert api.texts("alice-ws") == ["User collects antique maps"]
    finally:
        api.close()


def test_a_tab_inside_a_header_id_is_refused_over_a_socket(server: LocalServer) -> None:
    status, answer = _raw(
        server,
        b"GET /memory/export HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: "
        + server.api_key.encode()
        + b"\r\nX-End-User-ID: al\tice\r\n\r\n",
    )
    assert status == 400 and b"X-End-User-ID" in answer, answer


# ---- duplicate JSON keys ------------------------------------------------------------------------
BODIES = [op for op in SPEC.operations if op.body is not None]


@pytest.mark.parametrize("op", BODIES, ids=[op.operation_id for op in BODIES])
def test_a_json_key_given_twice_is_a_400_on_every_route_with_a_body(
    server: LocalServer, api: Api, op: Any
) -> None:
    example = DOC["paths"][op.path][op.method.lower()]["requestBody"]["content"]["application/json"][
        "example"
    ]
    path = op.path.replace("{memory_id}", "1")
    headers = {**JSON, "X-End-User-ID": USER}
    first, *rest = [json.dumps(k) + ": " + json.dumps(v) for k, v in example.items()]
    # The top level, and inside a free-form object: both are ambiguous.
    for twice in (
        "{" + ", ".join([first, first, *rest]) + "}",
        "{" + ", ".join([first, *rest, '"metadata": {"a": 1, "a": 2}']) + "}",
    ):
        answer = api.http.request(op.method, path, content=twice, headers=headers)
        assert answer.status_code == 400, (op.operation_id, twice, answer.text)
        assert "more than once in one object" in answer.json()["detail"]


def test_a_duplicate_user_id_does_not_act_for_either_user(server: LocalServer, api: Api) -> None:
    body = '{"tenant_id": "TENANT", "user_id": "bob", "user_id": "alice-dup", "text": "I am vegan"}'
    body = body.replace("TENANT", server.tenant_id)
    answer = api.http.post("/v1/memory/add_turn", content=body, headers=JSON)
    assert answer.status_code == 400 and "'user_id' more than once" in answer.json()["detail"]
    assert api.facts("bob")["total"] == 0 and api.facts("alice-dup")["total"] == 0


def test_a_query_parameter_given_twice_with_different_values_is_a_400(server: LocalServer, api: Api) -> None:
    path = f"/v1/memory/{server.tenant_id}/{USER}/list"
    assert api.http.get(path + "?limit=5&limit=5").status_code == 200
    answer = api.http.get(path + "?limit=5&limit=50")
    assert answer.status_code == 400 and "'limit' more than once" in answer.json()["detail"]
    answer = api.http.get("/inspector/api/user?user_id=a&user_id=b")
    assert answer.status_code == 400 and "'user_id' more than once" in answer.json()["detail"]


# ---- the inspector --------------------------------------------------------------------------------
def test_the_inspector_answers_two_different_keys_as_the_api_does(server: LocalServer) -> None:
    other = server.add_key("ms_test_other_inspector", "t_other")
    for path in ("/org/projects", "/inspector/api/users", f"/inspector/api/user?user_id={USER}"):
        headers = [("X-API-Key", server.api_key), ("X-API-Key", other)]
        answer = httpx.get(server.base_url + path, headers=headers)
        assert answer.status_code == 400, (path, answer.text)
        assert "X-API-Key more than once" in answer.json()["detail"]
        same = httpx.get(server.base_url + path, headers=[("X-API-Key", other), ("X-API-Key", other)])
        assert same.status_code == 200, (path, same.text)


@pytest.mark.parametrize("bad", ["alice ", " alice", "al\x01ice"])
def test_the_inspector_refuses_an_ambiguous_user_id_as_the_api_does(api: Api, bad: str) -> None:
    for method in ("GET", "DELETE"):
        answer = api.http.request(method, "/inspector/api/user", params={"user_id": bad})
        assert answer.status_code == 400, answer.text
        assert "'user_id' must not begin or end with whitespace" in answer.json()["detail"]
