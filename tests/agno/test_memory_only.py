"""The memory-only contract, walked over EVERY public method of the installed agno (no server needed).

The walk does not reuse the implementation's lists: it asks agno which public names its db base
classes have today and checks each against a classification written out here, so a method a
later agno adds fails the walk until someone classifies it. Memory methods must be implemented
(their behaviour is tested against the server elsewhere); every other method must raise the
memory-only error with the right wiring in its message.
"""

from __future__ import annotations

import asyncio
import inspect

import pytest
from agno.db.base import AsyncBaseDb, BaseDb
from agno.memory import MemoryManager

from agno_memorysync import (
    AsyncMemorySyncDb,
    MemorySyncClearAllError,
    MemorySyncDb,
    MemorySyncMemoryOnlyError,
)

# Every public name of agno 3.1's BaseDb / AsyncBaseDb, classified by hand. A name agno adds
# later is in none of these sets, and the walk below fails until someone decides where it goes.
MEMORY = {
    "clear_memories",
    "delete_user_memory",
    "delete_user_memories",
    "get_all_memory_topics",
    "get_user_memory",
    "get_user_memories",
    "get_user_memory_stats",
    "upsert_user_memory",
    "upsert_memories",
}
# The inherited default is right for a memory store (close is overridden to close the client).
HARMLESS = {"close", "to_dict", "default_schema_version"}
MEMORY_ONLY_ERROR = set(
    [
        "add_product_routine",
        "append_transcript_entries",
        "assign_authz_role",
        "authz_name_is_role",
        "calculate_metrics",
        "cancel_pending_run",
        "claim_due_schedule",
        "complete_task_run",
        "consume_mcp_oauth_transaction",
        "count_authz_audit_events",
        "count_authz_users",
        "count_authz_users_by_day",
        "count_authz_users_by_status",
        "count_company_acceptances",
        "create_approval",
        "create_component_with_config",
        "create_eval_run",
        "create_mcp_oauth_client",
        "create_product",
        "create_project",
        "create_schedule",
        "create_schedule_run",
        "create_service_account",
        "create_source",
        "create_span",
        "create_spans",
        "create_task",
        "delete_approval",
        "delete_auth_token",
        "delete_authz_policy",
        "delete_authz_role",
        "delete_authz_role_meta",
        "delete_authz_user",
        "delete_compactions_for_session",
        "delete_component",
        "delete_config",
        "delete_eval_runs",
        "delete_knowledge_content",
        "delete_learning",
        "delete_mcp_oauth_code",
        "delete_mcp_oauth_refresh",
        "delete_mcp_oauth_refresh_family",
        "delete_product",
        "delete_project",
        "delete_run",
        "delete_runs",
        "delete_schedule",
        "delete_schedule_runs",
        "delete_service_account",
        "delete_session",
        "delete_sessions",
        "delete_source",
        "delete_task",
        "delete_tool_results",
        "delete_transcript",
        "delete_user_learnings",
        "disable_schedules_for_target",
        "from_dict",
        "get_approval",
        "get_approvals",
        "get_auth_token",
        "get_authz_direct_roles",
        "get_authz_direct_roles_many",
        "get_authz_policies",
        "get_authz_role_meta",
        "get_authz_role_policies",
        "get_authz_user",
        "get_compaction",
        "get_compactions_for_session",
        "get_component",
        "get_config",
        "get_current_config",
        "get_dependents",
        "get_eval_run",
        "get_eval_runs",
        "get_expired_tool_results",
        "get_knowledge_content",
        "get_knowledge_contents",
        "get_latest_config",
        "get_latest_configs",
        "get_latest_schedule_runs",
        "get_latest_schema_version",
        "get_learning",
        "get_learning_by_id",
        "get_learnings",
        "get_learnings_user_stats",
        "get_links",
        "get_mcp_oauth_client",
        "get_mcp_oauth_code",
        "get_mcp_oauth_keys",
        "get_mcp_oauth_refresh",
        "get_mcp_oauth_transaction",
        "get_metrics",
        "get_pending_approval_count",
        "get_product",
        "get_product_counts",
        "get_products",
        "get_project",
        "get_project_counts",
        "get_projects",
        "get_run",
        "get_runs",
        "get_schedule",
        "get_schedule_by_name",
        "get_schedule_run",
        "get_schedule_runs",
        "get_schedules",
        "get_service_account",
        "get_service_account_by_name",
        "get_service_account_by_token_hash",
        "get_service_accounts",
        "get_session",
        "get_sessions",
        "get_source",
        "get_sources",
        "get_span",
        "get_span_stats",
        "get_spans",
        "get_task",
        "get_tasks",
        "get_tool_result",
        "get_tool_results_for_session",
        "get_trace",
        "get_trace_stats",
        "get_traces",
        "get_transcript_entries",
        "insert_mcp_oauth_key",
        "is_authz_user_disabled",
        "list_authz_role_meta",
        "list_authz_role_subjects",
        "list_authz_roles",
        "list_authz_user_ids",
        "list_authz_users",
        "list_components",
        "list_configs",
        "list_learnings",
        "list_transcript_sessions",
        "list_transcript_subpaths",
        "load_component_graph",
        "mark_mcp_oauth_client_consumed",
        "read_authz_audit_events",
        "reassign_session_owner",
        "record_authz_audit_event",
        "record_authz_decision",
        "release_schedule",
        "rename_eval_run",
        "rename_session",
        "replace_authz_subject_roles",
        "restore_component",
        "restore_product",
        "restore_project",
        "restore_source",
        "restore_task",
        "search_compactions",
        "search_learnings",
        "set_authz_role_policies",
        "set_authz_user_disabled",
        "set_current_version",
        "stamp_schedule_provenance",
        "start_task_run",
        "store_mcp_oauth_code",
        "store_mcp_oauth_refresh",
        "store_mcp_oauth_transaction",
        "table_exists",
        "transition_project",
        "transition_task",
        "unassign_authz_role",
        "update_approval",
        "update_approval_run_status",
        "update_eval_run_user_id",
        "update_learning",
        "update_product",
        "update_project",
        "update_schedule",
        "update_schedule_run",
        "update_service_account",
        "update_source",
        "update_task",
        "upsert_auth_token",
        "upsert_authz_policy",
        "upsert_authz_role_meta",
        "upsert_authz_user",
        "upsert_compaction",
        "upsert_component",
        "upsert_config",
        "upsert_knowledge_content",
        "upsert_learning",
        "upsert_run",
        "upsert_schema_version",
        "upsert_session",
        "upsert_sessions",
        "upsert_tool_result",
        "upsert_trace",
    ]
)
KEY = {"api_key": "ms_test_unused", "base_url": "http://127.0.0.1:9", "tenant_id": "t"}


