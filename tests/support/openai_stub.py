"""A local OpenAI-compatible chat completions server on a real socket, with scripted replies.

It enforces the message-ordering rules OpenAI's chat API enforces, answering 400 with an
OpenAI-shaped error as the real API does, so a client-side mistake surfaces as the same
``openai.BadRequestError`` a user would see:

* an assistant message with ``tool_calls`` is followed directly by one ``tool`` message per
  call id, before any other message;
* a ``tool`` message answers a call of the assistant message right before its group;
* the legacy ``function_call`` is followed directly by a ``function`` message of that name,
  and a ``function`` message follows such a call.

``script(messages)`` returns the next reply: a string, or a message dict (``tool_calls`` /
``function_call``). Every request body is kept in ``requests``; the 400s in ``rejections``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from typing import Any

from tests.support.stub_http import Recorded, Reply, StubHTTP

ROLES = {"system", "developer", "user", "assistant", "tool", "function"}


def ordering_error(messages: list[dict[str, Any]]) -> str | None:
    """The message OpenAI would answer with, or None when the order is valid."""
    i = 0
    while i < len(messages):
        message = messages[i]
        role = message.get("role")
        if role not in ROLES:
            return f"Invalid value: '{role}'. Supported values are: {', '.join(sorted(ROLES))}."
        if role == "assistant" and message.get("tool_calls"):
            expected = {call["id"] for call in message["tool_calls"]}
            j = i + 1
            while j < len(messages) and messages[j].get("role") == "tool":
                if messages[j].get("tool_call_id") not in expected:
                    return (
                        "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                        "message with 'tool_calls'."
                    )
                expected.discard(messages[j]["tool_call_id"])
                j += 1
            if expected:
                return (
                    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                    "each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                    + ", ".join(sorted(expected))
                )
            i = j
            continue
        if role == "tool":
            return (
                "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
                "with 'tool_calls'."
            )
        if role == "assistant" and message.get("function_call"):
            name = message["function_call"].get("name")
            following = messages[i + 1] if i + 1 < len(messages) else None
            if following is None or following.get("role") != "function" or following.get("name") != name:
                return (
                    f"An assistant message with 'function_call' must be followed by a function message "
                    f"named '{name}'."
                )
            i += 2
            continue
        if role == "function":
            return "Invalid parameter: messages with role 'function' must follow a 'function_call'."
        i += 1
    return None


class OpenAIStub:
    """``with OpenAIStub(script) as stub: llm_config = stub.llm_config()``."""

    def __init__(self, script: Callable[[list[dict[str, Any]]], str | dict[str, Any]]) -> None:
        self._script = script
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.rejections: list[str] = []
        self._http = StubHTTP(self._respond)

    def _respond(self, rec: Recorded) -> Reply:
        if rec.method != "POST" or not rec.path.endswith("/chat/completions"):
            return Reply(
                404, {"error": {"message": f"no route {rec.method} {rec.path}", "type": "not_found"}}
            )
        body = rec.body or {}
        messages = body.get("messages") or []
        with self._lock:
            self.requests.append(body)
        problem = ordering_error(messages)
        if problem is not None:
            with self._lock:
                self.rejections.append(problem)
            error = {"message": problem, "type": "invalid_request_error", "param": "messages", "code": None}
            return Reply(400, {"error": error})
        reply = self._script(messages)
        message = {"role": "assistant", "content": reply} if isinstance(reply, str) else dict(reply)
        finish = (
            "tool_calls"
            if message.get("tool_calls")
            else "function_call"
            if message.get("function_call")
            else "stop"
        )
        return Reply(
            200,
            {
                "id": f"chatcmpl-{next(self._ids)}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "gpt-4o-mini"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    @property
    def base_url(self) -> str:
        return self._http.base_url + "/v1"

    def llm_config(self, **extra: Any) -> dict[str, Any]:
        """An AG2 ``llm_config`` whose OpenAI client talks to this server."""
        entry = {"model": "gpt-4o-mini", "api_key": "sk-test-not-a-real-key", "base_url": self.base_url}
        return {"config_list": [{**entry, **extra}], "cache_seed": None}

    def __enter__(self) -> OpenAIStub:
        self._http.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.__exit__(*exc)


def tool_calls(*calls: tuple[str, dict[str, Any]], prefix: str = "call") -> dict[str, Any]:
    """An assistant reply asking for ``calls`` (name, arguments) in parallel."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"{prefix}_{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for n, (name, args) in enumerate(calls, 1)
        ],
    }


def function_call(name: str, **arguments: Any) -> dict[str, Any]:
    """An assistant reply with the legacy ``function_call``."""
    return {
        "role": "assistant",
        "content": None,
        "function_call": {"name": name, "arguments": json.dumps(arguments)},
    }
