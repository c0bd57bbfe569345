"""The feedback of exercise ``histories``' hidden checks, by ID (``histories.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
question that says them. See :mod:`simlab.grading.messages`. :func:`times_wrong` and
:func:`measure_wrong` pick the message that says what is wrong with a value, not only the value."""

from __future__ import annotations

import math
from typing import Any

from simlab.grading.messages import Message, speaker
from simlab.grading.student import shown_number
from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH", "say", "times_wrong", "measure_wrong"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("histories")

EN, ZH = tables(__file__)


def times_wrong(answer: Any, truth: list, what: Message | str, got: Message | str) -> Message:
    """What is wrong with the learner's recovery times against the kit's ``truth``: too many,
    too few, or as many but not the same (``what``: the history; ``got``: the times shown)."""
    if len(answer) != len(truth):
        key = "times_more" if len(answer) > len(truth) else "times_fewer"
    else:
        key = "times_values"
    return say(key, what=what, got=got)


def measure_wrong(key: str, got: Any, truth: float, seeds: int) -> Message:
    """What is wrong with the value ``got`` that measure() gave for ``key`` over ``seeds``
    seeds: not a number (named by its type), the sum over the seeds instead of their mean, or
    above or below the kit's ``truth``; with what the key measures. A number is never shown:
    one measured on the hidden ttl and seeds would tell of them."""
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        wrong = "measure_not_number"
    elif seeds > 1 and math.isclose(got, truth * seeds, rel_tol=1e-9):
        wrong = "measure_summed"
    else:
        wrong = "measure_more" if got > truth else "measure_less"
    if wrong == "measure_not_number":
        return say(wrong, key=key, got=shown_number(got), meaning=say(f"meaning_{key}"))
    return say(wrong, key=key, meaning=say(f"meaning_{key}"))
