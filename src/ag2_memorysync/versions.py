"""The AG2-classic releases this adapter is proven on (``make matrix``), and what to tell users of others.

AG2-classic has shipped its top-level ``autogen`` package under three distribution names:
``autogen`` (what the ``ag2`` extra installs), ``pyautogen`` and ``ag2`` up to 0.14.0. Some
``autogen`` releases (0.5 to 0.14.0) are metadata-only aliases that depend on ``pyautogen`` or
``ag2`` of the same version, so what counts is which distribution's files hold the package.
``ag2`` 1.x is the rewrite: it ships an ``ag2`` package, has no ``register_hook``, and is served by
``ag2_memorysync.v1`` (the ``ag2-v1`` extra) instead.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from importlib import metadata
from typing import Any

OLDEST = (0, 3, 2)
BEYOND = (0, 15)  # first release line not run
SUPPORTED = "0.3.2 to 0.14.x"
CANDIDATES = ("autogen", "pyautogen", "ag2")
PACKAGE_MARKER = "autogen/__init__.py"

INSTALL_HINT = (
    "Install AG2-classic 0.3.2 to 0.14.x: pip install 'memorysync-kit[ag2]' (installs autogen>=0.3.2,<0.15). "
    "If you already use the `ag2` distribution (0.3.2 to 0.14.0), keep it and install the kit without the "
    "extra: pip install memorysync-kit."
)


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def autogen_owners(distribution: Callable[[str], Any] = metadata.distribution) -> dict[str, str]:
    """Installed distributions whose own files hold the ``autogen`` package, name -> version.

    ``distribution`` is ``importlib.metadata.distribution`` (raising ``PackageNotFoundError``).
    """
    owners = {}
    for name in CANDIDATES:
        try:
            dist = distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if any(str(path).replace("\\", "/") == PACKAGE_MARKER for path in dist.files or ()):
            owners[name] = dist.version
    return owners


def check_installed(distribution: Callable[[str], Any] = metadata.distribution) -> None:
    """Warn (never fail: the adapter is duck-typed) about an untested release or two owners of ``autogen``."""
    owners = autogen_owners(distribution)
    if len(owners) > 1:
        listed = ", ".join(f"{name} {version}" for name, version in owners.items())
        warnings.warn(
            f"Several installed distributions write the same `autogen` package ({listed}); uninstalling any "
            "of them breaks the others. Keep one, e.g. pip uninstall autogen if you meant to use ag2.",
            RuntimeWarning,
            stacklevel=3,
        )
    for name, version in owners.items():
        if not OLDEST <= _release(version) < BEYOND:
            warnings.warn(
                f"ag2_memorysync is tested on AG2-classic {SUPPORTED}; {name} {version} is outside that "
                f"range. {INSTALL_HINT}",
                RuntimeWarning,
                stacklevel=3,
            )
