"""schemathesis against the real app: every built-in check, positive and negative data, auth supplied.

The default run (``make test``) is sized to stay well under three minutes; ``make fuzz`` runs a
much deeper pass (fuzz_deep.py, outside the default collection: building its cases alone takes
seconds) and prints a summary of cases and failures.
Stateful links (put -> get -> delete, append -> list -> delete) are added to a copy of the spec
here, so ``openapi.yaml`` stays the plain contract.

Unknown request fields are accepted (openapi.yaml: ``x-unknown-fields: ignore-and-report``), so
the request schemas are open: schemathesis no longer sends "an undeclared property" as negative
data expecting a 422 (that answer would now be the bug), and its positive data now carries
random extra properties that must be accepted. Every other negative mutation (wrong types,
out-of-range values, missing fields, both branches of a oneOf) still runs. In exchange every
case checks the policy itself: the ``X-MemorySync-Ignored-Fields`` header of a 2xx answer names
exactly the top-level fields the operation does not declare, and no answer names a declared one.
"""

from __future__ import annotations

import copy
import functools
import itertools
import re
import urllib.parse
from collections import Counter
from typing import Any

import httpx
import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance

from memorysync_server import KeyRing, create_app
from memorysync_server.http.spec import SPEC_PATH, identity_pattern, json_size

from ..conftest import new_postgres_database

TENANT = "t_fuzz"
KEY = "ms_test_fuzz0000000000000000"
PROJECT = f"proj_{TENANT}"
DEFAULT_EXAMPLES = 30
DEEP_EXAMPLES = 1000
DEFAULT_SCENARIOS = 25
DEEP_SCENARIOS = 500
AUTH = {"X-API-Key": KEY}

_keys = KeyRing()
_keys.add(KEY, TENANT)
STATS: Counter[str] = Counter()


@functools.cache
def _spec_doc() -> dict[str, Any]:
    """openapi.yaml, parsed once (libyaml) on first use: every schema below is a copy. Nothing
    heavy runs at import: the apps and the schemas are fixtures, and the schemathesis tests load
    theirs from a fixture (schemathesis.pytest.from_fixture), so their cases, coverage-phase
    boundary values included, are built when they run, not when the suite is collected."""
    doc: dict[str, Any] = yaml.load(
        SPEC_PATH.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    )
    return doc


class _LaterApp:
    """An ASGI app that forwards to one set later, by the fixture that builds it."""

    app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


APP = _LaterApp()
POSTGRES_APP = _LaterApp()


def _linked_spec() -> dict[str, Any]:
    spec = copy.deepcopy(_spec_doc())
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
    paths["/v1/state/put"]["post"]["responses"]["200"]["links"]["NamespacesOfPut"] = {
        "operationId": "list_state_namespaces",
        "requestBody": {
            "tenant_id": "$request.body#/tenant_id",
            "user_id": "$request.body#/user_id",
            "source": "$response.body#/item/source",
            "prefix": "$response.body#/item/namespace",
        },
    }
    # No link from /memory/add to the routes naming one memory: its answer has an `id` only when
    # something was stored, and a link that resolves on some runs and not on others makes
    # hypothesis' replay of a stateful scenario draw different data (FlakyStrategyDefinition).
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


def _schema(max_examples: int, app: Any = APP, *, coverage: bool = True) -> Any:
    schema = schemathesis.openapi.from_dict(_linked_spec())
    schema.app = app
    schema.config.generation.update(
        modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
        max_examples=max_examples,
        with_security_parameters=False,
    )
    schema.config.phases.coverage.enabled = coverage

    return schema


@functools.cache
def _identity() -> re.Pattern[str]:
    return identity_pattern(_spec_doc())


def _valid_id(value: Any) -> bool:
    # Negative data stays negative: an id the contract refuses (x-identity) is not swapped.
    return isinstance(value, str) and 1 <= len(value) <= 256 and bool(_identity().search(value))


