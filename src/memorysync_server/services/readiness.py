"""Whether the server can serve every route now: the database answers, and the search model
(when the mode uses one) is loaded. ``GET /ready`` (http/health.py) encodes the answer."""

from __future__ import annotations

import threading
from typing import Any

from ..model.loading import FAILED, LOADING, encoder_choice, model_state

DATABASE_TIMEOUT_S = 2.0
_PROBE_SETTING = "readiness_probe"  # never written: reading it touches the database and nothing else


def readiness(services: Any) -> dict[str, Any]:
    """``{"status": "ready"|"starting"|"unavailable", "database", "model"[, "encoder"][, "detail"]}``:
    ``encoder`` (once the model is loaded) says which graph runs, how it was chosen and the timings."""
    database = _database(services)
    model, model_error = model_state(services.search.embedder)
    body: dict[str, Any] = {"status": "ready", "database": database, "model": model}
    choice = encoder_choice(services.search.embedder)
    if choice is not None:
        body["encoder"] = choice.as_dict()
    problems = []
    if database != "ok":
        problems.append(f"the database does not answer ({database})")
    if model == LOADING:
        problems.append("the search model is still loading")
    elif model == FAILED:
        problems.append(f"the search model could not be loaded: {model_error}")
    if problems:
        body["status"] = "starting" if model == LOADING and database == "ok" else "unavailable"
        body["detail"] = "; ".join(problems) + "."
    return body


def _database(services: Any) -> str:
    outcome: list[str] = []

    def probe() -> None:
        try:
            services.store.settings.get(_PROBE_SETTING)
            outcome.append("ok")
        except Exception as error:  # any driver error means "not reachable", whatever its type
            outcome.append(f"{type(error).__name__}: {error}".strip())

    # A database that hangs (a PostgreSQL host gone silent) must not hang the readiness answer.
    thread = threading.Thread(target=probe, name="memorysync-ready-probe", daemon=True)
    thread.start()
    thread.join(DATABASE_TIMEOUT_S)
    return outcome[0] if outcome else f"no answer within {DATABASE_TIMEOUT_S:g} s"
