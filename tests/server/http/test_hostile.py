"""Hostile input: size caps, ambiguous identity, malformed paths and bodies that aren't JSON.

Each case checks the answer (status and a detail that says how to fix it) and that nothing
was stored, or that what was stored before is untouched.
"""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import quote

import httpx
import pytest

from memorysync_server import LocalServer

from ..api import JSON, Api


def _loc(answer: httpx.Response) -> list[tuple]:
    return [tuple(item["loc"]) for item in answer.json()["detail"]]


# ---- size caps declared in openapi.yaml ------------------------------------------------------
def test_a_megabyte_of_metadata_is_refused_and_nothing_is_extracted(api: Api) -> None:
    sentences = " ".join(f"I like hobby number {i}." for i in range(40))
    huge = {"blob": "x" * 4000, **{f"k{i}": "y" * 3000 for i in range(40)}}
    answer = api.http.post(
        "/v1/memory/add_turn",
        json={"tenant_id": api.tenant, "user_id": "u", "text": sentences, "metadata": huge},
    )
    assert answer.status_code == 422
    assert ("body", "metadata") in _loc(answer)
    assert "limit is 16384 bytes" in answer.text
    assert api.facts("u")["total"] == 0


@pytest.mark.parametrize(
    ("metadata", "loc", "kind"),
    [
        ({f"k{i}": i for i in range(65)}, ("body", "metadata"), "too_long"),
        ({"k" * 129: 1}, ("body", "metadata"), "string_too_long"),
        ({"note": "n" * 4001}, ("body", "metadata", "note"), "string_too_long"),
    ],
)
def test_metadata_caps_name_the_field(api: Api, metadata: dict, loc: tuple, kind: str) -> None:
    answer = api.http.post(
        "/v1/memory/add_turn",
        json={"tenant_id": api.tenant, "user_id": "u", "text": "I'm vegan", "metadata": metadata},
    )
    assert answer.status_code == 422
    assert (loc, kind) in [(tuple(i["loc"]), i["type"]) for i in answer.json()["detail"]]


def test_metadata_at_its_caps_is_accepted_and_copied(api: Api) -> None:
    metadata = {f"k{i:02d}": "v" * 200 for i in range(64)}  # 64 keys, ~14 KB
    api.turn("u", "I'm vegan", metadata=metadata)
    (fact,) = api.facts("u")["memories"]
    assert fact["metadata"]["k63"] == "v" * 200


def test_an_oversized_state_value_is_refused_and_the_old_value_kept(api: Api) -> None:
    api.put("u", "k", {"memory": "User is vegan"})
    answer = api.http.post(
        "/v1/state/put",
        json={
            "tenant_id": api.tenant,
            "user_id": "u",
            "namespace": ["agno"],
            "key": "k",
            "value": {"big": "x" * 300_000},
        },
    )
    assert answer.status_code == 422 and ("body", "value") in _loc(answer)
    item = api.v1("/v1/state/get", "u", namespace=["agno"], key="k")["item"]
    assert item["value"] == {"memory": "User is vegan"}


def test_an_oversized_history_payload_is_refused(api: Api) -> None:
    turn = {"role": "user", "content": "hello there", "payload": {"blob": "p" * 20_000}}
    answer = api.http.post(
        "/v1/history/append",
        json={"tenant_id": api.tenant, "user_id": "u", "session_id": "s", "turns": [turn]},
    )
    assert answer.status_code == 422 and ("body", "turns", 0, "payload") in _loc(answer)
    assert api.v1("/v1/history/list", "u", session_id="s")["total"] == 0


def test_the_largest_history_append_the_contract_allows_fits_the_default_body_cap(api: Api) -> None:
    # 100 turns of 16,000 non-ASCII characters, sent by a client that escapes every one (\uXXXX).
    turns = [{"role": "assistant", "content": "é" * 16_000, "seq": i} for i in range(100)]
    raw = json.dumps(
        {"tenant_id": api.tenant, "user_id": "u", "session_id": "s", "turns": turns, "extract": False},
        ensure_ascii=True,
    ).encode()
    assert len(raw) > 9_000_000
    answer = api.http.post("/v1/history/append", content=raw, headers=JSON)
    assert answer.status_code == 200, answer.text[:300]
    assert api.v1("/v1/history/list", "u", session_id="s")["total"] == 100