def _aim(case: Any, tenant: str = TENANT) -> None:
    """Swap valid tenant and project ids for the key's own, so most cases reach the handlers
    instead of stopping at 403/404. Invalid values stay as generated (negative data stays
    negative); done here rather than in hooks so the coverage phase is aimed too."""
    if isinstance(case.body, dict) and _valid_id(case.body.get("tenant_id")):
        case.body["tenant_id"] = tenant
    # Path parameters arrive percent-encoded: "%11" reads as a valid id until it is decoded, and
    # swapping it for the key's tenant made a negative case valid but for its query (a rare
    # failure: "Schema-violating request accepted" on GET .../list with unknown query fields).
    path = case.path_parameters if isinstance(case.path_parameters, dict) else {}
    if isinstance(path.get("tenant_id"), str) and _valid_id(urllib.parse.unquote(path["tenant_id"])):
        path["tenant_id"] = tenant
    if case.headers is not None and _valid_id(case.headers.get("X-Project-ID")):
        case.headers["X-Project-ID"] = f"proj_{tenant}"
    if _lacks_end_user(case):
        case.headers = {**(case.headers or {}), "X-End-User-ID": "fuzz-user"}


def _lacks_end_user(case: Any) -> bool:
    """Where X-End-User-ID is optional the end user may come from the body instead; a case with
    neither is a 400 (no end user) that the schema cannot express, so such cases get one."""
    parameters = case.operation.definition.raw.get("parameters", [])
    return (
        any(p.get("$ref", "").endswith("/EndUserIdOptional") for p in parameters)
        and "X-End-User-ID" not in (case.headers or {})
        and not (isinstance(case.body, dict) and isinstance(case.body.get("end_user_id"), str))
    )


@pytest.fixture(scope="module")
def default_schema() -> Any:
    return _schema(DEFAULT_EXAMPLES)


@pytest.fixture(scope="module")
def postgres_schema(postgres_app: Any) -> Any:
    """The same run against the PostgreSQL engine (its app needs the session's PostgreSQL server).
    Its cases are the SQLite run's minus the coverage phase's boundary values, which are about the
    contract rather than the engine and take seconds to build."""
    return _schema(DEFAULT_EXAMPLES, app=POSTGRES_APP, coverage=False)


def _loaded(app: Any) -> Any:
    """``app`` once its model has loaded: GET /ready answers 503 before, which is not a contract case."""
    embedder = app.services.search.embedder
    assert not hasattr(embedder, "settled") or embedder.settled(120), "the model did not load in 120 s"
    return app


@pytest.fixture(scope="module")
def postgres_app(postgres_cluster: Any) -> Any:
    name, url = new_postgres_database(postgres_cluster)
    POSTGRES_APP.app = _loaded(create_app(url, keys=_keys))
    yield POSTGRES_APP.app
    POSTGRES_APP.app.services.store.close()
    postgres_cluster.drop_database(name)


@pytest.fixture(scope="module", autouse=True)
def _sqlite_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    APP.app = _loaded(create_app(tmp_path_factory.mktemp("fuzz") / "fuzz.db", keys=_keys))
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
                    f"{failures} failing; {STATS[f'{prefix}_ignored']} with unknown fields; statuses {statuses}"
                )
    APP.app.services.close()


def _declared(node: Any) -> set[str]:
    """The top-level fields a request schema declares (any branch), read off the raw spec."""
    while isinstance(node, dict) and "$ref" in node:
        node = _spec_doc()["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    names = set(node.get("properties", {}))
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, ()):
            names |= _declared(branch)
    return names


def _check_ignored_report(case: Any, response: Any, prefix: str) -> None:
    """The policy's own check: what the header names against what the spec declares."""
    raw = case.operation.definition.raw
    values = response.headers.get("x-memorysync-ignored-fields")  # lower-cased keys, list values
    assert values is None or len(values) == 1, values
    report = values[0] if values else None
    if report is None and not (200 <= response.status_code < 300):
        return
    named: set[str] = set()  # top-level fields named
    under: set[str] = set()  # the top-level fields nested reports sit under (`turns` of `turns[0].x`)
    complete = True
    for entry in report.split(", ") if report else []:
        if entry.startswith("+") and entry.endswith(" more"):
            complete = False
            continue
        raw_top = entry.split("[", 1)[0].split(".", 1)[0]
        top = "" if raw_top == '""' else urllib.parse.unquote(raw_top)
        (named if raw_top == entry else under).add(top)
    if "requestBody" not in raw or not isinstance(case.body, dict):
        assert report is None, f"{raw['operationId']}: header on a request without a JSON object body"
        return
    declared = _declared(raw["requestBody"]["content"]["application/json"]["schema"])
    unknown = set(case.body) - declared
    assert named <= unknown, f"{raw['operationId']}: reported declared fields {sorted(named - unknown)}"
    assert under <= declared, f"{raw['operationId']}: nested reports under unknown fields {sorted(under)}"
    if 200 <= response.status_code < 300 and complete:
        assert named == unknown, (
            f"{raw['operationId']}: unknown fields not reported {sorted(unknown - named)}"
        )
    if unknown:
        STATS[f"{prefix}_ignored"] += 1


