"""One version, from one place: ``pyproject.toml`` names the newest release of CHANGELOG.md (kept in
the Keep a Changelog form), and ``memorysync-server --version``, ``GET /health`` and the client's
``User-Agent`` all report it, read from the installed package's metadata."""

from __future__ import annotations

import re
import sys
from datetime import date
from importlib import metadata
from pathlib import Path

import httpx
import pytest

from memorysync_core import user_agent
from memorysync_server import LocalServer, cli

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
RELEASE = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$")

if sys.version_info >= (3, 11):
    import tomllib

    PROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
else:  # Python 3.10 has no tomllib; the line is simple enough to read as text
    PROJECT_VERSION = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)


def _releases() -> list[tuple[tuple[int, int, int], date]]:
    found = []
    for line in CHANGELOG.splitlines():
        match = RELEASE.match(line)
        if match:
            major, minor, patch, day = match.groups()
            found.append(((int(major), int(minor), int(patch)), date.fromisoformat(day)))
    return found


def test_the_changelog_keeps_the_keep_a_changelog_form() -> None:
    headings = [line for line in CHANGELOG.splitlines() if line.startswith("## ")]
    assert headings[0] == "## [Unreleased]", "changes not yet released go under ## [Unreleased], at the top"
    assert all(RELEASE.match(h) for h in headings[1:]), [h for h in headings[1:] if not RELEASE.match(h)]
    for line in CHANGELOG.splitlines():
        if line.startswith("### "):
            assert line[4:] in KINDS, f"{line!r}: a change is one of {', '.join(KINDS)}"
    releases = _releases()
    assert releases, "no release"
    versions = [v for v, _ in releases]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions), "newest first"
    days = [d for _, d in releases]
    assert days == sorted(days, reverse=True)
    # Every release says what changed.
    for block in re.split(r"^## ", CHANGELOG, flags=re.M)[2:]:
        assert re.search(r"^### \w+\n\n- ", block, re.M), block.splitlines()[0]


def test_the_version_is_the_newest_release_and_the_installed_one() -> None:
    newest = ".".join(map(str, _releases()[0][0]))
    assert newest == PROJECT_VERSION, "pyproject.toml's version is the newest release in CHANGELOG.md"
    assert metadata.version("memorysync-kit") == PROJECT_VERSION, (
        "the installed package is older than pyproject.toml: run `make install`"
    )


def test_cli_health_and_user_agent_report_that_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.strip() == f"memorysync-server {PROJECT_VERSION}"
    assert user_agent() == f"memorysync-kit/{PROJECT_VERSION}"
    with LocalServer(tmp_path / "v.db", search="lexical") as server:
        assert httpx.get(f"{server.base_url}/health").json()["version"] == PROJECT_VERSION
