"""The code blocks of README.md and docs/*.md, each marked as run by a test or as not runnable.

The line before every fenced block is ``<!-- run: ID -->`` (a test gets the block with
:func:`runnable` and runs it) or ``<!-- not run: why -->``. tests/compat/test_docs.py checks
that no block is unmarked and that every ``run:`` ID is taken by a test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
_MARK = re.compile(r"<!-- (run: (?P<id>[\w-]+)|not run: (?P<why>.+?)) -->")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    run_id: str | None  # set for ``<!-- run: ID -->``
    not_run: str | None  # the reason, for ``<!-- not run: why -->``

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(pages: tuple[Path, ...] = PAGES) -> list[Block]:
    found = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("```"):
                end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
                mark = _MARK.fullmatch(lines[i - 1].strip()) if i else None
                found.append(
                    Block(
                        page=page,
                        line=i + 1,
                        language=lines[i][3:].strip(),
                        code="\n".join(lines[i + 1 : end]) + "\n",
                        run_id=mark.group("id") if mark else None,
                        not_run=mark.group("why") if mark else None,
                    )
                )
                i = end
            i += 1
    return found


def runnable(run_id: str) -> Block:
    """The one block marked ``<!-- run: run_id -->``."""
    [block] = [b for b in blocks() if b.run_id == run_id]
    return block
