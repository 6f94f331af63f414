"""The API reference cannot render an undocumented public name: every name in the ``__all__`` of the
four packages has a docstring, read with Griffe (the engine mkdocstrings renders docs/reference.md
with), in Google style: no Sphinx roles or fields (they would show raw), and an ``Args:`` entry for
every parameter of a public function and of a public class's constructor, so the reference shows
a parameter table. Each public method and property of a public class has a docstring too, and
docs/reference.md shows every public name."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import griffe
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("memorysync_core", "ag2_memorysync", "agno_memorysync", "memorysync_server")
SPHINX = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj|param|type|returns?|rtype|raises?)[: `]")
SECTIONS_WITH_NAMES = (griffe.DocstringSectionKind.parameters, griffe.DocstringSectionKind.attributes)


@pytest.fixture(scope="module")
def loaded() -> dict[str, griffe.Module]:
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src"), str(ROOT / "generated")])
    packages = {name: loader.load(name) for name in PACKAGES}
    loader.resolve_aliases(external=False, implicit=False)
    return packages  # type: ignore[return-value]


def _public(package: griffe.Module) -> Iterator[tuple[str, griffe.Object]]:
    for name in package.exports or ():
        member = package[name]
        yield name, (member.final_target if member.is_alias else member)


def _parsed(obj: griffe.Object, problems: list[str]) -> list[griffe.DocstringSection]:
    """``obj``'s docstring parsed as Google style; Griffe's warnings (a parameter documented that
    the signature lacks, a section it cannot read) count as problems."""
    assert obj.docstring is not None
    seen: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Collect(level=logging.WARNING)
    logger = logging.getLogger("griffe")
    logger.addHandler(handler)
    try:
        sections = obj.docstring.parse("google", warn_unknown_params=True)
    finally:
        logger.removeHandler(handler)
    problems += [f"{obj.path}: {message}" for message in seen]
    if SPHINX.search(obj.docstring.value):
        problems.append(f"{obj.path}: Sphinx roles or fields show raw in a Google-style reference")
    return sections


def _documented_names(sections: list[griffe.DocstringSection]) -> set[str]:
    return {item.name for s in sections if s.kind in SECTIONS_WITH_NAMES for item in s.value}


def _parameters(function: griffe.Function) -> list[str]:
    return [
        p.name
        for p in function.parameters
        if p.name not in ("self", "cls")
        and p.kind not in (griffe.ParameterKind.var_positional, griffe.ParameterKind.var_keyword)
    ]


def _constructor(cls: griffe.Class) -> griffe.Function | None:
    for owner in (cls, *cls.mro()):
        init = owner.members.get("__init__")
        if init is not None and init.is_function:
            return init  # type: ignore[return-value]
    return None


def _problems(name: str, obj: griffe.Object) -> list[str]:
    if not obj.docstring or not obj.docstring.value.strip():
        return [f"{obj.path} (exported as {name}) has no docstring"]
    problems: list[str] = []
    sections = _parsed(obj, problems)
    init = None
    if obj.is_function:
        wanted = _parameters(obj)  # type: ignore[arg-type]
    elif obj.is_class:
        init = _constructor(obj)  # type: ignore[arg-type]
        wanted = (
            _parameters(init) if init is not None and not init.path.startswith(("builtins", "agno.")) else []
        )
        if issubclass_exception(obj):
            wanted = []  # an error's arguments are its message
    else:
        wanted = []
    documented = _documented_names(sections)
    if obj.is_class and init is not None and init.docstring is not None and init.parent is obj:
        # The reference merges the class's own constructor's docstring into it (merge_init_into_class;
        # an inherited constructor's docstring is not shown, so it does not count).
        documented |= _documented_names(_parsed(init, problems))
    missing = [p for p in wanted if p not in documented]
    if missing:
        problems.append(f"{obj.path}: no Args entry for {', '.join(missing)}")
    if obj.is_class:
        for member_name, member in obj.members.items():  # type: ignore[attr-defined]
            if member_name.startswith("_") or member.is_alias or member.is_attribute:
                continue
            if not member.docstring or not member.docstring.value.strip():
                problems.append(f"{member.path} has no docstring")
            else:
                _parsed(member, problems)
    return problems


def issubclass_exception(cls: griffe.Object) -> bool:
    return any(str(base).endswith(("Error", "Exception")) for base in getattr(cls, "bases", ()))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_documented_in_google_style(
    loaded: dict[str, griffe.Module], package: str
) -> None:
    problems = [problem for name, obj in _public(loaded[package]) for problem in _problems(name, obj)]
    assert problems == [], "\n".join(problems)


def test_the_reference_page_shows_every_public_name(loaded: dict[str, griffe.Module]) -> None:
    page = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^::: ([\w.]+)$", page, re.M))
    missing = [
        f"{p}.{name}" for p in PACKAGES for name in loaded[p].exports or () if f"{p}.{name}" not in shown
    ]
    assert missing == [], f"add to docs/reference.md: {missing}"


def test_the_checks_see_a_missing_docstring_and_a_sphinx_role(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text(
        '__all__ = ["bare", "sphinx", "half"]\n'
        "def bare(x: int) -> None: pass\n"
        'def sphinx(x: int) -> None:\n    """Do it with :class:`Thing`.\n\n    :param x: what\n    """\n'
        'def half(x: int, y: int) -> None:\n    """Half documented.\n\n    Args:\n        x: one.\n    """\n',
        encoding="utf-8",
    )
    probe = griffe.load("probe", search_paths=[str(tmp_path)])
    found = {name: _problems(name, obj) for name, obj in _public(probe)}
    assert "has no docstring" in found["bare"][0]
    assert any("Sphinx" in p for p in found["sphinx"])
    assert found["half"] == ["probe.half: no Args entry for y"]
