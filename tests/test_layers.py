"""The layering of src/, read from the import statements themselves (no import is executed).

Every ``import`` and ``from … import`` counts, those under ``TYPE_CHECKING`` and inside functions
included: a deferred import is still a dependency. Each rule names what it protects.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
SERVER = "memorysync_server"
FRAMEWORKS = ("autogen", "ag2", "agno")
ADAPTERS = ("ag2_memorysync", "agno_memorysync")


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for each module ``path`` imports; ``from x import y`` yields
    both ``x`` and ``x.y`` (``y`` may be a submodule)."""
    name, is_package = _module_name(path)
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"


def _sources(package: str) -> list[Path]:
    return sorted((SRC / package.replace(".", "/")).rglob("*.py"))


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _violations(package: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    found = []
    for path in _sources(package):
        for line, module in _imports(path):
            if _within(module, forbidden) and not _within(module, allowed):
                found.append(f"{path.relative_to(SRC)}:{line} imports {module}")
    return sorted(set(found))


def _server(*names: str) -> tuple[str, ...]:
    return tuple(f"{SERVER}.{name}" for name in names)


RULES = {
    "core knows no framework, no adapter and no server": (
        "memorysync_core",
        (*FRAMEWORKS, *ADAPTERS, SERVER),
        (),
    ),
    "the AG2 adapter reaches the server only over HTTP and never imports agno's adapter": (
        "ag2_memorysync",
        (SERVER, "agno_memorysync", "agno"),
        (),
    ),
    "the agno adapter reaches the server only over HTTP and never imports AG2's adapter": (
        "agno_memorysync",
        (SERVER, "ag2_memorysync", "autogen", "ag2"),
        (),
    ),
    "the server knows no framework and no adapter": (SERVER, (*FRAMEWORKS, *ADAPTERS), ()),
    "HTTP never imports storage: it calls services, which own the store": (
        f"{SERVER}.http",
        _server("storage"),
        (),
    ),
    "the domain imports nothing else of the server": (
        f"{SERVER}.domain",
        (SERVER,),
        _server("domain"),
    ),
    "extraction is pure: text in, facts out, no storage, search, model or HTTP": (
        f"{SERVER}.extraction",
        (SERVER,),
        _server("extraction", "language", "domain"),
    ),
    "language (words and stems) depends on nothing else of the server": (
        f"{SERVER}.language",
        (SERVER,),
        _server("language"),
    ),
    "storage never imports HTTP, services, retrieval, extraction or the model": (
        f"{SERVER}.storage",
        _server("http", "services", "retrieval", "extraction", "model", "language"),
        (),
    ),
    "retrieval and the model never import services or HTTP": (
        f"{SERVER}.retrieval",
        _server("services", "http"),
        (),
    ),
    "the model never imports retrieval, services, storage or HTTP": (
        f"{SERVER}.model",
        _server("retrieval", "services", "storage", "http"),
        (),
    ),
    "services never import HTTP": (f"{SERVER}.services", _server("http"), ()),
}


@pytest.mark.parametrize("rule", list(RULES))
def test_layering_rule_holds(rule: str) -> None:
    package, forbidden, allowed = RULES[rule]
    assert _violations(package, forbidden, allowed) == [], rule


def _private_imports() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(SRC)}:{node.lineno} imports {alias.name}")
    return found


def test_modules_talk_through_public_names() -> None:
    # A name with a leading underscore is its module's own: what another module needs gets a
    # public name (and a home where both can see it).
    assert _private_imports() == []


def test_the_checker_sees_relative_deferred_and_type_checking_imports(tmp_path: Path) -> None:
    # The rules above pass vacuously if the import reader misses a form: check it on the
    # server's own modules, where each form is known to occur.
    search = {m for _, m in _imports(SRC / SERVER / "retrieval" / "search.py")}
    assert f"{SERVER}.storage" in search  # relative, module level
    embedders = {m for _, m in _imports(SRC / SERVER / "model" / "embedders.py")}
    assert f"{SERVER}.model.embedding.minilm" in embedders  # relative, inside a function
    records = {m for _, m in _imports(SRC / SERVER / "domain" / "records.py")}
    assert "numpy" in records  # under TYPE_CHECKING


SHELL = {"__init__", "app", "cli", "defaults", "devkey", "launcher", "preflight", "version"}


def test_the_server_root_holds_the_shell_and_packages_only() -> None:
    root = SRC / SERVER
    modules = {p.stem for p in root.glob("*.py")}
    assert modules == SHELL, "a module at the server's root belongs in one of its packages"
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    assert packages == {
        "domain",
        "extraction",
        "http",
        "language",
        "model",
        "retrieval",
        "services",
        "storage",
    }
