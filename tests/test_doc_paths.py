"""Every path of this repository that the documentation names exists (a moved module shows here
before a newcomer follows a dead pointer)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A repository path as the docs write it: a top-level folder of ours, then path characters.
PATH = re.compile(r"(?<![\w/.-])((?:src|tests|bench|eval|tools|examples|docs|generated)/[\w./-]*\w/?)")


def _named_paths() -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in PATH.finditer(doc.read_text()):
            named.setdefault(match.group(1).rstrip("/"), []).append(doc.name)
    return named


def test_every_repository_path_the_docs_name_exists() -> None:
    named = _named_paths()
    assert any(p.startswith("src/memorysync_server/") for p in named), "the pattern finds no path at all"
    # bench/out/ and eval/out/ hold what `make bench` and `make eval` write: not in a clone.
    written = ("bench/out/", "eval/out/")
    missing = {
        path: docs
        for path, docs in named.items()
        if not path.startswith(written) and not any(ROOT.glob(path))
    }
    assert missing == {}, "the docs name paths that do not exist: update them"
