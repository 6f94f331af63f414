"""Headless Chromium for the browser tests: Debian's chromium package, driven by playwright.

The browser is never downloaded by playwright (no ``playwright install``): the tests launch
/usr/bin/chromium. On a machine without it they install Debian's package when running as
root (what CI and `make test` on a fresh machine do), and otherwise fail saying how to get it.
MEMORYSYNC_UI_TESTS=skip skips them on a machine where neither is possible;
MEMORYSYNC_CHROMIUM=/path/to/chromium uses another Chromium build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM = os.environ.get("MEMORYSYNC_CHROMIUM", DEBIAN_CHROMIUM)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _install_chromium() -> str | None:
    """Install Debian's chromium as root; return why not, or None when it is there."""
    if Path(CHROMIUM).exists():
        return None
    if CHROMIUM != DEBIAN_CHROMIUM:
        return f"MEMORYSYNC_CHROMIUM={CHROMIUM} does not exist: point it at a Chromium binary, or unset it."
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"{CHROMIUM} is missing: run `sudo apt-get install -y chromium` (Debian/Ubuntu), or `make test-ui` as root."
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=300"]
    for command in (
        ["apt-get", *lock, "install", "-y", "chromium"],
        ["apt-get", *lock, "update"],
        ["apt-get", *lock, "install", "-y", "chromium"],
    ):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode == 0 and Path(CHROMIUM).exists():
            return None
    return f"apt-get could not install chromium:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


# Module scope: playwright's sync API keeps an event loop of its own; it must be gone before
# the async tests of other modules run.
@pytest.fixture(scope="module")
def browser_context(tmp_path_factory) -> Iterator[object]:
    if os.environ.get("MEMORYSYNC_UI_TESTS") == "skip":
        pytest.skip("MEMORYSYNC_UI_TESTS=skip")
    problem = _install_chromium()
    if problem:
        pytest.fail(problem, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            user_data_dir=str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 760},
        )
        context.set_default_timeout(15_000)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser_context) -> Iterator[object]:
    """A fresh tab (its own sessionStorage); fails the test on any script error in the page."""
    tab = browser_context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        tab.close()
    assert not errors, errors
