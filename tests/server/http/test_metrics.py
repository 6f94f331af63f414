"""``GET /metrics``, scraped as Prometheus would and read with prometheus-client's own text parser:
request counts and latency by route template, recalls and empty recalls, extraction failures, the
write queue, cache sizes and the encoder, behind the key rule; and with ``serve --workers 2`` every
scrape, whichever worker answers it, adds up what both workers served."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from memorysync_server import LocalServer, RuleExtractor
from memorysync_server.version import version

from ..conftest import ENGINES, new_postgres_database
from ..test_workers import KEY, TENANT, Proc


def scrape(url: str, key: str | None) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """(sample name, sorted labels) -> value, parsed by prometheus-client."""
    answer = httpx.get(f"{url}/metrics", headers={"X-API-Key": key} if key else {}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


class FailsOnBoom(RuleExtractor):
    """The real extractor, failing on texts that say "boom" (fault injection: an extractor bug)."""

    def extract(self, text: str, *, explicit: bool = False) -> list[str]:
        if "boom" in text:
            raise RuntimeError("extractor bug")
        return super().extract(text, explicit=explicit)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    db = tmp_path_factory.mktemp("metrics") / "metrics.db"
    with LocalServer(db, search="lexical", extractor=FailsOnBoom()) as running:
        yield running


def test_a_scrape_counts_what_was_served(server: LocalServer) -> None:
    api = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key})
    before = scrape(server.base_url, server.api_key)
    v1 = {"tenant_id": server.tenant_id, "user_id": "metrics-user"}
    for text in ("I'm vegan and I live in Oslo", "I always take the window seat", "boom goes the extractor"):
        assert api.post("/v1/memory/add_turn", json={**v1, "text": text}).status_code == 201
    assert api.post("/v1/memory/recall", json={**v1, "prompt": "What does the user eat?"}).json()["memories"]
    empty = {**v1, "user_id": "nobody-yet"}
    assert (
        api.post("/v1/memory/recall", json={**empty, "prompt": "What does the user eat?"}).json()["memories"]
        == []
    )
    assert api.get(f"/v1/memory/{server.tenant_id}/metrics-user/list").status_code == 200
    assert api.get("/no/such/path").status_code == 404
    api.close()

    after = scrape(server.base_url, server.api_key)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    # By route template, never the path a client sent (no user id becomes a label).
    assert (
        grew("memorysync_http_requests_total", route="/v1/memory/add_turn", method="POST", status="201") == 3
    )
    assert grew("memorysync_http_requests_total", route="/v1/memory/recall", method="POST", status="200") == 2
    listed = "/v1/memory/{tenant_id}/{user_id}/list"
    assert grew("memorysync_http_requests_total", route=listed, method="GET", status="200") == 1
    assert grew("memorysync_http_requests_total", route="unmatched", method="GET", status="404") == 1
    assert not any("metrics-user" in str(labels) for _, labels in after)
    assert (
        grew("memorysync_http_request_duration_seconds_count", route="/v1/memory/recall", method="POST") == 2
    )
    assert grew("memorysync_http_request_duration_seconds_sum", route="/v1/memory/recall", method="POST") > 0
    # The empty rate: one recall of two found nothing.
    assert grew("memorysync_recalls_total") == 2 and grew("memorysync_recalls_empty_total") == 1
    assert grew("memorysync_extraction_failures_total") == 1
    assert value(after, "memorysync_encoder_info", search="lexical", encoder="hashing", threads="0") == 1
    assert value(after, "memorysync_build_info", version=version()) == 1
    sizes = server.app.services.search.cache_sizes()
    assert sizes["index_users"] >= 1
    for cache, entries in sizes.items():
        assert value(after, "memorysync_cache_entries", cache=cache) == entries
    assert value(after, "memorysync_write_queue_depth") == 0  # lexical vectors are written inline


def test_metrics_need_a_key_the_server_accepts_as_the_inspector_does(server: LocalServer) -> None:
    assert httpx.get(f"{server.base_url}/metrics").status_code == 401
    assert (
        httpx.get(f"{server.base_url}/metrics", headers={"X-API-Key": "ms_test_unknown"}).status_code == 401
    )
    other = server.add_key("ms_test_metrics_other", "t_other")
    two = httpx.get(
        f"{server.base_url}/metrics", headers=[("X-API-Key", server.api_key), ("X-API-Key", other)]
    )
    assert two.status_code == 400
    assert httpx.get(f"{server.base_url}/metrics", headers={"X-API-Key": other}).status_code == 200


@pytest.mark.parametrize("mode,status", [("open", 200), ("off", 404)])
def test_metrics_open_to_a_scraper_or_off(tmp_path: Path, mode: str, status: int) -> None:
    with LocalServer(tmp_path / "m.db", search="lexical", metrics=mode) as server:
        assert httpx.get(f"{server.base_url}/metrics").status_code == (status if mode == "open" else 401)
        keyed = httpx.get(f"{server.base_url}/metrics", headers={"X-API-Key": server.api_key})
        assert keyed.status_code == status
        if mode == "off":
            assert "--metrics off" in keyed.json()["detail"]


def test_the_write_queue_is_the_facts_waiting_for_their_vectors(server_hybrid: LocalServer) -> None:
    server = server_hybrid
    server.app.services.backfill.close()  # nothing embeds them in the background now
    api = httpx.Client(base_url=server.base_url, headers={"X-API-Key": server.api_key}, timeout=60)
    v1 = {"tenant_id": server.tenant_id, "user_id": "queue-user"}
    for text in ("I play the cello", "I keep bees in my garden", "I drive an old red Volvo"):
        assert api.post("/v1/memory/add_turn", json={**v1, "text": text}).status_code == 201
    api.close()
    waiting = server.app.services.backfill.count()
    assert waiting == 3
    samples = scrape(server.base_url, server.api_key)
    assert value(samples, "memorysync_write_queue_depth") == waiting
    choice = server.app.services.figures()
    assert (
        value(
            samples,
            "memorysync_encoder_info",
            search="hybrid",
            encoder=choice.encoder,
            threads=str(choice.encoder_threads),
        )
        == 1
    )
    assert choice.encoder not in ("loading", "hashing")


@pytest.fixture
def server_hybrid(tmp_path: Path) -> Iterator[LocalServer]:
    with LocalServer(tmp_path / "hybrid.db") as running:
        assert running.app.services.search.embedder.settled(120)
        yield running


@pytest.mark.skipif("postgres" not in ENGINES, reason="MEMORYSYNC_TEST_ENGINES leaves PostgreSQL out")
def test_with_two_workers_every_scrape_adds_up_both(postgres_cluster: Any) -> None:
    name, url = new_postgres_database(postgres_cluster)
    proc = Proc(url, "--workers", "2", "--search", "lexical")
    try:
        before = scrape(proc.url, KEY)
        sent = 40
        for i in range(sent):
            # A new connection each: the two workers take turns accepting them.
            with httpx.Client(base_url=proc.url, headers={"X-API-Key": KEY}) as client:
                body = {"tenant_id": TENANT, "user_id": f"u{i % 4}", "prompt": "anything at all"}
                assert client.post("/v1/memory/recall", json=body).status_code == 200
        counted = set()
        for _ in range(8):  # scrapes land on either worker
            samples = scrape(proc.url, KEY)
            counted.add(
                value(
                    samples,
                    "memorysync_http_requests_total",
                    route="/v1/memory/recall",
                    method="POST",
                    status="200",
                )
                - value(
                    before,
                    "memorysync_http_requests_total",
                    route="/v1/memory/recall",
                    method="POST",
                    status="200",
                )
            )
        assert counted == {sent}
        # The services' figures reach the metrics within a second in every worker.
        deadline = time.monotonic() + 10
        while value(samples, "memorysync_recalls_total") - value(before, "memorysync_recalls_total") != sent:
            assert time.monotonic() < deadline, value(samples, "memorysync_recalls_total")
            time.sleep(0.2)
            samples = scrape(proc.url, KEY)
        assert (
            value(samples, "memorysync_recalls_empty_total") - value(before, "memorysync_recalls_empty_total")
            == sent
        )
    finally:
        proc.stop()
        postgres_cluster.drop_database(name)
