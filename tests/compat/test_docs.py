"""The README and the documentation site: short, every code block run by a test or marked as not
runnable (the quick starts run in test_quickstarts.py), and the site builds strictly (a broken
link, anchor or API reference fails)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.docs_blocks import PAGES, ROOT, blocks

README_MAX_LINES = 250


def test_the_readme_stays_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail to a page under docs/"


def test_every_code_block_is_run_by_a_test_or_marked_as_not_runnable() -> None:
    unmarked = [b.where() for b in blocks() if b.run_id is None and b.not_run is None]
    assert unmarked == [], (
        "mark each block on the line before its fence: <!-- run: ID --> (and run it in a test "
        "with tests.docs_blocks.runnable('ID')) or <!-- not run: why -->"
    )
    ids = [b.run_id for b in blocks() if b.run_id]
    assert len(ids) == len(set(ids)), "a run: ID names one block"
    # A test module that gets blocks with runnable() and names the ID.
    takers = [
        t for p in (ROOT / "tests").rglob("test_*.py") if "runnable(" in (t := p.read_text(encoding="utf-8"))
    ]
    untaken = [i for i in ids if not any(f'"{i}"' in t for t in takers)]
    assert untaken == [], "these blocks are marked run: but no test runs them"


def test_every_page_is_in_the_site_and_the_readme_links_only_to_pages_that_exist() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert [p.name for p in PAGES[1:] if p.name not in nav] == []
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(((?:docs/)?[\w./-]+?)(?:#[\w-]+)?\)", readme):
        assert (ROOT / target).exists(), target


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "index.html").read_text().count("MemorySyncCapability") > 1