def _public(base: type) -> set[str]:
    return {name for name in dir(base) if not name.startswith("_")}


def _call(method) -> object:
    result = method("x", "y")
    if inspect.isawaitable(result):  # a raiser must not hide inside an un-awaited coroutine
        asyncio.run(result)
    return result


def test_the_classification_is_a_partition():
    assert not (MEMORY & HARMLESS) and not (MEMORY & MEMORY_ONLY_ERROR) and not (HARMLESS & MEMORY_ONLY_ERROR)
    # the defaults that used to answer quietly are in the error group
    assert {"get_runs", "get_run", "delete_run", "delete_runs", "upsert_run", "reassign_session_owner"} <= (
        MEMORY_ONLY_ERROR
    )


@pytest.mark.parametrize(
    ("cls", "base", "agent_db"),
    [(MemorySyncDb, BaseDb, "SqliteDb"), (AsyncMemorySyncDb, AsyncBaseDb, "AsyncSqliteDb")],
)
def test_every_public_method_of_the_installed_agno_is_classified_and_behaves_so(cls, base, agent_db):
    names = _public(base)
    assert len(names) >= 100, "agno's db interface looks wrong; is agno 3 installed?"
    unclassified = names - MEMORY - HARMLESS - MEMORY_ONLY_ERROR
    assert not unclassified, (
        f"agno added db methods nobody classified: {sorted(unclassified)}. Add each to MEMORY (and "
        "implement it), HARMLESS (if agno's default is right for a memory store), or MEMORY_ONLY_ERROR."
    )
    db = cls(**KEY)  # instantiable: no abstract left unimplemented
    assert isinstance(db, base) and not getattr(cls, "__abstractmethods__", frozenset())

    for name in sorted(names & MEMORY):
        assert getattr(cls, name) is not getattr(base, name), f"{name} is not implemented"
    for name in sorted(names & MEMORY_ONLY_ERROR):
        with pytest.raises(MemorySyncMemoryOnlyError) as info:
            _call(getattr(db, name))
        message = str(info.value)
        assert isinstance(info.value, NotImplementedError) and f"{name}()" in message
        if name != "from_dict":
            assert f"Agent(db={agent_db}(" in message and f"MemoryManager(db={cls.__name__}())" in message
    if "to_dict" in names:  # AsyncBaseDb has it from agno 3.1 on
        assert db.to_dict()["id"] == db.id
    assert getattr(cls, "default_schema_version", None) == getattr(base, "default_schema_version", None)


