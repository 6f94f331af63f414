"""Checks that make a request unambiguous before any field is read: one identity per header,
strictly decoded path segments and query strings, a JSON content type, and a body-size cap."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote_to_bytes

from .errors import ApiError

# Identity headers: a request carrying one of these twice with different values could be read as
# either identity (proxies keep the first, frameworks the last), so it is refused, never guessed.
_IDENTITY_HEADERS = {
    "x-api-key": "X-API-Key",
    "x-project-id": "X-Project-ID",
    "x-end-user-id": "X-End-User-ID",
}
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def too_large(limit: int, size: int | None) -> ApiError:
    told = f" ({size} bytes)" if size is not None else ""
    return ApiError(
        413,
        f"Request body too large{told}: this server accepts at most {limit} bytes. Split the write "
        "(fewer turns per history append, smaller values), or raise the server's --max-body-bytes.",
    )


def refuse_conflicting_identity(raw_headers: list[tuple[bytes, bytes]]) -> None:
    seen: dict[str, bytes] = {}
    for raw_name, value in raw_headers:
        name = raw_name.decode("latin-1").lower()
        if name not in _IDENTITY_HEADERS:
            continue
        if name in seen and seen[name].strip() != value.strip():
            raise ApiError(
                400,
                f"The request carries {_IDENTITY_HEADERS[name]} more than once with different values, so "
                "it could act for either. Send the header exactly once.",
            )
        seen[name] = value


def path_segment(name: str, raw: str) -> str:
    """A percent-decoded path segment; malformed escapes or non-UTF-8 bytes are a 400, never a
    replacement character that would alias another user's id."""
    if _BAD_PERCENT.search(raw):
        raise ApiError(
            400,
            f"Path segment {name!r} has malformed percent-encoding ({raw!r}): every '%' must start an "
            "escape of two hex digits. Percent-encode the id's UTF-8 bytes (a literal '%' is %25).",
        )
    try:
        return unquote_to_bytes(raw.encode("latin-1")).decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(
            400,
            f"Path segment {name!r} ({raw!r}) is not UTF-8 once percent-decoded. Percent-encode the "
            "id's UTF-8 bytes.",
        ) from None


def header_text(name: str, raw: bytes) -> str:
    """A header value as UTF-8, as a non-ASCII id is sent (and as the same id is in a path); other
    bytes are a 400, never a latin-1 reading that would name another user (b"\\xe5sa" is not "åsa")."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(
            400,
            f"Header {name} is not UTF-8 ({raw!r}). Send the value's UTF-8 bytes (an id such as 'åsa' "
            "is b'\\xc3\\xa5sa').",
        ) from None


def query_params(raw: bytes) -> dict[str, str]:
    """The query string's parameters; one given twice with different values is a 400 (which one
    counts differs between frameworks, as for a repeated identity header)."""
    try:
        pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise ApiError(
            400, "The query string is not percent-encoded UTF-8. Percent-encode parameter values."
        ) from None
    params: dict[str, str] = {}
    for name, value in pairs:
        if params.setdefault(name, value) != value:
            raise ApiError(
                400,
                f"The query string gives {name!r} more than once with different values, so it could "
                "mean either. Give each parameter once.",
            )
    return params


def require_json(content_type: str | None) -> None:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == "application/json" or (media.startswith("application/") and media.endswith("+json")):
        return
    raise ApiError(
        415,
        f"Unsupported Media Type {media or '(no Content-Type header)'}: this route takes a JSON body. "
        "Send it with 'Content-Type: application/json'.",
    )
