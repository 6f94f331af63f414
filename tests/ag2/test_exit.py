"""A process that uses the capability and ends without close(): its stderr is empty when every turn
was delivered, and holds one warning with the count when some could not be."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.dev_mode import assert_silent, run_dev
from tests.support.openai_stub import OpenAIStub

ROOT = Path(__file__).resolve().parents[2]

# The README quick start, with the model and the MemorySync server outside the process.
QUICK_START = textwrap.dedent(
    """
    import json, sys
    from autogen import ConversableAgent, UserProxyAgent
    from ag2_memorysync import MemorySyncCapability, WriteOptions

    llm_url, base_url, api_key, ending, exit_flush = sys.argv[1:6]
    llm_config = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-test", "base_url": llm_url}],
                  "cache_seed": None}
    assistant = ConversableAgent("assistant", llm_config=llm_config)
    person = UserProxyAgent("customer", code_execution_config=False, human_input_mode="NEVER",
                            max_consecutive_auto_reply=0)

    memory = MemorySyncCapability(user_id="customer-42", session_id="support-chat", api_key=api_key,
                                  base_url=base_url,
                                  writes=WriteOptions(exit_flush_timeout=float(exit_flush)))
    memory.add_to_agent(assistant)
    memory.add_to_agent(person)

    person.initiate_chat(assistant, message="I'm vegan, and I moved to Oslo.", silent=True)
    if ending == "flush":
        memory.flush()
    print(json.dumps(memory.stats()))
    """
)


FLAML_IMPORT_WARNING = "ignore:flaml.automl is not available:UserWarning"


def run(llm: OpenAIStub, base_url: str, api_key: str, ending: str, exit_flush: float = 2.0):
    return subprocess.run(
        # Old autogen (0.3.x) imports flaml, which warns about its own missing extra on stderr at import:
        # the framework's noise, not ours, so that one warning is silenced and everything else counts.
        [
            sys.executable,
            "-W",
            FLAML_IMPORT_WARNING,
            "-c",
            QUICK_START,
            llm.base_url,
            base_url,
            api_key,
            ending,
            str(exit_flush),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize("ending", ["flush", "nothing"])
def test_a_clean_run_that_never_calls_close_exits_with_empty_stderr(server, stored, ending):
    with OpenAIStub(lambda messages: "Noted: vegan, and Oslo is lovely.") as llm:
        done = run(llm, server.base_url, server.api_key, ending)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert stored.transcript("customer-42", "support-chat") == [
        ("user", "I'm vegan, and I moved to Oslo."),
        ("assistant", "Noted: vegan, and Oslo is lovely."),
    ], "delivered (by the exit handler when nobody flushed)"


def test_turns_that_cannot_be_delivered_give_one_warning_with_the_count(dead_url):
    with OpenAIStub(lambda messages: "Noted: vegan, and Oslo is lovely.") as llm:
        done = run(llm, dead_url, "ms_test_x", "nothing", exit_flush=0.3)
    assert done.returncode == 0, done.stderr
    queued = json.loads(done.stdout.strip().splitlines()[-1])["queued"]
    assert queued >= 2
    assert "Task was destroyed" not in done.stderr
    lost = [line for line in done.stderr.splitlines() if "could not be delivered" in line]
    assert lost == [
        f"MemorySync: {queued} captured turn(s) could not be delivered before the process exited; "
        "call close(timeout=...) before exiting, or raise exit_flush_timeout="
    ]


ASYNC_PROGRAM = """
import asyncio, sys
from tests.support.dev_mode import end_as, quiet_about_slow_callbacks

base_url, api_key, ending = sys.argv[1:4]


def rule_based(recipient, messages=None, sender=None, config=None):
    return True, "Noted: vegan, and Oslo is lovely."


async def main():
    quiet_about_slow_callbacks()
    assistant = ConversableAgent("assistant", llm_config=False, human_input_mode="NEVER")
    assistant.register_reply([Agent, None], rule_based)
    person = UserProxyAgent("customer", code_execution_config=False, human_input_mode="NEVER",
                            max_consecutive_auto_reply=0)
    memory = MemorySyncCapability(user_id="customer-42", session_id="async-exit", api_key=api_key,
                                  base_url=base_url)
    memory.add_to_agent(assistant)
    memory.add_to_agent(person)
    await person.a_initiate_chat(assistant, message="I'm vegan, and I moved to Oslo.", silent=True)
    assert (await memory.asave("I have a dog named Rex.")).status == "stored"
    await end_as(memory, ending)

asyncio.run(main())
"""


@pytest.mark.parametrize("ending", ["aclose", "aflush", "nothing"])
def test_async_code_exits_without_a_word_under_dev_mode(server, stored, ending):
    done = run_dev(
        "from autogen import Agent, ConversableAgent, UserProxyAgent\n"
        "from ag2_memorysync import MemorySyncCapability",
        ASYNC_PROGRAM,
        server.base_url,
        server.api_key,
        ending,
    )
    assert_silent(done)
    assert stored.transcript("customer-42", "async-exit") == [
        ("user", "I'm vegan, and I moved to Oslo."),
        ("assistant", "Noted: vegan, and Oslo is lovely."),
    ]
