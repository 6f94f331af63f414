"""The SDK method table can't rot: it covers what the installed SDK has, docs/sdk.md shows it, and
every method it calls supported or not offered is exercised by a compat test; and the page's
snippet runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.compat import sdk_methods
from tests.compat.sdk_methods import CLIENTS, LOCAL, METHODS, NAMESPACES, README
from tests.docs_blocks import runnable


def test_every_public_method_and_namespace_of_both_clients_is_classified() -> None:
    found = set().union(*(sdk_methods.public_methods(c) for c in CLIENTS))
    assert sorted(found - set(METHODS)) == [], "classify the SDK's new methods in tests/compat/sdk_methods.py"
    assert sorted(set(METHODS) - found) == [], "the SDK no longer has these; drop them from sdk_methods.py"
    for client in CLIENTS:
        namespaces = sdk_methods.public_namespaces(client)
        assert set(namespaces) == set(NAMESPACES), client.__name__
        assert all(count > 0 for count in namespaces.values())


def test_the_readme_table_is_the_rendered_classification() -> None:
    block = sdk_methods.readme_block(README.read_text(encoding="utf-8"))
    assert block == sdk_methods.render_table(), (
        "docs/sdk.md's SDK method table is stale: run `.venv/bin/python -m tests.compat.sdk_methods --write`"
    )
    for name in METHODS:
        assert f"| `{name}` |" in block


def test_every_method_that_reaches_the_server_is_called_by_a_compat_test() -> None:
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in sorted(Path(__file__).parent.glob("test_*.py"))
    )
    uncalled = [
        name
        for name, (_, outcome) in METHODS.items()
        if outcome != LOCAL and not re.search(rf"\.{name}\(", sources)
    ]
    assert uncalled == []


def _readme_snippet() -> str:
    return runnable("docs-sdk").code


def test_the_readme_snippet_runs_and_prints_what_its_comments_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the snippet keeps its database in ./sdk-demo.db
    exec(compile(_readme_snippet(), "docs/sdk.md", "exec"), {"__name__": "readme_snippet"})
    assert capsys.readouterr().out.splitlines() == [
        "1 User is allergic to penicillin",
        "[(1, 'User is allergic to penicillin')]",
        "1.0",
        "['created', 'updated']",
        "- [10 March 2026] User moved to Bergen in 2025",
        "[1]",
    ]