@pytest.mark.parametrize("cls", [MemorySyncDb, AsyncMemorySyncDb])
def test_the_quiet_run_defaults_now_raise(cls):
    db = cls(**KEY)
    calls = {
        "get_runs": {"session_id": "s"},
        "get_run": {"run_id": "r"},
        "delete_run": {"run_id": "r"},
        "delete_runs": {"run_ids": ["r"]},
        "upsert_run": {"run": None, "session_id": "s"},
        "reassign_session_owner": {"session_id": "s", "new_user_id": "u"},  # agno 3.1+
    }
    present = {name: kwargs for name, kwargs in calls.items() if hasattr(BaseDb, name)}
    assert {"get_runs", "get_run", "upsert_run"} <= set(present)
    for name, kwargs in present.items():
        with pytest.raises(MemorySyncMemoryOnlyError, match="memories\\* only"):
            getattr(db, name)(**kwargs)


def test_a_team_on_a_memory_only_db_fails_with_the_wiring():
    from agno.agent import Agent
    from agno.team import Team

    from .scripted import ScriptedModel

    model = ScriptedModel()
    member = Agent(name="m", model=model, telemetry=False)
    team = Team(members=[member], model=model, db=MemorySyncDb(**KEY), telemetry=False)
    with pytest.raises(MemorySyncMemoryOnlyError, match=r"MemoryManager\(db=MemorySyncDb\(\)\)"):
        team.run("hello")


@pytest.mark.parametrize("cls", [MemorySyncDb, AsyncMemorySyncDb])
def test_clear_memories_always_refuses_and_names_the_per_user_wipe(cls):
    db = cls(**KEY)
    with pytest.raises(MemorySyncClearAllError, match=r"forget_user_memories\(user_id\)"):
        db.clear_memories()


def test_memory_manager_clear_cannot_wipe_everyone():
    manager = MemoryManager(db=MemorySyncDb(**KEY))
    with pytest.raises(MemorySyncClearAllError):
        manager.clear()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"recall_timeout": 0}, ValueError, "recall_timeout"),
        ({"write_timeout": -1}, ValueError, "write_timeout"),
        ({"default_user_id": " "}, ValueError, "default_user_id"),
        ({"source": ""}, ValueError, "source"),
        ({"tenant_id": ""}, ValueError, "tenant_id"),
        ({"fail_open_writes": "yes"}, TypeError, "fail_open_writes"),
        ({"base_url": "ftp://x"}, ValueError, "http"),
    ],
)
def test_bad_configuration_fails_at_construction_with_the_fix(kwargs, error, match):
    for cls in (MemorySyncDb, AsyncMemorySyncDb):
        with pytest.raises(error, match=match):
            cls(**{**KEY, **kwargs})


def test_missing_api_key_says_how_to_set_it():
    with pytest.raises(ValueError, match="MEMORYSYNC_API_KEY"):
        MemorySyncDb(api_key="", base_url="http://127.0.0.1:9")


def test_a_sync_transport_is_refused_with_the_fix():
    import httpx

    with pytest.raises(TypeError, match="AsyncBaseTransport"):
        MemorySyncDb(**KEY, transport=httpx.HTTPTransport())


@pytest.mark.parametrize("cls", [MemorySyncDb, AsyncMemorySyncDb])
def test_bad_arguments_raise_before_any_request(cls):
    # The base URL is unreachable: reaching the network would fail open silently instead.
    db = cls(**KEY)

    def run(result):
        return asyncio.run(result) if inspect.isawaitable(result) else result

    with pytest.raises(ValueError, match="page"):
        run(db.get_user_memories(page=2))
    with pytest.raises(ValueError, match="limit"):
        run(db.get_user_memories(limit=0))
    with pytest.raises(TypeError, match="forget_user_memories"):
        run(db.delete_user_memories(None))
    with pytest.raises(ValueError, match="explicit user_id"):
        run(db.forget_user_memories(None))
    with pytest.raises(TypeError, match="UserMemory"):
        run(db.upsert_user_memory({"memory": "x"}))
