"""Every quick start of the README and the docs site runs as a reader runs it, and prints what its
comments say, the same on a second run.

Each runs in its own process against one served local server (the default search mode, its model
loaded, as after `memorysync-server serve`), configured only by the two variables `serve` prints,
offline: the model is the scripted stand-in the page shows. Each page's snippets use a user of
their own, so a second run (same server, same folder) must print exactly what the first did.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memorysync_server import LocalServer
from tests.docs_blocks import runnable

# (the blocks run together, in order) -> the lines they print
QUICK_STARTS = {
    "getting-started": (
        ["getting-started-first-memory"],
        ["['User is vegan', 'User moved to Oslo']", "['User is vegan']"],
    ),
    "ag2": (["docs-ag2"], ["From memory: ['User is vegan']"]),
    "ag2-v1": (["docs-ag2-v1"], ["Noted.", "['User is vegan']"]),
    "agno": (
        ["docs-agno-scripted-model", "docs-agno", "docs-agno-async", "docs-agno-agentos"],
        [
            'From memory: ["I\'m vegan, and I moved to Oslo."]',
            "From memory: ['I always take the window seat.']",
            "True",
        ],
    ),
    "readme": (
        ["readme-ag2", "readme-ag2-v1", "readme-agno"],
        [
            "['User is vegan']",
            "['User always takes the window seat']",
            "['Customer prefers teal dashboards']",
        ],
    ),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with LocalServer(tmp_path_factory.mktemp("quickstarts") / "memorysync.db") as server:
        assert server.app.services.search.embedder.settled(120), "the search model did not load"
        yield server


def _printed(output: str) -> list[str]:
    # autogen prints a line of its own when a chat ends, naming a new run id each time.
    return [
        line
        for line in output.splitlines()
        if line.strip() and not line.startswith(">>>>>>>> TERMINATING RUN")
    ]


@pytest.mark.parametrize("name", list(QUICK_STARTS))
def test_each_quick_start_runs_offline_prints_what_it_says_and_the_same_again(
    served: LocalServer, tmp_path: Path, name: str
) -> None:
    ids, expected = QUICK_STARTS[name]
    script = tmp_path / f"quickstart_{name.replace('-', '_')}.py"  # not agno.py: that would shadow agno
    script.write_text("\n".join(runnable(i).code for i in ids), encoding="utf-8")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MEMORYSYNC_")},
        "MEMORYSYNC_BASE_URL": served.base_url,
        "MEMORYSYNC_API_KEY": served.api_key,
        "AGNO_TELEMETRY": "false",
    }
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
        )
        assert done.returncode == 0, done.stderr[-3000:]
        runs.append(_printed(done.stdout))
    assert runs[0] == expected, runs[0]
    assert runs[1] == runs[0], "a second run printed something else"


def test_every_runnable_block_of_the_quick_start_pages_is_run_here() -> None:
    from tests.docs_blocks import ROOT, blocks

    pages = {
        ROOT / "README.md",
        *(ROOT / "docs" / f"{p}.md" for p in ("getting-started", "ag2", "ag2-v1", "agno")),
    }
    on_pages = {b.run_id for b in blocks() if b.page in pages and b.run_id}
    assert on_pages == {i for ids, _ in QUICK_STARTS.values() for i in ids}
