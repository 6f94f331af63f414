"""Which sightings of a message are one turn, and the keys that turn is written with.

A message can be seen more than once: by the sender's ``process_message_before_send`` and the
receiver's reply hook when both agents are attached, by every member of a group chat, by the
same agent replying twice to one history, and by a classic agent and an ag2 1.x agent that both
got the person's message. Those sightings are one turn. The same words said again later are
another turn. Content alone cannot tell these apart, so a sighting is identified by where the
message sits: its conversation (a session of one person) and its position in it.

Keys (one function, :meth:`TurnLedger.sight`, builds them; adapters never build their own):

* the extraction seed stays the content-based seed every MemorySync adapter shares,
  ``turn_seed(role, scope, text)``; it goes to the server as the turn's ``speaker``, so a
  sentence said twice is extracted once;
* the transcript idempotency key is ``<seed>#c<run token>.<position>``. The token is random per
  run of the conversation, so a later chat of the same session that opens with the same words is
  a new turn, while a retry, which resends the queued turn, reuses its key.

A new run starts when an observer (one agent's hooks, or one 1.x middleware) reports a position
below one it already reported in the current run: its history started over, as AG2 does at the
start of every chat unless told not to. Observers that have not reported in the current run yet
join it, so the other side of a chat that just started over gets the same keys.
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
    reached: dict[Hashable, int] = field(default_factory=dict)  # observer -> highest position reported


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
        return turn_key(seed, self.run(conversation, position, observer), position)

    def run(self, conversation: Hashable, position: int, observer: Hashable) -> str:
        """The token of the run of ``conversation`` that ``observer``'s sighting at ``position``
        belongs to (starting a new run when its position went back). The key is
        ``turn_key(seed, token, position)``: the capture hook takes only the token, and the
        seed's hash is computed later, off the chat's thread."""
        with self._lock:
            run = self._runs.get(conversation)
            reached = run.reached.get(observer, -1) if run is not None else -1
            if run is None or position < reached:
                run = self._runs[conversation] = _Run(self._new_token())
                reached = -1
            self._runs.move_to_end(conversation)
            while len(self._runs) > self._max:
                self._runs.popitem(last=False)
            if position > reached:
                run.reached[observer] = position
            return run.token


_default = TurnLedger()


def default_ledger() -> TurnLedger:
    return _default
