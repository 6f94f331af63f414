"""``GET /health`` and ``GET /ready``: keyless, in openapi.yaml, and honest about a model still
loading (the server answers before its model is ready; a search waits for it)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from memorysync_client import Client
from memorysync_client.api.health import health, ready

from memorysync_server import KeyRing, LocalServer, create_app
from memorysync_server.model.embedding import MiniLMEmbedder, minilm
from memorysync_server.model.loading import BackgroundEmbedder
from memorysync_server.version import version

from ..conftest import ENGINES, new_postgres_database


def test_health_and_ready_answer_without_a_key_through_the_generated_client(server: LocalServer) -> None:
    client = Client(base_url=server.base_url)
    alive = health.sync(client=client)
    assert alive is not None and alive.status == "ok" and alive.version == version()
    server.app.services.search.embedder.settled(60)  # the first server of a process loads the model
    answer = ready.sync_detailed(client=client)
    assert answer.status_code == 200, answer.content
    body = answer.parsed.to_dict()
    encoder = body.pop("encoder")
    assert body == {"status": "ready", "database": "ok", "model": "loaded"}
    assert encoder["graph"] in ("int8-compute", "published") and encoder["summary"].startswith(
        encoder["graph"]
    )


def test_a_lexical_server_is_ready_without_a_model(tmp_path: Path) -> None:
    with LocalServer(tmp_path / "ms.db", search="lexical") as server:
        answer = httpx.get(f"{server.base_url}/ready")
    assert answer.status_code == 200 and answer.json()["model"] == "not used"
    assert "encoder" not in answer.json()


def test_other_methods_on_health_routes_are_405(server: LocalServer) -> None:
    answer = httpx.post(f"{server.base_url}/health")
    assert answer.status_code == 405 and answer.headers["allow"] == "GET"


def test_the_server_answers_while_its_model_loads_and_a_search_waits_for_it(tmp_path: Path) -> None:
    release = threading.Event()

    def slow_load() -> MiniLMEmbedder:
        assert release.wait(30)
        return minilm()

    embedder = BackgroundEmbedder(slow_load, dim=MiniLMEmbedder.dim, name="slow")
    with LocalServer(tmp_path / "ms.db", embedder=embedder) as server, ThreadPoolExecutor(1) as pool:
        headers = {"X-API-Key": server.api_key}
        starting = httpx.get(f"{server.base_url}/ready")
        assert starting.status_code == 503
        assert starting.json() == {
            "status": "starting",
            "database": "ok",
            "model": "loading",
            "detail": "the search model is still loading.",
        }
        # Routes that need no model answer now.
        assert httpx.get(f"{server.base_url}/org/projects", headers=headers).status_code == 200
        body = {"tenant_id": server.tenant_id, "user_id": "ana", "prompt": "What do I eat?"}
        recall = pool.submit(
            httpx.post, f"{server.base_url}/v1/memory/recall", json=body, headers=headers, timeout=60
        )
        assert not recall.done() and httpx.get(f"{server.base_url}/health").status_code == 200
        release.set()
        assert recall.result().status_code == 200
        assert httpx.get(f"{server.base_url}/ready").status_code == 200


def test_a_deferred_model_starts_loading_at_the_first_request(tmp_path: Path) -> None:
    # serve --workers N builds its apps this way: no model load beside the other starting workers.
    loads: list[str] = []

    def counted() -> MiniLMEmbedder:
        loads.append("load")
        return minilm()

    embedder = BackgroundEmbedder(counted, dim=MiniLMEmbedder.dim, name="deferred", start=False)
    app = create_app(tmp_path / "ms.db", keys=KeyRing(), embedder=embedder, defer_model=True)
    try:
        assert not embedder.started and loads == [] and embedder.state == "loading"

        async def first_request() -> httpx.Response:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://ms"
            ) as http:
                return await http.get("/health")

        assert asyncio.run(first_request()).status_code == 200
        assert embedder.started  # by the request, not by a search or settled() below
        assert embedder.settled(60) and embedder.state == "loaded" and loads == ["load"]
    finally:
        app.services.close()


def test_a_model_that_cannot_load_makes_the_server_unready_and_says_why(tmp_path: Path) -> None:
    def broken() -> MiniLMEmbedder:
        raise RuntimeError("onnxruntime is missing: pip install 'memorysync-kit[server]'")

    embedder = BackgroundEmbedder(broken, dim=MiniLMEmbedder.dim)
    assert embedder.state in ("loading", "failed")
    with LocalServer(tmp_path / "ms.db", embedder=embedder) as server:
        assert embedder.settled(10)
        answer = httpx.get(f"{server.base_url}/ready")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable" and answer.json()["model"] == "failed"
    assert "pip install 'memorysync-kit[server]'" in answer.json()["detail"]


@pytest.mark.skipif("postgres" not in ENGINES, reason="MEMORYSYNC_TEST_ENGINES leaves PostgreSQL out")
def test_a_database_that_goes_away_makes_the_server_unready(postgres_cluster: Any) -> None:
    name, url = new_postgres_database(postgres_cluster)
    with LocalServer(url, search="lexical") as server:
        assert httpx.get(f"{server.base_url}/ready").status_code == 200
        postgres_cluster.drop_database(name)  # terminates the server's connections
        answer = httpx.get(f"{server.base_url}/ready", timeout=10)
        assert httpx.get(f"{server.base_url}/health").status_code == 200
    assert answer.status_code == 503 and answer.json()["status"] == "unavailable"
    assert answer.json()["database"] != "ok" and "the database does not answer" in answer.json()["detail"]
