"""Routes of the hosted service the local server does not offer (openapi.yaml x-not-offered): a clear
404 naming the route, over real HTTP, with or without a key, never a collision with a real route."""

from __future__ import annotations

import re

import httpx
import pytest

from memorysync_server import LocalServer
from memorysync_server.http.not_offered import NotOfferedRoutes
from memorysync_server.http.spec import load_spec

NOT_OFFERED = "is not offered by the local server"

# (method, path, a phrase the detail must carry: what to use instead, where there is something)
CALLS = [
    ("POST", "/memory/summarize", None),
    ("POST", "/memory/compose", "POST /v1/memory/recall"),
    ("POST", "/memory/12/relations", None),
    ("POST", "/memory/upload", "POST /memory/add"),
    ("GET", "/memory/ontology", "`types`"),
    ("PUT", "/memory/ontology", "`types`"),
    ("POST", "/memory/search/routed", "POST /memory/query"),
    ("POST", "/memory/synthesize", "POST /v1/memory/recall"),
    ("POST", "/memory/refresh", None),
    ("GET", "/memory/graph", None),
    ("GET", "/memory/clusters", None),
    ("GET", "/memory/decisions", None),
    ("POST", "/memory/decision/resolve", None),
    ("GET", "/memory/intelligence", None),
    ("GET", "/memory/knowledge/stats", "/list"),
    ("DELETE", "/memory/user/purge", "DELETE /memory/forget"),
    ("POST", "/imports", "POST /memory/bulk-add"),
    ("GET", "/imports", "POST /memory/bulk-add"),
    ("GET", "/imports/job_1", "POST /memory/bulk-add"),
    ("POST", "/imports/job_1/cancel", "POST /memory/bulk-add"),
    ("GET", "/api/v1/integrations", None),
    ("GET", "/api/v1/integrations/catalog", None),
    ("POST", "/api/v1/integrations/7/sync", None),
    ("GET", "/api/v2/integrations/connections", None),
    ("POST", "/evaluation/keys", "--api-key"),
    ("GET", "/org/billing/current-plan", None),
    ("GET", "/org/projects/proj_1/members", "GET /org/projects"),
    ("GET", "/org/api-keys", "--api-key"),
    ("GET", "/org/webhooks/event-types", None),
    ("POST", "/auth/login", "X-API-Key"),
    ("GET", "/organizations", None),
    ("POST", "/exports/abc12345", "GET /memory/export"),
]


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory):
    """One SQLite server for the module: these answers never touch storage."""
    server = LocalServer(tmp_path_factory.mktemp("not-offered") / "m.db")
    with server, httpx.Client(base_url=server.base_url, timeout=30) as client:
        yield server, client


@pytest.mark.parametrize("method,path,instead", CALLS, ids=[f"{m} {p}" for m, p, _ in CALLS])
def test_not_offered_routes_answer_a_clear_404(http, method: str, path: str, instead: str | None) -> None:
    server, client = http
    for headers in ({"X-API-Key": server.api_key, "X-End-User-ID": "u"}, {}):
        response = client.request(method, path, headers=headers, json={} if method != "GET" else None)
        assert response.status_code == 404, response.text
        detail = response.json()["detail"]
        assert detail.startswith(f"{method} {path} {NOT_OFFERED} (memorysync-server)"), detail
        if instead is not None:
            assert "instead" in detail and instead in detail, detail
        else:
            assert "instead" not in detail, detail
    if path in NOTES:
        assert detail.endswith(NOTES[path]), detail


NOTES = {
    "/memory/refresh": "Nothing needs it here: every memory is embedded when it is stored.",
    "/org/billing/current-plan": "The local server has no plans or usage to report.",
}


def test_in_scope_routes_are_not_swallowed(http) -> None:
    server, client = http
    key = {"X-API-Key": server.api_key}
    assert client.get("/org/projects", headers=key).status_code == 200
    unknown = client.get("/memory/nothing-like-this/at/all", headers=key)
    assert unknown.status_code == 404 and NOT_OFFERED not in unknown.json()["detail"]
    assert client.get("/v1/memory/status/1", headers={**key, "X-End-User-ID": "u"}).status_code == 404


def test_no_not_offered_entry_shadows_an_operation() -> None:
    spec = load_spec()
    routes = NotOfferedRoutes(spec.document)
    assert len(routes.routes) == len(spec.document["x-not-offered"]["routes"]) >= 20
    for op in spec.operations:
        sample = re.sub(r"{[^}]+}", "12", op.path)
        assert routes.find(sample) is None, (op.operation_id, sample)
    for in_scope in (
        "/memory/export",
        "/memory/12",
        "/memory/12/history",
        "/memory/12/feedback",
        "/org/projects",
    ):
        assert routes.find(in_scope) is None, in_scope
    for entry in routes.routes:
        sample = entry.route.replace("{id}", "12").removesuffix("/**")
        assert routes.find(sample) is entry, entry.route
        assert routes.find(sample + "/") is entry, entry.route


def test_a_path_nothing_serves_points_at_the_routes_this_server_lists(http) -> None:
    # pip users have no openapi.yaml to read: the answer names what the server itself serves.
    server, client = http
    for path in ("/memory/nothing-like-this", "/inspector/nothing"):
        detail = client.get(path, headers={"X-API-Key": server.api_key}).json()["detail"]
        assert "/docs" in detail and "/openapi.json" in detail and "openapi.yaml" not in detail, detail
    assert client.get("/openapi.json").status_code == 200
