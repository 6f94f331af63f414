"""``serve --log-format json``: every log record as one JSON object on one line.

Each object has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``; a request's
record (logger ``memorysync_server.access``, one per request) adds ``request_id`` (the
``X-Request-ID`` a proxy sent, when it is a plain token, else a new one), ``tenant`` (of the key,
when the server accepts it), ``route`` (the template, never the path sent), ``method``,
``status`` and ``duration_ms``. No record carries a memory's text or a key: the server's own log
lines name sizes, kinds and fields, never values.
"""

from __future__ import annotations

import json
import logging
import traceback
from datetime import datetime, timezone
from typing import Any

ACCESS_FIELDS = ("request_id", "tenant", "route", "method", "status", "duration_ms")


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ACCESS_FIELDS:
            if name in record.__dict__:
                line[name] = record.__dict__[name]
        if record.exc_info and record.exc_info[0] is not None:
            line["error"] = record.exc_info[0].__name__
            line["traceback"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """The ``logging.config.dictConfig`` uvicorn applies in every process it runs (None: its own
    text lines, one per request from its access log)."""
    if log_format == "text":
        return None
    level = "DEBUG" if level == "trace" else level.upper()
    to_stdout = {"handlers": ["json"], "level": level, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "json": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stdout"}
        },
        "loggers": {
            "uvicorn": to_stdout,
            "uvicorn.error": {"level": level},
            # The access records are the server's own (memorysync_server.access), with its fields.
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "memorysync_server": to_stdout,
        },
    }
