"""The parts that need no server: validation, attaching, message text, roles, dedup, injection."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import pytest

from ag2_memorysync import (
    DEFAULT_CONTEXT_TEMPLATE,
    MemorySyncCapability,
    RecallOptions,
    RetryPolicy,
    WriteOptions,
)
from ag2_memorysync.content import spoken_text
from ag2_memorysync.dedup import DedupRegistry
from ag2_memorysync.placement import inject
from ag2_memorysync.recall import render
from ag2_memorysync.roles import role_of
from memorysync_core import MAX_TEXT_CHARS, fnv1a64, turn_seed
from tests.ag2.scripted import assistant, sequence

CLOSED = "http://127.0.0.1:9"  # discard port: nothing answers, connections are refused at once


def make(**kwargs):
    kwargs.setdefault("user_id", "u-1")
    kwargs.setdefault("api_key", "ms_test_x")
    kwargs.setdefault("base_url", CLOSED)
    return MemorySyncCapability(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "fix"),
    [
        ({"user_id": ""}, "user_id="),
        ({"user_id": "   "}, "user_id="),
        ({"capture": "everything"}, "'both'"),
        ({"session_id": ""}, "session_id"),
        ({"top_k": 0}, "top_k"),
        ({"recall_timeout": 0}, "recall_timeout"),
        ({"context_template": "memories: {}"}, "{context}"),
        ({"recall": RecallOptions(), "top_k": 3}, "top_k given both"),
        ({"request_timeout": 0}, "request_timeout"),
    ],
)
def test_constructor_rejects_bad_input_with_the_fix(kwargs, fix):
    with pytest.raises(ValueError, match=re.escape(fix)):
        make(**kwargs)


def test_write_options_reject_bad_input_with_the_fix():
    with pytest.raises(ValueError, match="max_pending_writes"):
        WriteOptions(max_pending_writes=0)
    with pytest.raises(TypeError, match="retry must be a RetryPolicy"):
        WriteOptions(retry=3)  # type: ignore[arg-type]


def test_a_grouped_option_and_its_keyword_argument_are_one_setting():
    grouped = make(
        recall=RecallOptions(top_k=3, recall_timeout=0.5), writes=WriteOptions(max_pending_writes=7)
    )
    loose = make(top_k=3, recall_timeout=0.5, writes=WriteOptions(max_pending_writes=7))
    both = make(recall=RecallOptions(top_k=3), top_k=3)  # the same value given twice is no conflict
    for memory in (grouped, loose):
        assert memory.recall_options == RecallOptions(top_k=3, recall_timeout=0.5)
        assert memory.write_options == WriteOptions(max_pending_writes=7)
        assert (memory.top_k, memory.recall_timeout) == (3, 0.5)
    assert both.top_k == 3
    for memory in (grouped, loose, both):
        memory.close(timeout=0.1)


@pytest.mark.parametrize(
    ("keyword", "value", "group", "setting"),
    [
        ("recall_breaker_threshold", 2, "recall", "recall_breaker_threshold"),
        ("recall_breaker_cooldown", 1.5, "recall", "recall_breaker_cooldown"),
        ("max_pending_writes", 7, "writes", "max_pending_writes"),
        ("queue_size", 7, "writes", "max_pending_writes"),
        ("exit_flush_timeout", 0.5, "writes", "exit_flush_timeout"),
        ("retry", RetryPolicy(backoff_base=0.1), "writes", "retry"),
    ],
)
def test_a_setting_of_the_old_flat_keywords_still_works_and_says_where_it_goes(
    keyword, value, group, setting
):
    cls = RecallOptions if group == "recall" else WriteOptions
    with pytest.warns(
        DeprecationWarning, match=re.escape(f"pass {group}={cls.__name__}({setting}=...)")
    ) as seen:
        memory = make(**{keyword: value})
    try:
        options = memory.recall_options if group == "recall" else memory.write_options
        assert getattr(options, setting) == value
        assert seen[0].filename == __file__  # the warning points at the caller's line
    finally:
        memory.close(timeout=0.1)


def test_an_old_keyword_and_its_value_must_agree():
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="set it in one place"):
        make(writes=WriteOptions(max_pending_writes=5), queue_size=6)
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(ValueError, match="give it once, as max_pending_writes="),
    ):
        make(queue_size=5, max_pending_writes=6)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        make(max_pending=5)


def test_missing_key_says_where_the_key_comes_from(monkeypatch):
    monkeypatch.delenv("MEMORYSYNC_API_KEY", raising=False)
    with pytest.raises(ValueError, match="MEMORYSYNC_API_KEY"):
        MemorySyncCapability(user_id="u-1", base_url=CLOSED)


def test_non_agent_and_hookless_agent_get_a_type_error_naming_the_install():
    memory = make()
    with pytest.raises(
        TypeError, match=r"pip install 'memorysync-kit\[ag2\]' \(installs autogen>=0\.3\.2,<0\.15\)"
    ):
        memory.add_to_agent(object())

    class Ag2RewriteAgent:  # the ag2 1.x Agent: middleware and prompt hooks, no register_hook
        name = "new"

        async def ask(self, prompt: str) -> str:
            return prompt

    with pytest.raises(TypeError, match=r"MemorySyncMiddleware"):
        memory.add_to_agent(Ag2RewriteAgent())
    memory.close(timeout=0.1)


def test_attaching_twice_registers_nothing_twice_and_detach_removes_the_hooks():
    memory = make()
    agent, _ = assistant(sequence([]))
    before = {name: len(hooks) for name, hooks in agent.hook_lists.items()}
    replies_before = [r["reply_func"] for r in agent._reply_func_list]
    memory.add_to_agent(agent)
    memory.add_to_agent(agent)
    names = [r["reply_func"].__name__ for r in agent._reply_func_list]
    assert names.count("memorysync_wait_for_recall") == names.count("a_memorysync_wait_for_recall") == 1
    assert names[:2] == ["a_memorysync_wait_for_recall", "memorysync_wait_for_recall"], (
        "the recall is waited for before any reply function, whichever one answers"
    )
    after = {name: len(hooks) for name, hooks in agent.hook_lists.items()}
    assert after["process_all_messages_before_reply"] == before["process_all_messages_before_reply"] + 1
    assert after["process_message_before_send"] == before["process_message_before_send"] + 1
    assert after["process_last_received_message"] == before["process_last_received_message"]
    memory.remove_from_agent(agent)
    assert {name: len(hooks) for name, hooks in agent.hook_lists.items()} == before
    assert [r["reply_func"] for r in agent._reply_func_list] == replies_before
    memory.close(timeout=0.1)


def test_the_package_imports_nothing_from_autogen():
    code = "import sys, ag2_memorysync; print(sorted(m for m in sys.modules if m.split('.')[0] == 'autogen'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("  I like tea  ", "I like tea"),
        ({"role": "user", "content": "I like tea"}, "I like tea"),
        (
            {
                "content": [
                    {"type": "text", "text": "Look at my cat"},
                    {"type": "image_url", "image_url": {"url": "http://x/cat.png"}},
                    {"type": "text", "text": "her name is Mia"},
                ]
            },
            "Look at my cat\nher name is Mia",
        ),
        ({"role": "tool", "content": "stored 'likes tea'", "tool_responses": [{"role": "tool"}]}, ""),
        ({"content": "ran it", "tool_responses": []}, ""),
        ({"role": "function", "name": "f", "content": "42"}, ""),
        ({"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]}, ""),
        ({"role": "assistant", "content": "calling", "tool_calls": [{"id": "1"}]}, ""),
        ({"content": "x", "function_call": {"name": "f"}}, ""),
        ({"content": "   "}, ""),
        ({"content": None}, ""),
        ({"content": {"not": "text"}}, ""),
        ("TERMINATE", ""),
        ("exit", ""),
        ("Done. TERMINATE", "Done. TERMINATE"),
    ],
)
def test_spoken_text_keeps_words_and_drops_tool_traffic(message, expected):
    assert spoken_text(message) == expected


def test_long_turns_are_truncated_before_hashing():
    text = "x" * (MAX_TEXT_CHARS + 500)
    said = spoken_text(text)
    assert len(said) == MAX_TEXT_CHARS
    assert turn_seed("human", "ag2::s", said).endswith(fnv1a64("human:" + "x" * MAX_TEXT_CHARS))


def test_roles_follow_the_speaker():
    from autogen import ConversableAgent, UserProxyAgent

    proxy = UserProxyAgent("u", human_input_mode="NEVER", code_execution_config=False)
    always = ConversableAgent("a", llm_config=False, human_input_mode="ALWAYS")
    terminate_no_model = ConversableAgent("t", llm_config=False, human_input_mode="TERMINATE")
    bot = ConversableAgent("b", llm_config=False, human_input_mode="NEVER")
    llm, _ = assistant(sequence([]))  # human_input_mode NEVER with a model
    assert [role_of(a) for a in (proxy, always, terminate_no_model, bot, llm)] == [
        "human",
        "human",
        "human",
        "ai",
        "ai",
    ]
    assert role_of(None) == "human"
    assert role_of(bot, lambda agent: "human" if agent.name == "b" else None) == "human"
    assert role_of(proxy, lambda agent: None) == "human"


def test_render_replaces_literally_and_inject_keeps_history_and_last_message():
    context = "- User likes {braces} and 100% %s %(name)s"
    rendered = render(DEFAULT_CONTEXT_TEMPLATE, context)
    assert rendered.endswith(context)
    history = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "user", "content": "TERMINATE"},
    ]
    out = inject(history, rendered)
    assert out[-1] == {"role": "user", "content": "TERMINATE"}
    assert out[-2] == {"role": "system", "content": rendered}
    assert len(history) == 2
    out[0]["content"][0]["text"] = "changed"  # a deep copy: the stored history is out of reach
    assert history[0]["content"][0]["text"] == "hi"


def test_dedup_registry_is_thread_safe_and_expires():
    now = [0.0]
    registry = DedupRegistry(ttl=10, clock=lambda: now[0])
    wins = []
    barrier = threading.Barrier(8)

    def race():
        barrier.wait()
        wins.append(registry.claim("k"))

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins.count(True) == 1
    now[0] = 9.9
    assert not registry.claim("k")
    now[0] = 10.1
    assert registry.claim("k")
    registry.release("k")
    assert registry.claim("k")


def test_retry_policy_backs_off_exponentially_with_jitter_and_a_cap():
    policy = RetryPolicy(backoff_base=0.2, backoff_max=2.0)
    assert [policy.delay(n, rng=lambda: 1.0) for n in (1, 2, 3, 4, 5, 6)] == [0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    assert policy.delay(3, rng=lambda: 0.0) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="batch_size"):
        RetryPolicy(batch_size=101)