# ---- the body cap: 413 before the body is read ----------------------------------------------
def _length(answer: bytes) -> int:
    for line in answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def test_a_declared_oversize_body_is_refused_before_it_is_sent(server: LocalServer) -> None:
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(
            (
                "POST /v1/history/append HTTP/1.1\r\nHost: x\r\n"
                f"X-API-Key: {server.api_key}\r\nContent-Type: application/json\r\n"
                "Content-Length: 100000000\r\n\r\n"
            ).encode()
        )
        # No body byte is sent: the answer can only come from the declared length.
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < _length(answer):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    head = answer.decode("latin-1")
    assert head.startswith("HTTP/1.1 413"), head
    assert "at most 16777216 bytes" in head and "--max-body-bytes" in head
    assert time.monotonic() - started < 5


def test_a_streamed_body_is_cut_off_at_the_cap(tmp_path) -> None:
    with LocalServer(tmp_path / "m.db", max_body_bytes=4096) as srv:

        def chunks():
            yield b'{"tenant_id": "' + srv.tenant_id.encode() + b'", "user_id": "u", "text": "'
            for _ in range(64):
                yield b"a" * 1024
            yield b'"}'

        with httpx.Client(base_url=srv.base_url, headers={"X-API-Key": srv.api_key}) as http:
            answer = http.post("/v1/memory/add_turn", content=chunks(), headers=JSON)
            assert answer.status_code == 413 and "at most 4096 bytes" in answer.json()["detail"]
            small = http.post(
                "/v1/memory/add_turn", json={"tenant_id": srv.tenant_id, "user_id": "u", "text": "I'm vegan"}
            )
            assert small.status_code == 201


def test_a_non_positive_body_cap_is_refused_at_start(tmp_path) -> None:
    with pytest.raises(ValueError, match="max_body_bytes must be a positive"):
        LocalServer(tmp_path / "m.db", max_body_bytes=0).start()


# ---- unambiguous identity -------------------------------------------------------------------
def test_two_different_api_keys_are_a_400(server: LocalServer, api: Api) -> None:
    other = "ms_test_other"
    server.add_key(other, server.tenant_id)
    headers = [("X-API-Key", server.api_key), ("X-API-Key", other)]
    with httpx.Client(base_url=server.base_url) as http:
        answer = http.get("/org/projects", headers=headers)
        assert answer.status_code == 400 and "X-API-Key more than once" in answer.json()["detail"]
        same = http.get(
            "/org/projects", headers=[("X-API-Key", server.api_key), ("X-API-Key", server.api_key)]
        )
        assert same.status_code == 200


def test_two_different_end_users_are_a_400_and_neither_gets_the_write(api: Api) -> None:
    answer = api.http.post(
        "/memory/add",
        json={"text": "I'm allergic to peanuts"},
        headers=[("X-End-User-ID", "alice"), ("X-End-User-ID", "bob")],
    )
    assert answer.status_code == 400 and "X-End-User-ID" in answer.json()["detail"]
    assert api.facts("alice")["total"] == 0 and api.facts("bob")["total"] == 0


def test_two_different_project_ids_are_a_400(server: LocalServer, api: Api) -> None:
    project = api.http.get("/org/projects").json()[0]["id"]
    answer = api.http.get(
        "/org/projects", headers=[("X-Project-ID", project), ("X-Project-ID", "proj_other")]
    )
    assert answer.status_code == 400 and "X-Project-ID" in answer.json()["detail"]


# ---- path segments and query strings are decoded strictly -----------------------------------
def test_invalid_utf8_in_a_path_segment_never_aliases_a_user(api: Api) -> None:
    api.turn("\ufffd", "I'm vegan")  # a user literally named U+FFFD
    tenant = quote(api.tenant, safe="")
    answer = api.http.get(f"/v1/memory/{tenant}/%C3/list")
    assert answer.status_code == 400 and "not UTF-8" in answer.json()["detail"]
    assert api.http.get(f"/v1/memory/{tenant}/%EF%BF%BD/list").json()["total"] == 1


@pytest.mark.parametrize("segment", ["%G1", "abc%", "%4"])
def test_malformed_percent_encoding_is_a_400(api: Api, segment: str) -> None:
    answer = api.http.get(f"/v1/memory/{quote(api.tenant, safe='')}/{segment}/list")
    assert answer.status_code == 400 and "malformed percent-encoding" in answer.json()["detail"]


