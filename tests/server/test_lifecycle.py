"""Restart, quota, concurrency, fault injection and the console script, against the real server."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from memorysync_server import LocalServer, Quota
from tests.support.console import output_until

from .api import Api


def test_restart_keeps_every_row(server: LocalServer) -> None:
    api = Api(server)
    api.turn("u", "I'm vegan, and I moved to Oslo", speaker="human@s#h1")
    api.add("u", "I always take the window seat", client_ref="r1")
    api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        turns=[{"role": "user", "content": "I play cello", "seq": 0}],
    )
    api.put("u", "k", {"memory": "User is vegan"}, text="User is vegan")
    snapshot = {
        "facts": api.facts("u"),
        "history": api.v1("/v1/history/list", "u", session_id="s"),
        "state": api.v1("/v1/state/list", "u"),
    }
    port = server.port
    server.restart()
    assert server.port == port
    # The same client keeps working: same URL, same key.
    assert api.facts("u") == snapshot["facts"]
    assert api.v1("/v1/history/list", "u", session_id="s") == snapshot["history"]
    assert api.v1("/v1/state/list", "u") == snapshot["state"]
    # Receipts survived too: replays are still replays, and ids are never reused.
    assert (
        api.turn("u", "I'm vegan, and I moved to Oslo", speaker="human@s#h1")["processing_status"]
        == "skipped_replay"
    )
    assert api.add("u", "I always take the window seat", client_ref="r1")["reason"] == "already_ingested"
    api.forget("u", [m["memory_id"] for m in snapshot["facts"]["memories"]])
    server.restart()
    fresh = api.add("u", "I like tea")
    assert fresh["id"] > max(int(m["memory_id"][2:]) for m in snapshot["facts"]["memories"])
    api.close()


def test_a_stopped_server_refuses_then_serves_again(server: LocalServer) -> None:
    url = f"{server.base_url}/org/projects"
    server.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(url, headers={"X-API-Key": server.api_key}, timeout=2)
    server.start()
    assert httpx.get(url, headers={"X-API-Key": server.api_key}).status_code == 200


def test_silent_quota_skips_writes_and_empties_reads(server: LocalServer) -> None:
    server.add_key("ms_test_small", quota=Quota(adds=1, reads=1))
    api = Api(server, key="ms_test_small")
    assert api.turn("u", "I'm vegan")["processing_status"] == "completed"
    over = api.turn("u", "I live in Oslo")
    assert (over["status"], over["processing_status"]) == ("ok", "skipped")
    assert api.add("u", "I like tea") == {"status": "ok"}
    assert api.v1(
        "/v1/history/append", "u", session_id="s", turns=[{"role": "user", "content": "I ski"}]
    ) == {
        "items": [],
        "request_ids": [],
        "status": "skipped",
    }
    assert api.put("u", "k", {"a": 1})["status"] == "skipped"
    assert api.facts("u")["total"] == 1  # the one read allowed
    assert api.facts("u") == {"memories": [], "total": 0}
    assert api.v1("/v1/memory/recall", "u", prompt="vegan food") == {"context": "", "memories": []}
    assert api.v1("/v1/state/get", "u", namespace=["agno"], key="k") == {"item": None}
    # Nothing over the limit was stored: an unlimited key of the same tenant sees one fact.
    assert Api(server).texts("u") == ["User is vegan"]


def test_strict_quota_answers_429_limit_exceeded(server: LocalServer) -> None:
    server.add_key("ms_eval_strict", evaluation=True, quota=Quota(adds=0, reads=0, strict=True))
    api = Api(server, key="ms_eval_strict", tenant="default")
    over = api.post(
        "/v1/memory/add_turn", {"tenant_id": "default", "user_id": "u", "text": "I'm vegan"}, expect=429
    )
    assert over["detail"]["error"] == "limit_exceeded" and "plan" in over["detail"]["message"]
    assert api.post("/v1/memory/recall", {"tenant_id": "default", "user_id": "u", "prompt": "x"}, expect=429)
    assert Api(server, tenant="default", key=server.eval_key).facts("u")["total"] == 0


def test_concurrent_writes_from_threads_lose_nothing(server: LocalServer) -> None:
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        api = Api(server)
        try:
            for i in range(15):
                api.turn(f"user-{n % 3}", f"I visited city{n}x{i} last year")
                api.put(f"user-{n % 3}", f"k{n}-{i}", {"i": i}, text=f"note {n} {i}")
                api.v1(
                    "/v1/history/append",
                    f"user-{n % 3}",
                    session_id=f"s{n}",
                    turns=[{"role": "user", "content": f"turn {n} {i} is here", "seq": i}],
                    extract=False,
                )
        except BaseException as error:  # reported below, with the thread's failure
            errors.append(error)
        finally:
            api.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    api = Api(server)
    ids = []
    for user in ("user-0", "user-1", "user-2"):
        listed = api.facts(user)
        assert listed["total"] == 30
        ids += [m["memory_id"] for m in listed["memories"]]
        assert api.v1("/v1/state/list", user, limit=1000)["total"] == 30
    assert len(set(ids)) == 90
    assert api.v1("/v1/history/list", "user-0", session_id="s3")["total"] == 15


def test_fault_injection_on_the_real_socket(server: LocalServer) -> None:
    headers = {"X-API-Key": server.api_key}
    url = f"{server.base_url}/org/projects"
    server.faults.set(status=503, count=2)
    assert [httpx.get(url, headers=headers).status_code for _ in range(3)] == [503, 503, 200]
    server.faults.set(status=429, route="/v1/memory")
    assert httpx.get(url, headers=headers).status_code == 200
    limited = httpx.post(f"{server.base_url}/v1/memory/recall", json={}, headers=headers)
    assert limited.status_code == 429 and "detail" in limited.json()
    server.faults.clear()
    server.faults.set(delay=0.3)
    started = time.monotonic()
    assert httpx.get(url, headers=headers).status_code == 200
    assert time.monotonic() - started >= 0.3
    server.faults.clear()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_console_script_prints_a_dev_key_that_works(tmp_path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYSYNC_SERVER_")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "memorysync_server.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "cli.db"),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        output = output_until(proc, "MEMORYSYNC_API_KEY=")
        assert f"export MEMORYSYNC_BASE_URL=http://127.0.0.1:{port}" in output
        key = re.search(r"export MEMORYSYNC_API_KEY=(\S+)", output).group(1)
        deadline = time.monotonic() + 15
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/org/projects", headers={"X-API-Key": key})
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert response.status_code == 200 and response.json()[0]["tenant_id"] == "t_local"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_console_script_rejects_a_key_without_a_name(tmp_path, monkeypatch, capsys) -> None:
    from memorysync_server import cli

    assert cli.main(["serve", "--api-key", "=tenant", "--db", str(tmp_path / "x.db")]) == 2
    monkeypatch.setenv("MEMORYSYNC_SERVER_API_KEYS", "ms_test_ok=t1, =t2")
    assert cli.main(["serve", "--db", str(tmp_path / "x.db")]) == 2
    assert "non-empty" in capsys.readouterr().err


def test_evaluation_keys_over_quota_get_a_strict_429(server: LocalServer) -> None:
    server.add_key("ms_eval_small", evaluation=True, quota=Quota(adds=1))
    api = Api(server, key="ms_eval_small", tenant="default")
    api.turn("u", "I'm vegan")
    over = api.post(
        "/v1/memory/add_turn", {"tenant_id": "default", "user_id": "u", "text": "I ski"}, expect=429
    )
    assert over["detail"]["error"] == "limit_exceeded"


def test_launcher_errors_say_what_to_do(tmp_path) -> None:
    with pytest.raises(TypeError, match="clock=, extractor="):
        LocalServer(tmp_path / "x.db", colck=None)
    with LocalServer(tmp_path / "a.db") as first:
        taken = LocalServer(tmp_path / "b.db", port=first.port)
        with pytest.raises(RuntimeError, match="port=0"):
            taken.start(timeout=2)
        assert first.running


def test_a_script_that_ends_while_the_model_loads_exits_cleanly(tmp_path) -> None:
    # Starting an embedded server and returning at once used to abort the process in about half
    # the runs (ONNX Runtime building its session while the interpreter tore down: exit 134).
    script = "import sys\nfrom memorysync_server import LocalServer\nLocalServer(sys.argv[1]).start()\n"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path / f"s{i}.db")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert "terminate called" not in err
        # ... nor does the load, finishing while the interpreter exits, report a failed graph
        # ("cannot schedule new futures after interpreter shutdown; upgrade onnxruntime").
        assert "cannot run the int8-compute graph" not in err, err
