"""Every default the docs quote is the one the code uses: the README's configuration table, the
tables of docs/configuration.md, the search mode and the encoder named "(the) default", the port
of every loopback URL, and the limits a page states. A default changed in code fails here until
each page that quotes it says the new value (the README once said ``semantic`` while the server
ran ``hybrid``)."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ag2_memorysync import MemorySyncCapability, MemorySyncMiddleware, RecallOptions, WriteOptions
from agno_memorysync import AsyncMemorySyncDb, MemorySyncDb
from memorysync_core import DEFAULT_BASE_URL
from memorysync_server import cli, defaults

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
_TICKED = re.compile(r"`([^`]+)`")
_UNSET = object()


@pytest.fixture
def serve_defaults(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``--option`` -> the default ``serve`` uses when the environment sets nothing."""
    for name in [n for n in os.environ if n.startswith("MEMORYSYNC_SERVER_")]:
        monkeypatch.delenv(name)
    parser = cli._parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    serve = sub.choices["serve"]
    return {opt: action.default for action in serve._actions for opt in action.option_strings}


def _literal(text: str) -> Any:
    if re.fullmatch(r"[A-Z]\w*\(\)", text):  # `RetryPolicy()`: that class's defaults
        return getattr(__import__("ag2_memorysync"), text[:-2])()
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text  # a bare word such as hybrid or ./memorysync.db


def _kit_default(owner: type, name: str) -> Any:
    """What ``owner(...)`` uses for ``name`` when it is not given: the keyword's own default, or
    (for the keywords that default to None and take their value from an options group) the group's."""
    param = inspect.signature(owner).parameters.get(name)
    assert param is not None, f"{owner.__name__} has no parameter {name!r}: update the docs"
    if param.default is not None and param.default is not inspect.Parameter.empty:
        return param.default
    groups = {"recall": RecallOptions, "writes": WriteOptions}
    if name in groups:  # None: the group's defaults
        return groups[name]()
    for group in (RecallOptions, WriteOptions):
        for f in dataclasses.fields(group):
            if f.name == name and f.default is not dataclasses.MISSING:
                return f.default
            if f.name == name and f.default_factory is not dataclasses.MISSING:
                return f.default_factory()
    return param.default if param.default is not inspect.Parameter.empty else _UNSET


def _rows(page: Path, heading: str | None = None) -> Iterator[list[str]]:
    """The cells of each table row of ``page`` (under ``heading`` only, when given)."""
    inside = heading is None
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            inside = heading is None or line.strip("# ").strip() == heading
        elif inside and line.startswith("|") and not set(line) <= set("|-: "):
            yield [cell.strip() for cell in line.strip().strip("|").split("|")]


def _pairs(names_cell: str, values_cell: str) -> list[tuple[str, str]]:
    """(setting, documented default) for a row that names settings and their defaults in order;
    values that are words ("required", "built in", "env") say no literal and are skipped."""
    names = _TICKED.findall(re.sub(r"\(.*?\)", "", names_cell.split(":")[-1]))
    values = [v.strip() for v in values_cell.split(",")]
    if len(names) != len(values):
        values = [values_cell.strip()] * len(names) if len(names) == 1 else []
    pairs = []
    for name, value in zip(names, values, strict=False):
        ticked = _TICKED.fullmatch(value.removesuffix(" s").strip())
        if ticked:
            pairs.append((name, ticked.group(1)))
    return pairs


def test_the_readme_configuration_table_quotes_the_defaults_in_force(serve_defaults: dict[str, Any]) -> None:
    checked = 0
    for cells in _rows(ROOT / "README.md", "Configuration at a glance"):
        if len(cells) != 3 or cells[0] not in ("kit", "server"):
            continue
        _, setting, default = cells
        if setting.startswith("`--"):
            option = _TICKED.findall(setting)[0].split()[0]
            code = serve_defaults[option]
            if code is None:
                continue  # e.g. --api-key: "a development key kept in --db", no value
            assert _TICKED.findall(default)[0] == str(code), f"README: {option} defaults to {code!r}"
            checked += 1
        elif "MEMORYSYNC_BASE_URL" in setting:
            assert DEFAULT_BASE_URL in default
            checked += 1
        elif "MemorySyncCapability" in setting:
            for name, value in _pairs(setting, default):
                for owner in (MemorySyncCapability, MemorySyncMiddleware):
                    assert _literal(value) == _kit_default(owner, name), f"README: {owner.__name__}({name}=)"
                checked += 1
    assert checked >= 9, "the README's configuration table changed shape: teach this test to read it"


