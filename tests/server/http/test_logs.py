"""``serve --log-format json``: stdout is one JSON object a line; each request is one record with its
request id, tenant, route, status and duration; no record holds a memory's text or a key, and the
banner (which may show a development key) goes to stderr."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

KEY = "ms_test_jsonlogs_secret_0001"
SECRET_TEXT = "pistachio gelato in Trondheim"


def _serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], str, str]:
    """The server, its URL, and what it wrote on stderr up to that URL (the banner)."""
    command = [sys.executable, "-m", "memorysync_server.cli", "serve", "--port", "0"]
    command += ["--db", str(tmp_path / "logs.db"), "--search", "lexical", "--log-format", "json", *extra]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    banner = ""
    # Up to the banner's last line (the one with the key, or the one line of a server given keys).
    while "export MEMORYSYNC_API_KEY=" not in banner and "memorysync-server: serving" not in banner:
        line = proc.stderr.readline()
        assert line, banner
        banner += line
    found = re.search(r"http://127\.0\.0\.1:\d+", banner)
    assert found is not None, banner
    url = found.group(0)
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{url}/health", timeout=2)
            return proc, url, banner
        except httpx.TransportError:
            assert time.monotonic() < deadline and proc.poll() is None, banner
            time.sleep(0.1)


def _stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    proc.terminate()
    out, err = proc.communicate(timeout=20)
    return out, err


def test_every_line_is_one_json_object_and_each_request_one_record(tmp_path: Path) -> None:
    proc, url, _ = _serve(tmp_path, "--api-key", f"{KEY}=t_logs")
    try:
        http = httpx.Client(base_url=url, headers={"X-API-Key": KEY})
        body = {"tenant_id": "t_logs", "user_id": "alice", "text": f"I love {SECRET_TEXT}"}
        assert (
            http.post(
                "/v1/memory/add_turn", json=body, headers={"X-Request-ID": "req-from-proxy-1"}
            ).status_code
            == 201
        )
        recall = {"tenant_id": "t_logs", "user_id": "alice", "prompt": f"Does the user like {SECRET_TEXT}?"}
        assert http.post("/v1/memory/recall", json=recall).status_code == 200
        assert http.get("/v1/memory/t_logs/alice/list").status_code == 200
        assert (
            httpx.get(f"{url}/org/projects", headers={"X-API-Key": "ms_test_wrong_key_999"}).status_code
            == 401
        )
        http.close()
    finally:
        out, err = _stop(proc)
    records: list[dict[str, Any]] = [json.loads(line) for line in out.splitlines()]  # each line parses
    assert records, err
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys()
    access = [r for r in records if r["logger"] == "memorysync_server.access"]
    by_route = {(r["method"], r["route"]): r for r in access}
    turn = by_route[("POST", "/v1/memory/add_turn")]
    assert turn["request_id"] == "req-from-proxy-1"
    assert (turn["tenant"], turn["status"]) == ("t_logs", 201) and turn["duration_ms"] > 0
    assert by_route[("POST", "/v1/memory/recall")]["status"] == 200
    # The route template, never the path sent (it holds the user id).
    assert by_route[("GET", "/v1/memory/{tenant_id}/{user_id}/list")]["status"] == 200
    refused = by_route[("GET", "/org/projects")]
    assert refused["status"] == 401 and refused["tenant"] is None
    assert all(re.fullmatch(r"[A-Za-z0-9._:-]{1,128}", r["request_id"]) for r in access)
    assert len({r["request_id"] for r in access}) == len(access)
    # No memory text, no key, anywhere in the log.
    for secret in (SECRET_TEXT, "pistachio", KEY, "ms_test_wrong_key_999", "alice"):
        assert secret not in out, secret


def test_the_development_key_is_shown_on_stderr_never_in_the_log(tmp_path: Path) -> None:
    proc, url, banner = _serve(tmp_path)
    try:
        assert httpx.get(f"{url}/health").status_code == 200
    finally:
        out, _ = _stop(proc)
    key = re.search(r"export MEMORYSYNC_API_KEY=(\S+)", banner)
    assert key is not None, banner
    assert key.group(1) not in out
    assert all(json.loads(line) for line in out.splitlines())