def _run(case: Any, prefix: str) -> None:
    STATS[f"{prefix}_cases"] += 1
    _aim(case)
    try:
        response = case.call_and_validate(headers=AUTH)
        _check_ignored_report(case, response, prefix)
    except Exception:
        STATS[f"{prefix}_failures"] += 1
        raise
    STATS[f"{prefix}_status_{response.status_code}"] += 1


@pytest.fixture(autouse=True)
def _schemathesis_node_id(request: pytest.FixtureRequest) -> None:
    """schemathesis 4.32's from_fixture runner renames each operation's subtest through
    ``request.node._nodeid``, which pytest 9 no longer has (its node ids are ``_id`` now):
    without this it fails with AttributeError before the first case."""
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


# One test item each; every operation runs as a subtest of it (test_contract[POST /memory/add]).
@schemathesis.pytest.from_fixture("default_schema").parametrize()
@hsettings(deadline=None, suppress_health_check=list(HealthCheck))
def test_contract(case: Any) -> None:
    _run(case, "default")


@schemathesis.pytest.from_fixture("postgres_schema").parametrize()
@hsettings(deadline=None, suppress_health_check=list(HealthCheck))
def test_contract_postgres(case: Any) -> None:
    _run(case, "postgres")


_scenarios = itertools.count()


def _workflow(schema: Any, prefix: str) -> Any:
    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        """Follows the links: put -> get/delete of the same record and the namespaces under it,
        append -> list/delete of the session, and the links schemathesis infers itself.

        Each scenario acts in a tenant of its own, minted in ``setup``. Some answers depend on
        what is already stored (``/memory/add`` answers 200 with the memory only when it existed,
        201 when it creates it), so in a shared tenant a link's bundle held a value or not
        depending on earlier scenarios, and hypothesis' replay of a scenario drew different data
        (FlakyStrategyDefinition on the inferred link ``/memory/add`` -> ``GET /memory/{memory_id}``)."""

        def setup(self) -> None:
            self.tenant = f"t_fuzz_s{next(_scenarios)}"
            self.auth = {"X-API-Key": f"ms_test_fuzz_{self.tenant}"}
            _keys.add(self.auth["X-API-Key"], self.tenant)

        def before_call(self, case: Any) -> None:
            _aim(case, self.tenant)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": self.auth}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            STATS[f"{prefix}_stateful_steps"] += 1
            try:
                case.validate_response(
                    response, additional_checks=additional_checks, headers=self.auth, transport_kwargs=kwargs
                )
            except Exception:
                STATS[f"{prefix}_stateful_failures"] += 1
                raise

    return Workflow


