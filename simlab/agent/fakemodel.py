"""A fake language model: deterministic answers and token counts, no network, no weights.

It reads a prompt made of a ``Question:`` line and source lines ``[doc_id vN] text`` and answers
with the first sentence of each source, cited. Tokens are counted the same way every time
(words and punctuation marks), so cost figures in tests and lessons are reproducible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FakeModel", "Completion", "count_tokens", "read_prompt"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_SOURCE = re.compile(r"^\[(?P<cite>[^\]]+)\]\s*(?P<text>.*)$")


def count_tokens(text: str) -> int:
    """Words and punctuation marks: a deterministic stand-in for a tokenizer."""
    return len(_TOKEN.findall(text))


def read_prompt(prompt: str) -> tuple[str, list[tuple[str, str]]]:
    """The prompt's question (the last ``Question:`` line's rest, stripped; "" when there is
    none) and its sources in prompt order, each ``(cite, text)`` of a ``[cite] text`` line with
    the text stripped. Any other line is ignored."""
    question = ""
    sources = []
    for line in prompt.splitlines():
        if line.startswith("Question:"):
            question = line[len("Question:") :].strip()
        elif m := _SOURCE.match(line):
            sources.append((m["cite"], m["text"].strip()))
    return question, sources


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class FakeModel:
    """Answers a question from the sources in its prompt, citing each; same prompt, same answer."""

    name = "fake-model/1"

    def complete(self, prompt: str) -> Completion:
        question, sources = read_prompt(prompt)
        lines = []
        for cite, passage in sources:
            first = re.split(r"(?<=[.!?])\s", passage, maxsplit=1)[0]
            lines.append(f"- {first} [{cite}]")
        if lines:
            text = f"Answer to: {question}\n" + "\n".join(lines)
        else:
            text = f"I found no evidence to answer: {question}"
        return Completion(text, count_tokens(prompt), count_tokens(text))
