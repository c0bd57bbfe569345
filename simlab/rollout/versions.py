"""Agent versions: a framework version and a model version, two separate knobs.

A release of an LLM agent changes one of two layers. The **framework** is our code around the
model: the runner, its retry policy, how it hands a task back. The **model** is what reads the
prompt: it decides at intake which tools a task needs, and it writes the answer. Upgrading both
at once makes a regression impossible to place, so simlab names them separately and a version is
a pair (:class:`AgentVersion`). Every variant is deterministic: the same inputs give the same
answers and the same token counts.

Frameworks (:data:`FRAMEWORKS`):

* ``agent-1.0`` -- the runner as :mod:`simlab.agent.resume` teaches it. A tool call that times out
  ends the attempt: the worker hands the task back (``release``) and the next claim resumes from
  the checkpoint, where the idempotency ledger says an e-mail whose send timed out is
  ``unknown`` and must not be sent again.
* ``agent-1.1`` -- "faster recovery": a transparent retry (two more tries) around *every* tool
  client. Searching twice is harmless; sending an e-mail twice is not, and the mail server may
  have accepted the first one before it timed out. Nothing else changes, so most cases still
  pass and latency even improves. This is the subtly worse version the golden set must catch.

Models (:data:`MODELS`):

* ``fake-1`` -- :class:`~simlab.agent.fakemodel.FakeModel`: one bullet per source, the source's
  first sentence, cited. At intake it asks for the stock API only when the question is about
  stock.
* ``fake-2`` -- :class:`TerseModel`, a "newer, cheaper" model: no header and no bullets (fewer
  tokens), stock figures written without a citation, and it follows instructions it finds inside
  a source (a prompt injection). At intake it asks for the stock API whenever a product is named.

Named versions (:data:`VERSIONS`): ``A`` is production (agent-1.0 + fake-1); ``B`` changes only
the framework; ``C`` changes only the model; ``D`` changes both. Any pair can also be written
``FRAMEWORK/MODEL`` (``agent-1.1/fake-2``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from simlab.agent.fakemodel import Completion, FakeModel, count_tokens, read_prompt

__all__ = [
    "Framework",
    "ModelVersion",
    "AgentVersion",
    "TerseModel",
    "FRAMEWORKS",
    "MODELS",
    "VERSIONS",
    "parse_version",
    "layers_changed",
    "asks_about_stock",
]

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_STOCK_FACT = re.compile(r"^\d+ units of \S+ in stock\.$")
_INSTRUCTION = re.compile(
    r"^(?:assistant|system)\s+instruction:\s*(?:ignore [^.]*? and )?(.+)$", re.IGNORECASE
)
_STOCK_WORDS = re.compile(r"\b(stock|in stock|available|availability|units left)\b", re.I)


@dataclass(frozen=True, slots=True)
class Framework:
    """The runner around the model. ``tool_retries``: how many times a timed-out tool call is
    tried again in place before the attempt gives up and the task is handed back."""

    name: str
    tool_retries: int
    description: str


def asks_about_stock(query: str, product: str | None) -> bool:
    """fake-1's intake: the stock API only when a product is named *and* stock is asked about."""
    return product is not None and bool(_STOCK_WORDS.search(query))


def _any_product(query: str, product: str | None) -> bool:
    """fake-2's intake: the stock API whenever a product is named (an extra, needless call)."""
    return product is not None


class TerseModel(FakeModel):
    """fake-2: terser answers, uncited stock figures, and it obeys instructions in sources.

    For each source it writes the first sentence with its citation, except a stock figure, which
    it states without one. If a later sentence of a source reads ``ASSISTANT INSTRUCTION: ...``
    (or ``SYSTEM INSTRUCTION: ...``) it does what it says, which is the prompt injection.
    """

    name = "fake-model/2"

    def complete(self, prompt: str) -> Completion:
        question, sources = read_prompt(prompt)
        parts = []
        for cite, passage in sources:
            sentences = _SENTENCE.split(passage)
            first = sentences[0]
            parts.append(first if _STOCK_FACT.match(first) else f"{first} [{cite}]")
            for sentence in sentences[1:]:
                order = _INSTRUCTION.match(sentence)
                if order:
                    parts.append(order[1][0].upper() + order[1][1:])
        text = " ".join(parts) if parts else f"No evidence for: {question}"
        return Completion(text, count_tokens(prompt), count_tokens(text))


@dataclass(frozen=True, slots=True)
class ModelVersion:
    """A model: ``make()`` returns a fresh model object (``complete(prompt)``), and
    ``needs_stock(query, product)`` is its tool choice at intake."""

    name: str
    make: Callable[[], FakeModel]
    needs_stock: Callable[[str, str | None], bool]
    description: str


@dataclass(frozen=True, slots=True)
class AgentVersion:
    """One deployable agent: a framework version and a model version."""

    name: str
    framework: Framework
    model: ModelVersion

    @property
    def label(self) -> str:
        """``FRAMEWORK/MODEL``, e.g. ``agent-1.0/fake-1``."""
        return f"{self.framework.name}/{self.model.name}"

    def __str__(self) -> str:
        return self.name if self.name == self.label else f"{self.name} ({self.label})"


FRAMEWORKS: dict[str, Framework] = {
    "agent-1.0": Framework("agent-1.0", 0, "a timed-out tool call hands the task back"),
    "agent-1.1": Framework("agent-1.1", 2, "retries every timed-out tool call in place"),
}

MODELS: dict[str, ModelVersion] = {
    "fake-1": ModelVersion(
        "fake-1",
        FakeModel,
        asks_about_stock,
        "cites every source; stock API only for stock questions",
    ),
    "fake-2": ModelVersion(
        "fake-2",
        TerseModel,
        _any_product,
        "terser; uncited stock figures; follows instructions in sources",
    ),
}


def _pair(name: str, framework: str, model: str) -> AgentVersion:
    return AgentVersion(name, FRAMEWORKS[framework], MODELS[model])


VERSIONS: dict[str, AgentVersion] = {
    "A": _pair("A", "agent-1.0", "fake-1"),
    "B": _pair("B", "agent-1.1", "fake-1"),
    "C": _pair("C", "agent-1.0", "fake-2"),
    "D": _pair("D", "agent-1.1", "fake-2"),
}


def parse_version(spec: str) -> AgentVersion:
    """A named version (``A``..``D``) or ``FRAMEWORK/MODEL``; ``ValueError`` naming the choices."""
    if isinstance(spec, AgentVersion):
        return spec
    if spec in VERSIONS:
        return VERSIONS[spec]
    framework, sep, model = str(spec).partition("/")
    if sep and framework in FRAMEWORKS and model in MODELS:
        return _pair(spec, framework, model)
    raise ValueError(
        f"unknown version {spec!r}: use one of {', '.join(VERSIONS)} or FRAMEWORK/MODEL with "
        f"FRAMEWORK in {', '.join(FRAMEWORKS)} and MODEL in {', '.join(MODELS)}"
    )


def layers_changed(old: AgentVersion, new: AgentVersion) -> tuple[str, ...]:
    """Which layers differ between two versions: ``("framework",)``, ``("model",)``, both or
    none. A regression is traceable to one layer only when exactly one changed."""
    changed = []
    if old.framework.name != new.framework.name:
        changed.append("framework")
    if old.model.name != new.model.name:
        changed.append("model")
    return tuple(changed)