def test_a_percent_encoded_utf8_user_reads_back(api: Api) -> None:
    api.turn("zoë", "I'm vegan")
    assert api.http.get(f"/v1/memory/{quote(api.tenant, safe='')}/zo%C3%AB/list").json()["total"] == 1


def test_a_query_string_that_is_not_utf8_is_a_400(api: Api) -> None:
    answer = api.http.get(f"/v1/memory/{quote(api.tenant, safe='')}/u/list?limit=%FF")
    assert answer.status_code == 400 and "query string" in answer.json()["detail"]


def test_an_end_user_header_that_is_not_utf8_never_aliases_a_user(api: Api) -> None:
    api.post("/memory/add", {"text": "User likes green tea"}, headers={"X-End-User-ID": "åsa".encode()})
    for method, path, body in [
        ("GET", "/memory/export", None),
        ("DELETE", "/memory/forget", {"memory_ids": [1]}),
    ]:
        answer = api.http.request(method, path, json=body, headers={"X-End-User-ID": b"\xe5sa"})
        assert answer.status_code == 400, answer.text
        assert "X-End-User-ID is not UTF-8" in answer.json()["detail"]
    export = api.http.get("/memory/export", headers={"X-End-User-ID": "åsa".encode()}).json()
    assert [m["text"] for m in export["memories"]] == ["User likes green tea"]


@pytest.mark.parametrize(
    ("method", "path", "body", "loc"),
    [
        ("DELETE", "/memory/forget", {"memory_ids": ["m_1\n"]}, ["body", "memory_ids", 0]),
        ("GET", "/v1/memory/status/m_1%0A", None, ["path", "memory_id"]),
        ("POST", "/memory/add", {"text": "User likes maps", "tags": ["travel\n"]}, ["body", "tags", 0]),
        ("POST", "/memory/add", {"text": "User likes maps", "event_type": "fact\n"}, ["body", "event_type"]),
    ],
)
def test_a_trailing_newline_never_passes_a_pattern(
    api: Api, method: str, path: str, body: dict | None, loc: list
) -> None:
    # ECMA-262's `$` is the end of the text; Python's would also accept a final newline.
    [first] = [api.add("u", "User likes old maps")["id"]]
    answer = api.http.request(method, path, json=body, headers={"X-End-User-ID": "u"})
    assert answer.status_code == 422, answer.text
    assert [item["loc"] for item in answer.json()["detail"]] == [loc]
    export = api.http.get("/memory/export", headers={"X-End-User-ID": "u"}).json()["memories"]
    assert [(m["id"], m["tags"], m["event_type"]) for m in export] == [(first, [], "fact")]


@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_the_inspector_decodes_its_query_as_strictly_as_the_api(api: Api, method: str) -> None:
    api.turn("\ufffd", "I'm vegan")  # a user literally named U+FFFD, which %C3 must not reach
    answer = api.http.request(method, "/inspector/api/user?user_id=%C3")
    assert answer.status_code == 400 and "not percent-encoded UTF-8" in answer.json()["detail"]
    assert api.http.get("/inspector/api/user", params={"user_id": "\ufffd"}).json()["memories"] == 1


# ---- bodies must be declared JSON -----------------------------------------------------------
@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "application/xml",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
    ],
)
def test_a_body_that_is_not_declared_json_is_a_415(api: Api, content_type: str | None) -> None:
    body = f'{{"tenant_id": "{api.tenant}", "user_id": "u", "text": "I am vegan"}}'.encode()
    headers = {"Content-Type": content_type} if content_type else {}
    answer = api.http.post("/v1/memory/add_turn", content=body, headers=headers)
    assert answer.status_code == 415
    assert "Content-Type: application/json" in answer.json()["detail"]
    assert api.facts("u")["total"] == 0


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.memorysync+json"]
)
def test_json_media_types_are_accepted(api: Api, content_type: str) -> None:
    body = f'{{"tenant_id": "{api.tenant}", "user_id": "u", "text": "I am vegan"}}'.encode()
    answer = api.http.post("/v1/memory/add_turn", content=body, headers={"Content-Type": content_type})
    assert answer.status_code == 201
