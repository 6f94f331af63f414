"""Which sightings of a message are one turn, and the keys that turn is written with.

A message can be seen more than once: by the sender's ``process_message_before_send`` and the
receiver's reply hook when both agents are attached, by every member of a group chat, and by
the same agent replying twice to one history. Those sightings are one turn. The same words
said again later in the conversation are another turn. Content alone cannot tell these apart,
so a sighting is identified by where the message sits: its conversation and its position in it.

Keys (one function, :meth:`TurnLedger.sight`, builds them; adapters never build their own):

* the extraction seed stays the content-based seed every MemorySync adapter shares,
  ``turn_seed(role, scope, text)``; it goes to the server as the turn's ``speaker``, so a
  sentence said twice is extracted once;
* the transcript idempotency key is ``<seed>#c<run token>.<position>``. The token is random per
  conversation run, so a later chat of the same session that opens with the same words is a
  new turn, while a retry, which resends the queued turn, reuses its key.

A run ends when an observer (an agent's hook) reports that its history was reset (AG2 clears
both sides' histories at the start of a chat unless told not to) after having reported in the
current run; observers that report a reset before reporting anything join the run the first
one started.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field


@dataclass
class _Run:
    token: str
    keys: dict[tuple[int, str], str] = field(default_factory=dict)  # (position, seed) -> key
    observers: set[Hashable] = field(default_factory=set)


def turn_key(seed: str, token: str, position: int) -> str:
    """The transcript idempotency key of the turn at ``position`` of run ``token``."""
    return f"{seed}#c{token}.{position}"


class TurnLedger:
    """Process-wide record of the sightings already turned into keys, per conversation.

    Bounded: the least recently used conversations are forgotten beyond ``max_conversations``.
    """

    def __init__(
        self,
        max_conversations: int = 10_000,
        new_token: Callable[[], str] = lambda: secrets.token_hex(4),
    ) -> None:
        if max_conversations < 1:
            raise ValueError("TurnLedger needs max_conversations >= 1")
        self._max = max_conversations
        self._new_token = new_token
        self._runs: OrderedDict[Hashable, _Run] = OrderedDict()
        self._lock = threading.Lock()

    def sight(self, conversation: Hashable, position: int, seed: str, observer: Hashable) -> str:
        """The idempotency key for the message ``seed`` at ``position`` of ``conversation``, as
        seen by ``observer``. Every sighting of one message in one run returns the same key."""
        with self._lock:
            run = self._run(conversation)
            run.observers.add(observer)
            return run.keys.setdefault((position, seed), turn_key(seed, run.token, position))

    def restart(self, conversation: Hashable, observer: Hashable) -> None:
        """``observer`` found its history of ``conversation`` reset: a new run starts, unless
        another observer already started one that this observer has not reported in yet."""
        with self._lock:
            run = self._runs.get(conversation)
            if run is not None and observer not in run.observers:
                return
            run = _Run(self._new_token())
            run.observers.add(observer)
            self._runs[conversation] = run
            self._run(conversation)

    def _run(self, conversation: Hashable) -> _Run:
        run = self._runs.get(conversation)
        if run is None:
            run = self._runs[conversation] = _Run(self._new_token())
        self._runs.move_to_end(conversation)
        while len(self._runs) > self._max:
            self._runs.popitem(last=False)
        return run


_default = TurnLedger()


def default_ledger() -> TurnLedger:
    return _default