@pytest.mark.parametrize(
    "heading,owners",
    [
        ("`MemorySyncCapability`", (MemorySyncCapability, MemorySyncMiddleware)),
        ("`MemorySyncDb` / `AsyncMemorySyncDb`", (MemorySyncDb, AsyncMemorySyncDb)),
    ],
)
def test_the_configuration_page_quotes_the_defaults_in_force(heading: str, owners: tuple[type, ...]) -> None:
    page = ROOT / "docs" / "configuration.md"
    checked = 0
    for cells in _rows(page, heading):
        if cells[0] == "parameter":
            continue
        for name, value in _pairs(cells[0], cells[1]):
            for owner in owners:
                code = _kit_default(owner, name)
                if code is _UNSET or (owner is MemorySyncMiddleware and name == "capture"):
                    continue  # the 1.x middleware captures through its own hook: no capture=
                assert _literal(value) == code, (
                    f"docs/configuration.md: {owner.__name__}({name}=) is {code!r}"
                )
                checked += 1
    assert checked >= 8, f"found too few rows under {heading}"
    assert f"(default\n`{DEFAULT_BASE_URL}`)" in page.read_text(encoding="utf-8")


def test_every_mode_or_setting_called_the_default_is_the_default(serve_defaults: dict[str, Any]) -> None:
    modes = "|".join(defaults.SEARCH_MODES)
    called = [
        # "`hybrid` (default)", "**hybrid** (the default)", "hybrid (default)" in a table header
        re.compile(rf"(?:`|\*\*)?\b({modes})\b(?:`|\*\*)? \((?:the )?default\b"),
        re.compile(rf"\bthe ({modes}) default\b"),
        re.compile(rf"\bdefault(?: search)?(?: mode)?,? `?({modes})\b"),
    ]
    seen = 0
    for page in PAGES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for pattern in called:
            for found in pattern.finditer(text):
                assert found.group(1) == defaults.DEFAULT_SEARCH, (
                    f"{page.name}: {found.group(0)!r}, but the default search is {defaults.DEFAULT_SEARCH!r}"
                )
                seen += 1
        for option, value in re.findall(r"`--([\w-]+) ([^`\s]+)` \((?:the )?default", text):
            assert serve_defaults[f"--{option}"] == value, (
                f"{page.name}: --{option} {value} is not the default"
            )
            seen += 1
    assert seen >= 3


def test_every_loopback_url_and_serve_port_the_docs_show_is_the_default_port() -> None:
    ports = []
    for page in (*PAGES, ROOT / "Makefile", ROOT / "examples" / "demo.py"):
        text = page.read_text(encoding="utf-8")
        ports += [(page.name, int(p)) for p in re.findall(r"(?:127\.0\.0\.1|localhost):(\d+)", text)]
        # --port 0 asks for a free port: not a default quoted
        ports += [(page.name, int(p)) for p in re.findall(r"--port ([1-9]\d*)", text)]
    assert len(ports) > 5
    assert [(name, port) for name, port in ports if port != defaults.DEFAULT_PORT] == []


def test_the_limits_the_docs_state_are_the_ones_in_force() -> None:
    server = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    mib = defaults.DEFAULT_MAX_BODY_BYTES // (1024 * 1024)
    assert mib * 1024 * 1024 == defaults.DEFAULT_MAX_BODY_BYTES
    assert f"| request body | {mib} MiB (`--max-body-bytes`" in server
    assert (
        f"| a request body's progress | {defaults.DEFAULT_BODY_TIMEOUT:g} s without a byte (`--body-timeout`"
        in server
    )
    spec = " ".join((ROOT / "openapi.yaml").read_text(encoding="utf-8").split())
    assert f"(`memorysync-server --max-body-bytes`, {mib} MiB by default" in spec
    assert f"(`memorysync-server --body-timeout`, {defaults.DEFAULT_BODY_TIMEOUT:g} s by default)" in spec
    budget = _kit_default(MemorySyncMiddleware, "recall_timeout")
    assert f"(`recall_timeout`, {budget} s)" in (ROOT / "docs" / "ag2-v1.md").read_text(encoding="utf-8")
