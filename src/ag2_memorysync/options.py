"""The settings of an AG2 memory, grouped the way httpx groups ``Timeout`` / ``Limits``.

``RecallOptions`` is everything about recall, ``WriteOptions`` everything about the captured
turns' way to the server. Each field has exactly the name of the keyword argument that sets it
on its own, so ``MemorySyncCapability(top_k=3)`` and
``MemorySyncCapability(recall=RecallOptions(top_k=3))`` are the same thing; giving one setting
both ways with different values is an error.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .recall import DEFAULT_CONTEXT_TEMPLATE
from .writer import RetryPolicy

Group = TypeVar("Group", "RecallOptions", "WriteOptions")

# Earlier names still accepted for a setting: {old: current}.
ALIASES = {"queue_size": "max_pending_writes"}
# Settings once given as keywords of their own, now only through their group's value: {keyword:
# group}. Still accepted, with a warning, until the next minor release after 0.3.
DEPRECATED_KEYWORDS = {
    "recall_breaker_threshold": "recall",
    "recall_breaker_cooldown": "recall",
    "max_pending_writes": "writes",
    "queue_size": "writes",
    "retry": "writes",
    "exit_flush_timeout": "writes",
}
_GROUP_CLASS = {"recall": "RecallOptions", "writes": "WriteOptions"}


@dataclass(frozen=True)
class RecallOptions:
    """Recall before each reply.

    Args:
        top_k: Memories recalled for a message (1 to 100).
        recall_timeout: Seconds a reply waits for its recall at most.
        min_prompt_chars: Shorter messages are not recalled on.
        context_template: Where the memories go; ``{context}`` is replaced literally.
        recall_breaker_threshold: Failed recalls in a row after which recall pauses.
        recall_breaker_cooldown: Seconds recall then pauses before one recall probes the server.
    """

    top_k: int = 5
    recall_timeout: float = 1.2
    min_prompt_chars: int = 8
    context_template: str = DEFAULT_CONTEXT_TEMPLATE
    recall_breaker_threshold: int = 3
    recall_breaker_cooldown: float = 5.0

    def __post_init__(self) -> None:
        if not _int(self.top_k) or not 1 <= self.top_k <= 100:
            raise ValueError(f"top_k must be an int between 1 and 100, got {self.top_k!r}.")
        if not _number(self.recall_timeout) or self.recall_timeout <= 0:
            raise ValueError(
                f"recall_timeout must be a positive number of seconds (default 1.2), got {self.recall_timeout!r}."
            )
        if not _int(self.min_prompt_chars) or self.min_prompt_chars < 0:
            raise ValueError(f"min_prompt_chars must be an int >= 0, got {self.min_prompt_chars!r}.")
        if not isinstance(self.context_template, str) or "{context}" not in self.context_template:
            raise ValueError(
                "context_template must be a string containing the placeholder {context}, "
                "where the recalled memories go."
            )
        if not _int(self.recall_breaker_threshold) or self.recall_breaker_threshold < 1:
            raise ValueError(
                f"recall_breaker_threshold must be an int >= 1 (failed recalls in a row that pause "
                f"recall), got {self.recall_breaker_threshold!r}."
            )
        if not _number(self.recall_breaker_cooldown) or self.recall_breaker_cooldown < 0:
            raise ValueError(
                f"recall_breaker_cooldown must be a number of seconds >= 0 (how long recall pauses), "
                f"got {self.recall_breaker_cooldown!r}."
            )


@dataclass(frozen=True)
class WriteOptions:
    """The captured turns' way to the server.

    Args:
        max_pending_writes: Turns held while the server is unreachable (formerly ``queue_size``).
        retry: How failed writes are retried.
        exit_flush_timeout: Seconds the writes get at interpreter exit when the program did not
            call ``close()``.
    """

    max_pending_writes: int = 1000
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    exit_flush_timeout: float = 2.0

    def __post_init__(self) -> None:
        if not _int(self.max_pending_writes) or self.max_pending_writes < 1:
            raise ValueError(
                f"max_pending_writes (formerly queue_size) must be an int >= 1 (turns held while the "
                f"server is away), got {self.max_pending_writes!r}."
            )
        if not isinstance(self.retry, RetryPolicy):
            raise TypeError(f"retry must be a RetryPolicy, got {type(self.retry).__name__}.")
        if not _number(self.exit_flush_timeout) or self.exit_flush_timeout < 0:
            raise ValueError(
                f"exit_flush_timeout must be a number of seconds >= 0, got {self.exit_flush_timeout!r}."
            )


def grouped_settings(owner: str, keywords: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The deprecated keywords among ``keywords``, by group (``{"recall": {...}, "writes":
    {...}}``), each warned about once; any other keyword is an error that says where it goes."""
    unknown = sorted(set(keywords) - set(DEPRECATED_KEYWORDS))
    if unknown:
        raise TypeError(f"{owner}() got unexpected keyword argument(s): {unknown}")
    grouped: dict[str, dict[str, Any]] = {"recall": {}, "writes": {}}
    for key, value in keywords.items():
        group = DEPRECATED_KEYWORDS[key]
        name = ALIASES.get(key, key)
        warnings.warn(
            f"{owner}({key}=...) is deprecated: pass {group}={_GROUP_CLASS[group]}({name}=...) instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        grouped[group][key] = value
    return grouped


def merge(group: Group | None, cls: type[Group], loose: Mapping[str, Any]) -> Group:
    """``group`` (or the defaults) with the settings given as keyword arguments (``None``: not
    given) applied; a setting given both ways must agree."""
    names = {f.name for f in dataclasses.fields(cls)}
    given: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for key, value in loose.items():
        name = ALIASES.get(key, key)
        if value is None or name not in names:
            continue
        if name in given and given[name] != value:
            raise ValueError(
                f"{name} was given as {origin[name]}= and as {key}= with different values; "
                f"give it once, as {name}=."
            )
        given[name], origin[name] = value, key
    if group is None:
        return cls(**given)
    if not isinstance(group, cls):
        raise TypeError(f"expected a {cls.__name__}, got {type(group).__name__}")
    clash = [k for k, v in given.items() if getattr(group, k) != v]
    if clash:
        raise ValueError(
            f"{', '.join(clash)} given both as a keyword argument and in {cls.__name__}(...) with "
            f"different values; set it in one place."
        )
    return group


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
