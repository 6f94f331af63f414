"""``memorysync-server``: a mistake on the command line is one or two lines saying what was wrong and
what to do, exit status 2, and nothing printed, created or keyed before it."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from memorysync_server import cli

from .conftest import ENGINES


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["serve", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "", "nothing is printed on stdout (no banner, no key) before a refusal"
    lines = err.strip().splitlines()
    assert 1 <= len(lines) <= 2 and lines[0].startswith("memorysync-server: "), err
    return err


def test_help_explains_every_option_and_shows_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["serve", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    options = re.findall(r"^  (--[a-z-]+)(.*)\n((?:                        .*\n)*)", text, re.M)
    assert {name for name, _, _ in options} >= {"--host", "--port", "--db", "--log-level", "--search"}
    for name, rest, more in options:
        assert (rest.strip() + more).strip(), f"{name} has no help text"
    for default in (
        "(default: 127.0.0.1)",
        "(default: 8787)",
        "(default: ./memorysync.db)",
        "(default: info)",
    ):
        assert default in " ".join(text.split()).replace("( default", "(default")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"memorysync-server {metadata.version('memorysync-kit')}"


def test_a_db_in_a_missing_folder_says_which_folder_and_how_to_make_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "no" / "such" / "ms.db"
    err = _refused(["--db", str(db)], capsys)
    assert f"the folder {db.parent} does not exist" in err and f"mkdir -p {db.parent}" in err
    assert not (tmp_path / "no").exists()


def test_a_db_that_is_a_folder_suggests_a_file_inside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refused(["--db", str(tmp_path)], capsys)
    assert "is a folder" in err and f"--db {tmp_path / 'memorysync.db'}" in err
    assert list(tmp_path.iterdir()) == []


def test_a_db_where_no_file_can_be_created_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    # /proc takes no new files, even for root (permission bits would not say so for root).
    err = _refused(["--db", "/proc/memorysync.db"], capsys)
    assert "cannot create files in /proc" in err and "--db ./memorysync.db" in err


def test_a_file_that_is_not_a_sqlite_database_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    err = _refused(["--db", str(notes)], capsys)
    assert "is not a SQLite database" in err
    assert notes.read_text() == "my notes\n" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_taken_port_is_refused_before_anything_is_printed_or_created(tmp_path: Path) -> None:
    db = tmp_path / "ms.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "memorysync_server.cli", "serve", "--port", str(port), "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"memorysync-server: port {port} on 127.0.0.1 is already in use (another memorysync-server?).",
        f"  Stop that process, or choose another port: --port {port + 1} (--port 0: any free one).",
    ]
    assert not db.exists()


def test_an_unknown_host_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["--host", "no-such-host.invalid", "--db", str(tmp_path / "ms.db")], capsys)
    assert "--host no-such-host.invalid" in err and "--host 127.0.0.1" in err
    assert not (tmp_path / "ms.db").exists()


def test_a_postgresql_port_nobody_listens_on_is_refused_within_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    err = _refused(["--db", f"postgresql://me:s3cret@127.0.0.1:{port}/memories"], capsys)
    assert time.monotonic() - started < 5
    assert f"postgresql://me:***@127.0.0.1:{port}/memories" in err and "s3cret" not in err
    assert "Connection refused" in err and "Check host, port, database name, user and password" in err


def test_a_postgresql_host_that_never_answers_is_given_up_after_the_timeout() -> None:
    from memorysync_server import preflight

    with socket.socket() as silent:  # accepts connections (the kernel does) but never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"postgresql://me@127.0.0.1:{silent.getsockname()[1]}/memories"
        started = time.monotonic()
        problem = preflight.postgres_problem(url, timeout=1.0)
    assert time.monotonic() - started < 3
    assert problem is not None and "no answer within 1 s" in problem


@pytest.mark.skipif("postgres" not in ENGINES, reason="MEMORYSYNC_TEST_ENGINES leaves PostgreSQL out")
@pytest.mark.parametrize(
    "change,reason",
    [
        ({"database": "no_such_db"}, 'database "no_such_db" does not exist'),
        ({"user": "no_such_user"}, 'role "no_such_user" does not exist'),
    ],
)
def test_a_postgresql_server_that_refuses_says_why(
    postgres_cluster: Any, change: dict[str, str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_cluster.url(change.get("database", "postgres"))
    if "user" in change:
        url = url.replace(f"//{postgres_cluster.user}@", f"//{change['user']}@")
    err = _refused(["--db", url], capsys)
    assert reason in err


@pytest.mark.parametrize(
    "argv,usage,named",
    [
        (["--nope"], "usage: memorysync-server [-h]", "unrecognized arguments: --nope"),
        (["--nope", "serve"], "usage: memorysync-server [-h]", "unrecognized arguments: --nope"),
        (["serve", "--nope"], "usage: memorysync-server serve [-h]", "unrecognized arguments: --nope"),
        (
            ["serve", "--prot", "9"],
            "usage: memorysync-server serve [-h]",
            "unrecognized arguments: --prot 9 (did you mean --port?)",
        ),
    ],
)
def test_an_unknown_option_is_named_with_the_usage_of_the_command_it_was_given_to(
    argv: list[str], usage: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(usage), err
    assert err.strip().splitlines()[-1].endswith(f"error: {named}"), err


def test_no_command_says_which_to_give(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main([])
    assert done.value.code == 2
    assert "give a COMMAND: memorysync-server serve" in capsys.readouterr().err


def test_port_0_takes_a_free_port_and_prints_the_url_it_got(tmp_path: Path) -> None:
    from tests.support.console import output_until

    db = str(tmp_path / "ms.db")
    command = [sys.executable, "-m", "memorysync_server.cli", "serve", "--port", "0", "--db", db]
    command += ["--search", "lexical", "--api-key", "ms_test_port0=t_port0", "--log-level", "warning"]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        banner = output_until(proc, "serving")
        found = re.search(r"on http://127\.0\.0\.1:(\d+) ", banner)
        assert found, banner
        port = int(found.group(1))
        assert port != 0
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, banner
                time.sleep(0.1)
        assert answer.json()["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_a_port_that_is_no_port_number_says_which_are(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--port", port])
    assert "is not a port number (0-65535; 0: a free one)" in capsys.readouterr().err
