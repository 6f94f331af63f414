"""schemathesis against the real app: every built-in check, positive and negative data, auth supplied.

The default run (``make test``) is sized to stay well under three minutes; the ``fuzz``-marked
tests (``make fuzz``) run a much deeper pass and print a summary of cases and failures.
Stateful links (put -> get -> delete, append -> list -> delete) are added to a copy of the spec
here, so ``openapi.yaml`` stays the plain contract.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck
from hypothesis import settings as hsettings
from schemathesis import GenerationMode

from memorysync_server import KeyRing, create_app
from memorysync_server.spec import SPEC_PATH

TENANT = "t_fuzz"
KEY = "ms_test_fuzz0000000000000000"
PROJECT = f"proj_{TENANT}"
DEFAULT_EXAMPLES = 30
DEEP_EXAMPLES = 1000
DEFAULT_SCENARIOS = 25
DEEP_SCENARIOS = 500
AUTH = {"X-API-Key": KEY}

_DB_DIR = Path(tempfile.mkdtemp(prefix="memorysync-fuzz-"))
_keys = KeyRing()
_keys.add(KEY, TENANT)
APP = create_app(_DB_DIR / "fuzz.db", keys=_keys)
STATS: Counter[str] = Counter()


def _linked_spec() -> dict[str, Any]:
    spec = copy.deepcopy(yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    paths = spec["paths"]
    same_record = {
        "tenant_id": "$request.body#/tenant_id",
        "user_id": "$request.body#/user_id",
        "namespace": "$response.body#/item/namespace",
        "source": "$response.body#/item/source",
    }
    paths["/v1/state/put"]["post"]["responses"]["200"]["links"] = {
        "GetPutRecord": {
            "operationId": "get_state",
            "requestBody": {**same_record, "key": "$response.body#/item/key"},
        },
        "DeletePutRecord": {
            "operationId": "delete_state",
            "requestBody": {**same_record, "keys": ["$response.body#/item/key"]},
        },
    }
    session = {
        "tenant_id": "$request.body#/tenant_id",
        "user_id": "$request.body#/user_id",
        "session_id": "$request.body#/session_id",
    }
    paths["/v1/history/append"]["post"]["responses"]["200"]["links"] = {
        "ListSession": {"operationId": "list_history", "requestBody": session},
        "DeleteSession": {"operationId": "delete_history", "requestBody": session},
    }
    return spec


def _schema(max_examples: int) -> Any:
    schema = schemathesis.openapi.from_dict(_linked_spec())
    schema.app = APP
    schema.config.generation.update(
        modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
        max_examples=max_examples,
        with_security_parameters=False,
    )

    return schema


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= 256


def _aim(case: Any) -> None:
    """Swap valid tenant and project ids for the key's own, so most cases reach the handlers
    instead of stopping at 403/404. Invalid values stay as generated (negative data stays
    negative); done here rather than in hooks so the coverage phase is aimed too."""
    if isinstance(case.body, dict) and _valid_id(case.body.get("tenant_id")):
        case.body["tenant_id"] = TENANT
    if isinstance(case.path_parameters, dict) and _valid_id(case.path_parameters.get("tenant_id")):
        case.path_parameters["tenant_id"] = TENANT
    if case.headers is not None and _valid_id(case.headers.get("X-Project-ID")):
        case.headers["X-Project-ID"] = PROJECT


default_schema = _schema(DEFAULT_EXAMPLES)
deep_schema = _schema(DEEP_EXAMPLES)


@pytest.fixture(scope="module", autouse=True)
def _cleanup(request: pytest.FixtureRequest):
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None and STATS:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            for prefix in sorted({key.split("_")[0] for key in STATS}):
                cases, steps = STATS[f"{prefix}_cases"], STATS[f"{prefix}_stateful_steps"]
                failures = STATS[f"{prefix}_failures"] + STATS[f"{prefix}_stateful_failures"]
                statuses = ", ".join(
                    f"{k.rsplit('_', 1)[1]}: {v}"
                    for k, v in sorted(STATS.items())
                    if k.startswith(f"{prefix}_status_")
                )
                reporter.write_line(
                    f"schemathesis {prefix} run: {cases} cases + {steps} stateful steps, "
                    f"{failures} failing; statuses {statuses}"
                )
    APP.services.store.close()
    shutil.rmtree(_DB_DIR, ignore_errors=True)


def _run(case: Any, prefix: str) -> None:
    STATS[f"{prefix}_cases"] += 1
    _aim(case)
    try:
        response = case.call_and_validate(headers=AUTH)
    except Exception:
        STATS[f"{prefix}_failures"] += 1
        raise
    STATS[f"{prefix}_status_{response.status_code}"] += 1


@default_schema.parametrize()
@hsettings(deadline=None, suppress_health_check=list(HealthCheck))
def test_contract(case: Any) -> None:
    _run(case, "default")


@pytest.mark.fuzz
@deep_schema.parametrize()
@hsettings(deadline=None, suppress_health_check=list(HealthCheck))
def test_contract_deep(case: Any) -> None:
    _run(case, "deep")


def _workflow(schema: Any, prefix: str) -> Any:
    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        """Follows the links: put -> get/delete of the same record, append -> list/delete of the session."""

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": AUTH}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            STATS[f"{prefix}_stateful_steps"] += 1
            try:
                case.validate_response(
                    response, additional_checks=additional_checks, headers=AUTH, transport_kwargs=kwargs
                )
            except Exception:
                STATS[f"{prefix}_stateful_failures"] += 1
                raise

    return Workflow


def test_stateful_links() -> None:
    _workflow(default_schema, "default").run(
        settings=hsettings(
            max_examples=DEFAULT_SCENARIOS,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


@pytest.mark.fuzz
def test_stateful_links_deep() -> None:
    _workflow(deep_schema, "deep").run(
        settings=hsettings(
            max_examples=DEEP_SCENARIOS,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


def test_missing_key_is_401_on_every_operation() -> None:
    """The auth check in the fuzz run probes this too; here it is spelled out once per operation."""
    for operation in (r.ok() for r in default_schema.get_all_operations()):
        params = {"tenant_id": TENANT, "user_id": "u"} if "{" in operation.path else None
        case = operation.Case(path_parameters=params, headers={})
        response = case.call()
        assert response.status_code == 401, (operation.label, response.text)
        assert "X-API-Key" in response.json()["detail"]