def test_stateful_links(default_schema: Any) -> None:
    _workflow(default_schema, "default").run(
        settings=hsettings(
            max_examples=DEFAULT_SCENARIOS,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


def test_stateful_links_postgres(postgres_schema: Any) -> None:
    _workflow(postgres_schema, "postgres").run(
        settings=hsettings(
            max_examples=DEFAULT_SCENARIOS,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


def test_missing_key_is_401_on_every_operation(default_schema: Any) -> None:
    """The auth check in the fuzz run probes this too; here it is spelled out once per operation."""
    for operation in (r.ok() for r in default_schema.get_all_operations()):
        if operation.definition.raw.get("security") == []:  # /health, /ready: keyless by design
            continue
        names = re.findall(r"{([^}]+)}", operation.path)
        params = {name: {"tenant_id": TENANT, "memory_id": 1}.get(name, "u") for name in names} or None
        case = operation.Case(path_parameters=params, headers={})
        response = case.call()
        assert response.status_code == 401, (operation.label, response.text)
        assert "X-API-Key" in response.json()["detail"]


# ---- hostile input: sizes around the caps and duplicated identity headers ----------------------
# openapi.yaml's caps (x-max-json-bytes) are invisible to schemathesis' generators, so these tests
# take its cases and grow the free-form fields to just under or well over their caps.
CAPS = {"metadata": 16_384, "value": 262_144, "payload": 16_384}
HOSTILE_DEFAULT_EXAMPLES = 40
HOSTILE_DEEP_EXAMPLES = 200


def _blob(size: int, keys: int) -> dict[str, str]:
    per_key = max(1, size // keys - 12)
    return {f"k{i}": "x" * per_key for i in range(keys)}


def _grow(case: Any, data: Any) -> list[tuple[str, int]]:
    """Replaces free-form fields of ``case.body`` with values around their caps; returns what was grown."""
    grown: list[tuple[str, int]] = []
    body = case.body
    if not isinstance(body, dict):
        return grown
    factor = data.draw(st.sampled_from([0.5, 0.9, 1.05, 2.0, 8.0]), label="size factor")
    for field in ("metadata", "value"):
        if field in body or (
            field == "metadata" and case.operation.definition.raw.get("operationId") in _WITH_METADATA
        ):
            keys = 32 if field == "metadata" else 200
            body[field] = _blob(int(CAPS[field] * factor), keys)
            grown.append((field, json_size(body[field])))
    for turn in body.get("turns") or []:
        if isinstance(turn, dict):
            turn["payload"] = _blob(int(CAPS["payload"] * factor), 16)
            grown.append(("payload", json_size(turn["payload"])))
    return grown


def _run_grown(case: Any, data: Any, prefix: str) -> None:
    STATS[f"{prefix}_cases"] += 1
    _aim(case)
    grown = _grow(case, data)
    try:
        # The grown case is no longer schema-valid data (its sizes break caps the generator can't
        # see), so "valid data must be accepted" no longer applies; every other check does.
        response = case.call_and_validate(headers=AUTH, excluded_checks=[positive_data_acceptance])
        if 200 <= response.status_code < 300:
            over = [(field, size) for field, size in grown if size > CAPS[field]]
            assert not over, f"accepted fields over their caps: {over}"
    except Exception:
        STATS[f"{prefix}_failures"] += 1
        raise
    STATS[f"{prefix}_status_{response.status_code}"] += 1


_WITH_METADATA = {"add_turn", "add_memory", "append_history", "put_state"}


def _grown_case(schema: Any, data: Any) -> Any:
    operations = [r.ok() for r in schema.get_all_operations()]
    with_body = [op for op in operations if op.definition.raw.get("operationId") in _WITH_METADATA]
    operation = data.draw(st.sampled_from(with_body), label="operation")
    return data.draw(operation.as_strategy(generation_mode=GenerationMode.POSITIVE), label="case")


@given(data=st.data())
@hsettings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=HOSTILE_DEFAULT_EXAMPLES)
def test_contract_oversized_fields(default_schema: Any, data: Any) -> None:
    _run_grown(_grown_case(default_schema, data), data, "oversized")


_IDENTITY = ["X-API-Key", "X-Project-ID", "X-End-User-ID"]
_ids = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=40)


async def _duplicated(name: str, first: str, second: str) -> httpx.Response:
    base = {"X-API-Key": KEY, "X-Project-ID": PROJECT, "X-End-User-ID": "u"}
    headers = [(k, v) for k, v in base.items() if k != name] + [(name, first), (name, second)]
    transport = httpx.ASGITransport(app=APP)
    async with httpx.AsyncClient(transport=transport, base_url="http://fuzz") as http:
        return await http.post("/memory/add", json={"text": "I'm vegan"}, headers=headers)


def _check_duplicated(name: str, first: str, second: str) -> None:
    import asyncio

    response = asyncio.run(_duplicated(name, first, second))
    if first.strip() != second.strip():
        assert response.status_code == 400, (name, first, second, response.text)
        assert name in response.json()["detail"]
    else:
        assert response.status_code != 400, (name, first, response.text)


@given(name=st.sampled_from(_IDENTITY), first=_ids, second=_ids)
@hsettings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=30)
def test_duplicated_identity_headers(name: str, first: str, second: str) -> None:
    _check_duplicated(name, first, second)
