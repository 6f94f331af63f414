"""Facts that stand on their own: the facts our own chats (eval/data/chats) give, judged.

Every turn goes in through ``add_turn`` as in the conversation benchmark (both sides, so a
turn's "it" can be read from the question before it). Each fact the server keeps is looked up in
``eval/data/chat_facts.jsonl``, where a person judged it: good (a memory a model could use on its
own: what it is about and when are in it) or not (a fragment that lost its topic, small talk, a
clause cut in the middle), with why. A fact nobody judged yet is counted apart: judge it and add
it. Also measured without labels: the share of facts holding an "it", "him", "her" or
"something" (the crude check), the share of those judged bad (an "it" left unresolved) and the
share that do not stand alone (``stands_alone``).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parent.parent) not in sys.path:  # run as a script: eval.* importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eval.conversations import CHATS, _Client, ingest, load_conversation, locomo_dir
from eval.server import eval_server
from memorysync_server.extraction import stands_alone

HERE = Path(__file__).resolve().parent
LABELS = HERE / "data" / "chat_facts.jsonl"
LOCOMO_LABELS = HERE / "data" / "locomo_fact_labels.jsonl"
_CRUDE = re.compile(r"\b(?:it|him|her|something)\b", re.IGNORECASE)


def labels() -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {row["fact"]: row for row in rows}


def produced(chats: Path = CHATS) -> list[str]:
    facts: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="memorysync-eval-facts-") as tmp,
        eval_server(Path(tmp) / "f.db") as server,
    ):
        client = _Client(server)
        try:
            for path in sorted(chats.glob("*.json")):
                conversation = load_conversation(path)
                ingest(client, conversation)
                for speaker in conversation.speakers:
                    facts += [m["text"] for m in client.listed(conversation.user(speaker))]
        finally:
            client.http.close()
    return facts


def fact_figures(chats: Path = CHATS) -> dict[str, float]:
    judged = labels()
    facts = produced(chats)
    known = [f for f in facts if f in judged]
    good = sum(1 for f in known if judged[f]["good"])
    return {
        "facts": len(facts),
        "judged": len(known),
        "judged good": good / len(known) if known else float("nan"),
        "unjudged": len(facts) - len(known),
        "hold it/him/her/something": sum(bool(_CRUDE.search(f)) for f in facts) / len(facts)
        if facts
        else 0.0,
        # The crude check counts "Rosa had her baby" and "it's a long way" too; a fact judged
        # bad that holds one is one whose "it" or "her" was left unresolved.
        "unresolved it/him/her/something (judged)": sum(
            1 for f in known if _CRUDE.search(f) and not judged[f]["good"]
        )
        / len(facts)
        if facts
        else 0.0,
        "do not stand alone": sum(not stands_alone(f) for f in facts) / len(facts) if facts else 0.0,
    }


def locomo_figures(locomo: Path | None = None) -> dict[str, float] | None:
    """The judged share of a sample of the facts LoCoMo's dev split gives (None without it).

    The sample (``eval/data/locomo_fact_labels.jsonl``) holds a hash of each fact, never its
    text: the conversations are read from ``../shared`` and not copied here."""
    found = locomo_dir(locomo)
    if found is None:
        return None
    judged = {
        (row["conversation"], row["sha256"]): row
        for row in map(json.loads, LOCOMO_LABELS.read_text(encoding="utf-8").splitlines())
    }
    good = known = 0
    for path in sorted(found.glob("*.json")):
        with tempfile.TemporaryDirectory(prefix="memorysync-eval-facts-") as tmp:
            shutil.copy(path, tmp)
            for fact in produced(Path(tmp)):
                row = judged.get((path.stem, hashlib.sha256(fact.encode()).hexdigest()[:16]))
                if row is not None:
                    known += 1
                    good += bool(row["good"])
    return {
        "sampled": len(judged),
        "judged (still produced)": known,
        "judged good": good / known if known else float("nan"),
    }


def _table(title: str, figures: dict[str, float]) -> None:
    print(f"| {title} | value |\n|---|---|")
    for name, value in figures.items():
        print(f"| {name} | {value:.3f} |" if isinstance(value, float) else f"| {name} | {value} |")


def main() -> int:
    _table("chat facts", fact_figures())
    dev = locomo_figures()
    if dev is not None:
        print()
        _table("LoCoMo dev facts (sample)", dev)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
