"""Predict, then observe: the one-sentence answer to a learner's prediction.

A *predict* cell (cell metadata ``{"simlab": {"role": "predict"}}``) asks the learner to set
``prediction = ...`` (a number or one of a few choices) *before* running an experiment. The next
cell runs the experiment and calls :func:`reveal`, which answers in one sentence: right, or wrong
and why. A prediction left as ``None`` gets "make a prediction first" and the notebook carries
on, so a notebook run top to bottom (nbval, CI) never stops at a prediction.

The sentence is in the notebook's language (:func:`simlab.i18n.language.set_language`): the
frame by ID from :mod:`simlab.learn.messages`, the ``why`` through the notebooks' sentence
catalogs (:func:`simlab.i18n.language.sentence`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from simlab.i18n.language import say as _say
from simlab.i18n.language import sentence
from simlab.learn.messages import EN

__all__ = ["reveal", "MAKE_A_PREDICTION"]

#: What a blank prediction gets, in English.
MAKE_A_PREDICTION = EN["make_a_prediction"]


def _matches(prediction: Any, actual: Any, tolerance: float) -> bool:
    if isinstance(prediction, str) and isinstance(actual, str):
        return prediction.strip().lower() == actual.strip().lower()
    if isinstance(prediction, bool) or isinstance(actual, bool):
        return type(prediction) is type(actual) and prediction == actual
    if isinstance(prediction, int | float) and isinstance(actual, int | float):
        return math.isclose(prediction, actual, rel_tol=tolerance, abs_tol=tolerance)
    return prediction == actual


def reveal(
    prediction: Any,
    actual: Any,
    *,
    why: str,
    tolerance: float = 0.0,
    right: Callable[[Any, Any], bool] | None = None,
    say: Callable[[str], None] = print,
) -> bool | None:
    """Answer ``prediction`` against what the experiment gave (``actual``) in one sentence.

    ``why`` is the reason, said either way (it is what the learner should take away).
    ``tolerance`` (relative and absolute) is how close a number must be; ``right(prediction,
    actual)`` replaces the comparison entirely (e.g. "any number above 0"); a prediction it
    cannot compare (it raises TypeError or ValueError, a word where a number was asked) is
    wrong. Returns True or False, or None for a prediction left as None (nothing is judged,
    nothing raises).
    """
    if prediction is None:
        say(_say("learn.make_a_prediction"))
        return None
    try:
        ok = right(prediction, actual) if right else _matches(prediction, actual, tolerance)
    except (TypeError, ValueError):
        ok = False
    key = "learn.right" if ok else "learn.wrong"
    say(_say(key, prediction=repr(prediction), actual=repr(actual), why=sentence(why)))
    return bool(ok)
