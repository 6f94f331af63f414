"""The deep schemathesis pass (``make fuzz``): the default run's tests with many more cases.

Not named ``test_*.py``, so the default collection never builds these cases (seconds of work);
``make fuzz`` names this file. Fixtures and helpers come from test_contract_fuzz.py.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from .test_contract_fuzz import (
    _IDENTITY,
    DEEP_EXAMPLES,
    DEEP_SCENARIOS,
    HOSTILE_DEEP_EXAMPLES,
    KEY,
    _check_duplicated,
    _grown_case,
    _ids,
    _run,
    _run_grown,
    _schema,
    _schemathesis_node_id,  # noqa: F401  (from_fixture under pytest 9)
    _sqlite_app,  # noqa: F401  (the module's app, attached before the first case)
    _workflow,
)


@pytest.fixture(scope="module")
def deep_schema() -> Any:
    return _schema(DEEP_EXAMPLES)


@pytest.mark.fuzz
@schemathesis.pytest.from_fixture("deep_schema").parametrize()
@hsettings(deadline=None, suppress_health_check=list(HealthCheck))
def test_contract_deep(case: Any) -> None:
    _run(case, "deep")


@pytest.mark.fuzz
def test_stateful_links_deep(deep_schema: Any) -> None:
    _workflow(deep_schema, "deep").run(
        settings=hsettings(
            max_examples=DEEP_SCENARIOS,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


@pytest.mark.fuzz
@given(data=st.data())
@hsettings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=HOSTILE_DEEP_EXAMPLES)
def test_contract_oversized_fields_deep(deep_schema: Any, data: Any) -> None:
    _run_grown(_grown_case(deep_schema, data), data, "deep-oversized")


@pytest.mark.fuzz
@given(name=st.sampled_from(_IDENTITY), first=_ids, second=_ids | st.just(KEY))
@hsettings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=500)
def test_duplicated_identity_headers_deep(name: str, first: str, second: str) -> None:
    _check_duplicated(name, first, second)
