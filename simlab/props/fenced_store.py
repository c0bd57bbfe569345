"""A downstream store that sees only fencing tokens, and the cancel story it tells.

A worker's output often lands outside the ledger: a file store, a search index, another team's
API. Such a store never reads the task's status; all it learns of the ledger is the token a
writer hands over with each write. :class:`FencedStore` follows the rule of fenced storage in
Martin Kleppmann's *Designing Data-Intensive Applications* (chapter 8, "Fencing tokens"): it
remembers the highest token it has seen and refuses every write whose token is lower. A write
that carries the highest token so far is accepted, so the current holder may write many times.

:func:`cancel_story` plays notebook 01's story on the chapter's dict
(:mod:`simlab.props.dict_experiment`): worker A writes its report part by part to a
:class:`FencedStore`; a user cancels the task after the first part, and the cancel withdraws the
report in the store, with the task's epoch as its token. When the cancel bumps the epoch, the
withdrawal carries a higher token than A's, and the store refuses A's later parts; when it only
sets the status, the withdrawal carries A's own token, and A's later parts overwrite it. The
ledger refuses A's final commit either way (the task is no longer running): only the store tells
the two cancels apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simlab.props.dict_experiment import claim, commit, new_state
from simlab.records import CANCELLED

__all__ = ["FencedStore", "Write", "CancelStory", "cancel_story", "WITHDRAWN"]

#: What the cancel writes to the store in :func:`cancel_story`.
WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Write:
    """One write the store was asked for, and whether it accepted it."""

    writer: str
    value: Any
    token: int
    accepted: bool

    def __str__(self) -> str:
        verdict = "accepted" if self.accepted else "REFUSED"
        return f"{self.writer} writes {self.value!r} with token {self.token}: {verdict}"


@dataclass
class FencedStore:
    """One document in a store that checks tokens and nothing else.

    ``highest`` is the highest token seen (None before the first write), ``value`` the
    document's current content, ``writes`` every write asked for, in order.
    """

    highest: int | None = None
    value: Any = None
    writes: list[Write] = field(default_factory=list)

    def write(self, writer: str, value: Any, token: int) -> bool:
        """Store ``value`` unless ``token`` is lower than the highest seen; True if stored."""
        accepted = self.highest is None or token >= self.highest
        if accepted:
            self.highest = token
            self.value = value
        self.writes.append(Write(writer, value, token, accepted))
        return accepted


@dataclass(frozen=True)
class CancelStory:
    """What :func:`cancel_story` produced: every write, the store's final content, and whether
    the ledger accepted A's final commit."""

    bump: bool
    writes: tuple[Write, ...]
    final: Any
    committed: bool

    @property
    def stale_accepted(self) -> int:
        """A's writes that the store accepted after the cancel's withdrawal."""
        cancel = next(i for i, w in enumerate(self.writes) if w.writer == "cancel")
        return sum(1 for w in self.writes[cancel + 1 :] if w.writer == "A" and w.accepted)


def cancel_story(*, bump: bool) -> CancelStory:
    """Worker A writes four parts to a fenced store; a user cancels after the first one."""
    state, store = new_state(), FencedStore()
    epoch = claim(state)  # worker A claims the task: epoch 1
    store.write("A", "A: part 1", epoch)  # A writes its report downstream, with its token
    state["status"] = CANCELLED  # a user cancels the task...
    if bump:
        state["epoch"] += 1  # ...and this cancel also bumps the epoch
    store.write("cancel", WITHDRAWN, state["epoch"])  # the cancel withdraws the report
    for part in (2, 3, 4):  # A is not told: it goes on writing with its token
        store.write("A", f"A: part {part}", epoch)
    committed = commit(state, epoch, "A's report")  # at the end, A commits to the ledger
    return CancelStory(bump, tuple(store.writes), store.value, committed)
