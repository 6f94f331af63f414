"""Request fields openapi.yaml does not declare: accepted, removed before any route acts on the
body, and reported back (openapi.yaml's ``x-unknown-fields: ignore-and-report``).

A client newer than the contract keeps working, and a misspelt field (``tgas``) is still visible
to whoever sent it: in the response header and in one warning line of the server's log.
"""

from __future__ import annotations

import logging
from typing import Any

from .spec import Fields, Operation

HEADER = "X-MemorySync-Ignored-Fields"
# openapi.yaml's IgnoredFields header: at most this many characters.
MAX_REPORT_CHARS = 1024
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

FieldPath = tuple[str | int, ...]

log = logging.getLogger("memorysync_server")


def strip_unknown(fields: Fields, value: Any, at: FieldPath = ()) -> tuple[Any, list[FieldPath]]:
    """``value`` without the keys ``fields`` does not declare, and the paths of those keys."""
    ignored: list[FieldPath] = []
    return _strip(fields, value, at, ignored), ignored


def _strip(fields: Fields, value: Any, at: FieldPath, ignored: list[FieldPath]) -> Any:
    if isinstance(value, dict) and fields.closed is True:
        kept = {}
        for name, child in value.items():
            sub = fields.names.get(name)
            if sub is None:
                ignored.append((*at, name))
            else:
                kept[name] = _strip(sub, child, (*at, name), ignored)
        return kept
    if isinstance(value, list) and fields.items is not None:
        return [_strip(fields.items, child, (*at, i), ignored) for i, child in enumerate(value)]
    return value


def _name(name: str) -> str:
    # Field names are any JSON string: keep the report one ASCII header line that splits on ",".
    if not name:
        return '""'  # `"` is always escaped in a name, so this stands only for the empty one
    if all(ch in _SAFE for ch in name):
        return name
    return "".join(ch if ch in _SAFE else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in name)


def render_path(path: FieldPath) -> str:
    """``("turns", 0, "sesion")`` -> ``turns[0].sesion``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{_name(part)}" if out else _name(part))
    return out


def render(paths: list[FieldPath], limit: int = MAX_REPORT_CHARS) -> str:
    """The comma-separated report, cut to ``limit`` characters with a ``+<n> more`` tail."""
    names = [render_path(p) for p in paths]
    text = ", ".join(names)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for i, name in enumerate(names):
        tail = f"+{len(names) - i - 1} more"
        cost = len(name) + (2 if kept else 0)
        if used + cost + 2 + len(tail) > limit:
            break
        kept.append(name)
        used += cost
    return ", ".join([*kept, f"+{len(names) - len(kept)} more"])


def report(op: Operation, ignored: list[FieldPath]) -> dict[str, str]:
    """Logs the ignored fields of one request and returns the response header naming them."""
    if not ignored:
        return {}
    text = render(ignored)
    log.warning("%s %s (%s): ignored unknown request field(s): %s", op.method, op.path, op.operation_id, text)
    return {HEADER: text}


def hint_misspelt(items: list[dict[str, Any]], ignored: list[FieldPath]) -> None:
    """A required field reported missing next to an ignored one is most likely misspelt: say so."""
    if not ignored:
        return
    for item in items:
        loc = item.get("loc") or []
        if item.get("type") != "missing" or len(loc) < 2 or loc[0] != "body":
            continue
        parent = tuple(loc[1:-1])
        near = [p for p in ignored if p[:-1] == parent]
        if near:
            names = ", ".join(repr(p[-1]) for p in near[:5])
            item["msg"] = (
                f"{item['msg']} (this object's unknown field(s) {names} were ignored: a misspelling?)"
            )
