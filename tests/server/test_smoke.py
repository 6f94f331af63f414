"""The fixtures every other test relies on: a live server, its env, a dead URL."""

from __future__ import annotations

import httpx
import pytest
from memorysync_client.api.org import list_projects

from memorysync_core import build_client, resolve_settings
from memorysync_server import LocalServer


def test_server_fixture_answers_with_its_key(server: LocalServer) -> None:
    response = httpx.get(f"{server.base_url}/org/projects", headers={"X-API-Key": server.api_key})
    assert response.status_code == 200
    assert response.json()[0]["tenant_id"] == server.tenant_id


def test_server_env_is_enough_for_a_client_to_reach_the_server(server_env: LocalServer) -> None:
    # Nothing passed explicitly: the settings come from the exported environment alone.
    client = build_client(resolve_settings())
    projects = list_projects.sync(client=client)
    assert [p.tenant_id for p in projects] == [server_env.tenant_id]


def test_dead_url_refuses_connections(dead_url: str) -> None:
    with pytest.raises(httpx.ConnectError):
        httpx.get(dead_url + "/org/projects", timeout=2)


def test_eval_key_is_tenant_default_and_forbidden_on_projects(server: LocalServer) -> None:
    response = httpx.get(f"{server.base_url}/org/projects", headers={"X-API-Key": server.eval_key})
    assert response.status_code == 403
    body = {"tenant_id": "default", "user_id": "u", "text": "I'm vegan"}
    added = httpx.post(
        f"{server.base_url}/v1/memory/add_turn", json=body, headers={"X-API-Key": server.eval_key}
    )
    assert added.status_code == 201, added.text
