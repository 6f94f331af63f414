"""The official SDK is a test tool: only the dev extra installs it, and no kit package imports it."""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

KIT = "memorysync-kit"
SDK = "memorysync"
ROOT = Path(__file__).resolve().parents[2]


def _requirements(dist: str, extras: frozenset[str]) -> list[Requirement]:
    """What installing ``dist[extras]`` asks for on this interpreter."""
    found = []
    for line in md.requires(dist) or []:
        req = Requirement(line)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in extras or {""}):
            found.append(req)
    return found


def _closure(dist: str, extras: frozenset[str]) -> set[str]:
    """Every installed distribution that ``pip install dist[extras]`` pulls in, transitively."""
    seen: set[str] = set()
    todo = [(dist, extras)]
    while todo:
        name, wanted = todo.pop()
        for req in _requirements(name, wanted):
            key = canonicalize_name(req.name)
            if key == canonicalize_name(KIT):
                todo.append((KIT, frozenset(req.extras)))
                continue
            if key in seen:
                continue
            seen.add(key)
            try:
                md.distribution(req.name)
            except md.PackageNotFoundError:
                continue  # not installed here (another platform or Python): nothing below it to walk
            todo.append((req.name, frozenset(req.extras)))
    return seen


def test_only_the_dev_extra_pulls_the_sdk_in() -> None:
    extras = set(md.metadata(KIT).get_all("Provides-Extra") or [])
    assert "dev" in extras
    assert SDK in _closure(KIT, frozenset({"dev"}))
    assert [str(r.specifier) for r in _requirements(KIT, frozenset({"dev"})) if r.name == SDK] == ["==1.10.1"]
    for extra in sorted(extras - {"dev"}):
        assert SDK not in _closure(KIT, frozenset({extra})), f"installing {KIT}[{extra}] would install {SDK}"
    assert SDK not in _closure(KIT, frozenset())


def test_no_kit_package_imports_the_sdk() -> None:
    importers = []
    for path in sorted((ROOT / "src").rglob("*.py")) + sorted((ROOT / "generated").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            if any(re.fullmatch(r"memorysync(\..*)?", n) for n in names):
                importers.append(str(path.relative_to(ROOT)))
    assert importers == []
